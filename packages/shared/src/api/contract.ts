import { z } from 'zod';

/**
 * One API call, declared once (docs/decisions/015-route-contract.md): the server registers it
 * (platform/contract-route.ts), the web calls it (lib/api-client.ts `call`), tests enumerate it
 * (`allRoutes` in ./routes.ts). Schemas are zod; every type is inferred from them.
 */
export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under /api, Fastify style: `/playlist/user`, `/things/:id` (names in `params`). */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Every answer by status, errors included; 2xx ones are what the web's `call` resolves to. */
  responses: Readonly<Record<number, z.ZodType>>;
  /** OpenAPI grouping, summary and description (shown at /api/docs). */
  tags: readonly string[];
  summary?: string;
  description?: string;
}

/** Keeps the literal types of a declaration (method, path, schemas) for inference. */
export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** The answer of a 204: no body. */
export const noContent = z.null().describe('No content');

type SchemaOf<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer S extends z.ZodType }
  ? S
  : undefined;

type SuccessStatus = 200 | 201 | 202 | 204;

/** What a call answers on success: the union of its 2xx response schemas' output. */
export type RouteResponse<R extends RouteDefinition> = {
  [S in keyof R['responses']]: S extends SuccessStatus ? z.output<R['responses'][S]> : never;
}[keyof R['responses']];

/** The query a caller sends: keys optional where the server has a default, values as the server reads them. */
export type RouteQuery<R extends RouteDefinition> =
  SchemaOf<R, 'query'> extends z.ZodType
    ? QueryOf<z.input<SchemaOf<R, 'query'>>, z.output<SchemaOf<R, 'query'>>>
    : undefined;
type QueryOf<In, Out> = { [K in keyof In]: K extends keyof Out ? Out[K] : never };

/** The body a caller sends (before the server's defaults and transforms). */
export type RouteBody<R extends RouteDefinition> =
  SchemaOf<R, 'body'> extends z.ZodType ? z.input<SchemaOf<R, 'body'>> : undefined;

/** Path parameters a caller fills in. */
export type RouteParams<R extends RouteDefinition> =
  SchemaOf<R, 'params'> extends z.ZodType ? z.input<SchemaOf<R, 'params'>> : undefined;

/** The path of `route` under /api with its `:name` parameters filled in. */
export function routePath(route: RouteDefinition, params?: Record<string, string | number>): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${route.method} ${route.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** Query strings as the server's schemas read them: lists comma-joined, empty values left out. */
export function queryString(query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Whether `pathname` (under /api) is a path of `route`. */
export function matchesPath(route: RouteDefinition, pathname: string): boolean {
  const pattern = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(pathname);
}
