import {
  queryString,
  type RouteBody,
  type RouteDefinition,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  routePath,
} from '@mesmer/shared/api/contract';

/** The one way the web app talks to /api: JSON in and out, cookies included, typed errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** What a call sends besides its route: only the parts the route declares, typed from its schemas. */
export type CallInput<R extends RouteDefinition> = (RouteParams<R> extends undefined
  ? { params?: undefined }
  : { params: RouteParams<R> }) &
  (RouteQuery<R> extends undefined
    ? { query?: undefined }
    : object extends RouteQuery<R>
      ? { query?: RouteQuery<R> }
      : { query: RouteQuery<R> }) &
  (RouteBody<R> extends undefined ? { body?: undefined } : { body: RouteBody<R> }) & {
    signal?: AbortSignal;
  };

/**
 * Calls `route` of the shared contract (packages/shared/src/api) and resolves to its declared
 * success answer (null for a 204); any other status throws an ApiError with the server's message.
 */
export function call<R extends RouteDefinition>(
  route: R,
  ...[input]: object extends CallInput<R> ? [CallInput<R>?] : [CallInput<R>]
): Promise<RouteResponse<R>> {
  const { params, query, body, signal } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
    body?: unknown;
    signal?: AbortSignal;
  };
  return send(`${routePath(route, params)}${queryString(query)}`, route.method, body, signal);
}

async function send<T>(path: string, method: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const res = await fetch(`/api${path}`, {
    method,
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });
  if (res.status === 204) return null as T;
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    throw new ApiError(res.status, data?.error ?? `Request failed (${res.status}).`, data?.field);
  }
  return data as T;
}

/** The browser's IANA time zone, sent with login, register and session calls. */
export function browserTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
