/**
 * Where an /api call is: its method and path, and a name (`domain.call`) that finds its schemas in the
 * contract (api/routes.ts). Plain data without zod, so the web can import every address and load zod
 * only on the pages that validate (decision 038). The schemas are added in api/<domain>.ts.
 */
export interface RouteAddress {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under /api, Fastify style: `/playlist/user`, `/things/:id` (names in `params`). */
  readonly path: string;
}

/** The path of `route` under /api with its `:name` parameters filled in. */
export function routePath(route: RouteAddress, params?: Record<string, string | number>): string {
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
export function matchesPath(route: RouteAddress, pathname: string): boolean {
  const pattern = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(pathname);
}
