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

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

function toQueryString(query: Record<string, QueryValue> = {}): string {
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

export async function api<T>(path: string, req: ApiRequest = {}): Promise<T> {
  const res = await fetch(`/api${path}${toQueryString(req.query)}`, {
    method: req.method ?? 'GET',
    headers: req.body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
    credentials: 'same-origin',
    signal: req.signal,
  });
  if (res.status === 204) return undefined as T;
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
