import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry a secret: Patreon's OAuth `code` and `state` on /patreon/oauth, the
 * e-mail links' `token` (/verify, /reset), media URLs' signature, and the usual token names.
 */
const SECRET_PARAMS = new Set([
  'code',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'utoken',
  'sig',
  'signature',
  'password',
]);

/** Secret fields, wherever a log call puts them (pino paths; `*` is one level). */
const SECRET_FIELDS = [
  'password',
  'authCode',
  'accessToken',
  'refreshToken',
  'access_token',
  'refresh_token',
  'utoken',
  'token',
];

const REDACTED = '[redacted]';

/** `url` with the values of secret query parameters replaced (names and order kept). */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judged by the raw name.
      }
      return SECRET_PARAMS.has(name.toLowerCase()) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

/**
 * The logger's redaction: secret headers (authorization, cookies both ways) and fields, at the top
 * of a log object or one level down (a logged body).
 */
export const logRedaction = {
  paths: [
    'headers.authorization',
    'headers.cookie',
    'headers["set-cookie"]',
    'req.headers.authorization',
    'req.headers.cookie',
    'res.headers["set-cookie"]',
    ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ],
  censor: REDACTED,
};

/**
 * Fastify's request serializer (its default's fields) with the URL's secrets redacted: the
 * "incoming request" line of every request is logged at info.
 */
export const logSerializers = {
  req(req: FastifyRequest) {
    return {
      method: req.method,
      url: redactUrl(req.url),
      version: [req.headers?.['accept-version']].flat()[0],
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};
