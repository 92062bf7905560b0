// Types only from the contract: a page imports an address (routes/), never a schema or zod (decision 038).
import type {
  RouteBody,
  RouteDefinition,
  RouteParams,
  RouteQuery,
  RouteResponse,
} from '@mesmer/shared/api/contract';
import type { RouteOf } from '@mesmer/shared/api/routes';
import { queryString, type RouteAddress, routePath } from '@mesmer/shared/routes/address';

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

/** What a call to `A` sends besides its address: only the parts its route declares, typed from its schemas. */
export type CallInput<
  A extends RouteAddress,
  R extends RouteDefinition = RouteOf<A>,
> = (RouteParams<R> extends undefined ? { params?: undefined } : { params: RouteParams<R> }) &
  (RouteQuery<R> extends undefined
    ? { query?: undefined }
    : object extends RouteQuery<R>
      ? { query?: RouteQuery<R> }
      : { query: RouteQuery<R> }) &
  (RouteBody<R> extends undefined ? { body?: undefined } : { body: RouteBody<R> }) & {
    signal?: AbortSignal;
  };

/**
 * Calls the route at `address` (packages/shared/src/routes) and resolves to the success answer its
 * contract declares (null for a 204); any other status throws an ApiError with the server's message.
 */
export function call<A extends RouteAddress>(
  address: A,
  ...[input]: object extends CallInput<A> ? [CallInput<A>?] : [CallInput<A>]
): Promise<RouteResponse<RouteOf<A>>> {
  const { params, query, body, signal } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
    body?: unknown;
    signal?: AbortSignal;
  };
  return send(`${routePath(address, params)}${queryString(query)}`, address.method, body, signal);
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
