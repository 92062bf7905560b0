import MagicString from 'magic-string';
import type { Plugin } from 'vite';

/** The shared package's modules (packages/shared/src/api and domain). */
const SHARED_MODULE = /packages\/shared\/src\/(api|domain)\/[\w-]+\.ts$/;
/** The function that builds each top-level constant of a shared module in the web build. */
const BUILD = '__buildSharedConstant';
/** What the web's `call` reads of a route (lib/api-client.ts). */
const ROUTE_ADDRESS = new Set(['method', 'path']);

/** An ESTree node as the bundler's parser gives it. */
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function children(node: Node): unknown[] {
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'type' || !value || typeof value !== 'object' ? [] : [value],
  );
}

/** Visits every node under `node`; a visit that answers false skips the node's children. */
function walk(node: unknown, visit: (node: Node) => boolean | undefined) {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
  } else if (node && typeof node === 'object' && visit(node as Node) !== false) {
    for (const child of children(node as Node)) walk(child, visit);
  }
}

/** `defineRoute({ ... })`. */
function isRouteDeclaration(node: Node): boolean {
  const callee = node.callee as Node | undefined;
  const [arg] = (node.arguments as Node[] | undefined) ?? [];
  return (
    node.type === 'CallExpression' &&
    callee?.type === 'Identifier' &&
    callee.name === 'defineRoute' &&
    arg?.type === 'ObjectExpression'
  );
}

/**
 * The shared package as the web build sees it (decision 038), rewritten so that a page loads only
 * the schemas it uses itself, and zod not at all when it uses none:
 * - each route of the contract keeps its address (method and path), all the web's `call` reads; its
 *   schemas are the server's and the tests';
 * - every top-level constant is built by a call marked free of side effects, so one that nothing
 *   reads is dropped whole, with what only it needed (zod itself, when no schema is left);
 * - an import that only the cut schemas read goes.
 */
export function transformSharedModule(code: string, program: { body: Node[] }): MagicString {
  const out = new MagicString(code);
  const cut: [number, number][] = [];

  walk(program, (node) => {
    if (!isRouteDeclaration(node)) return;
    const [arg] = node.arguments as Node[];
    const kept = (arg.properties as Node[]).filter((p) =>
      ROUTE_ADDRESS.has(String((p.key as Node | undefined)?.name)),
    );
    out.overwrite(arg.start, arg.end, `{ ${kept.map((p) => code.slice(p.start, p.end)).join(', ')} }`);
    cut.push([arg.start, arg.end]);
    return false;
  });

  // Every top-level constant is built by a call to a function marked free of side effects, so a
  // constant nothing reads is dropped whole, arguments and all (a pure mark on the chain itself
  // would keep a template literal or a spread among its arguments, and the zod import with it).
  let built = false;
  for (const statement of program.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as Node[]) {
      const init = declarator.init as Node | null;
      if (!init || /Literal|Function/.test(init.type)) continue;
      out.appendLeft(init.start, `${BUILD}(() => (`);
      out.prependRight(init.end, '))');
      built = true;
    }
  }
  // An import read only by the cut schemas goes: the bundler places a module in the chunk of any
  // module that imports it, used or not. (A property key of the same name counts as a read: that
  // only keeps an import.)
  const read = new Set<string>();
  const isCut = (n: Node) => cut.some(([start, end]) => n.start >= start && n.end <= end);
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') continue;
    walk(statement, (n) => {
      if (isCut(n)) return false;
      if (n.type === 'Identifier') read.add(String(n.name));
    });
  }
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration') continue;
    const names = (statement.specifiers as Node[]).map((s) => String((s.local as Node).name));
    if (names.length > 0 && names.every((name) => !read.has(name)))
      out.remove(statement.start, statement.end);
  }

  if (built) out.append(`\n/* @__NO_SIDE_EFFECTS__ */ function ${BUILD}(make) { return make(); }\n`);
  return out;
}

export function sharedForWeb(): Plugin {
  return {
    name: 'mesmer-shared-for-web',
    apply: 'build',
    // After TypeScript is stripped: type-only imports are gone by then.
    enforce: 'post',
    transform(code, id) {
      if (!SHARED_MODULE.test(id)) return null;
      const out = transformSharedModule(code, this.parse(code) as unknown as { body: Node[] });
      return { code: out.toString(), map: out.generateMap({ hires: true }) };
    },
  };
}
