import { createHash, randomBytes } from 'node:crypto';

/** A new opaque secret for a session or e-mail link (256 bits, URL safe). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What we store instead of the token itself. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
