import path from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { sharedForWeb } from './shared-for-web.ts';

/** Modules given by their source, under the web package (so '@mesmer/shared' resolves as in the app). */
const fixtures = path.join(import.meta.dirname, 'fixtures');
function sources(files: Record<string, string>): Plugin {
  const nameOf = (id: string) => (id.startsWith('./') ? id.slice(2) : path.relative(fixtures, id));
  return {
    name: 'test-sources',
    resolveId: (id) => (files[nameOf(id)] !== undefined ? path.join(fixtures, nameOf(id)) : null),
    load: (id) => files[nameOf(id)] ?? null,
  };
}

/** Bundles `files` (entry: main.ts) as the web build does, with or without the plugin. */
async function bundle(files: Record<string, string>, plugins: Plugin[]) {
  const output = (await build({
    configFile: false,
    root: path.resolve(import.meta.dirname, '..'),
    logLevel: 'silent',
    plugins: [sources(files), ...plugins],
    build: {
      write: false,
      minify: false,
      modulePreload: false,
      rollupOptions: { input: path.join(fixtures, 'main.ts') },
    },
  })) as Rolldown.RolldownOutput;
  const chunks = output.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry)!;
  /** Whether zod's code is in `chunk` or in a chunk it imports statically. */
  const loadsZod = (chunk: Rolldown.OutputChunk): boolean =>
    Object.keys(chunk.modules).some((id) => id.includes('node_modules/zod/')) ||
    chunk.imports.some((name) => loadsZod(chunks.find((c) => c.fileName === name)!));
  return { entry, chunks, loadsZod };
}

const app = {
  // Calls routes of several contract modules, and checks an e-mail address on a page loaded later.
  'main.ts': `
    import { authApi } from '@mesmer/shared/api/auth';
    import { filesApi } from '@mesmer/shared/api/files';
    import { listeningApi } from '@mesmer/shared/api/listening';
    import { playlistsApi } from '@mesmer/shared/api/playlists';
    import { usersApi } from '@mesmer/shared/api/users';
    import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
    for (const route of [authApi.login, filesApi.list, listeningApi.offline, playlistsApi.list, usersApi.get])
      console.log(route.method, route.path, TEXT_LIMITS.email);
    addEventListener('click', () => import('./signup.ts').then((page) => console.log(page.valid('a@b.c'))));
  `,
  'signup.ts': `
    import { email } from '@mesmer/shared/api/credentials';
    export const valid = (address: string) => email.safeParse(address).success;
  `,
};

describe('the shared package in the web build', () => {
  it('loads no zod for pages that only call routes, and zod for a page that validates', async () => {
    const { entry, chunks, loadsZod } = await bundle(app, [sharedForWeb()]);
    expect(loadsZod(entry)).toBe(false);
    // The routes keep their addresses.
    for (const [method, route] of [
      ['POST', '/token'],
      ['GET', '/files'],
      ['POST', '/session/offline'],
      ['GET', '/playlists'],
      ['GET', '/user'],
    ]) {
      expect(entry.code).toMatch(new RegExp(`method: "${method}",\\s*path: "${route}"`));
    }
    expect(entry.code).toContain('email: 254');
    const signup = chunks.find((c) => c.facadeModuleId?.endsWith('signup.ts'))!;
    expect(loadsZod(signup)).toBe(true);
    expect(signup.code).toContain('must be a valid e-mail address');
    // What the page does not use is left out there too.
    expect(signup.code).not.toContain('Password must be at least 8 characters.');
  });

  it('is what keeps zod out: without it the same pages load zod at once', async () => {
    const { entry, loadsZod } = await bundle(app, []);
    expect(loadsZod(entry)).toBe(true);
  });
});
