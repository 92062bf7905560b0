/**
 * Component tests check each faked /api response (test/testing.tsx) against the shared
 * route contract (packages/shared/src/api), so a fake cannot drift from what the server answers.
 */
import { errorResponse } from '@mesmer/shared/api/common';
import { allRoutes } from '@mesmer/shared/api/routes';
import { matchesPath } from '@mesmer/shared/routes/address';

/** Why a faked response breaks the contract, or null when it keeps it. */
export function contractProblem(method: string, url: string, status: number, body: unknown): string | null {
  const { pathname } = new URL(url, 'http://localhost');
  const call = `${method.toUpperCase()} ${pathname}`;
  const route = allRoutes.find(
    (r) => r.method === method.toUpperCase() && matchesPath(r, pathname.replace(/^\/api(?=\/)/, '')),
  );
  if (!pathname.startsWith('/api/') || !route)
    return `${call}: not in the route contract (packages/shared/src/api)`;
  // Any failure answers { error }, also statuses a route does not list (a 500).
  const schema = status >= 400 ? errorResponse : route.responses[status];
  if (!schema) return `${call}: answers ${status}, which its route does not declare`;
  const parsed = schema.safeParse(status === 204 ? null : body);
  if (parsed.success) return null;
  return `${call} ${status}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`;
}
