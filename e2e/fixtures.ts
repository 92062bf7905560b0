import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from './playwright.config.ts';

/** localStorage key of the 18+ confirmation; journeys start past the gate unless they test it. */
export const AGE_CONFIRMED_KEY = 'ageConfirmed';

export const test = base.extend<{ page: Page }>({
  page: async ({ page }, use) => {
    await page.addInitScript((key) => {
      if (!sessionStorage.getItem('e2e-keep-age-gate')) localStorage.setItem(key, 'true');
    }, AGE_CONFIRMED_KEY);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    // What the server's content security policy blocks would be broken for users too.
    page.on('console', (msg) => {
      if (msg.type() === 'error' && msg.text().includes('Content Security Policy')) errors.push(msg.text());
    });
    await use(page);
    expect(errors, 'uncaught errors and blocked loads in the page').toEqual([]);
  },
});
export { expect };

let counter = 0;
/** A username no other journey uses. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}${process.pid % 100}`.slice(0, 20);
}

/** The newest e-mail written to the server's outbox for this address. */
export async function lastMailTo(
  to: string,
  timeoutMs = 10_000,
): Promise<{ subject: string; text: string; link?: string }> {
  const dir = path.join(E2E_DATA_DIR, 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(dir)) {
      const mails = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .reverse()
        .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
        .filter((m) => m.to === to);
      if (mails.length) return mails[0];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}

/** Creates an account through POST /api/register with the page's cookies, so the page is signed in. */
export async function signUpViaApi(
  page: Page,
  prefix = 'user',
): Promise<{ username: string; email: string; password: string }> {
  const username = uniqueName(prefix);
  const account = { username, email: `${username.toLowerCase()}@example.com`, password: 'listen-deeply-42' };
  const res = await page.request.post('/api/register', {
    data: { user: account.username, email: account.email, password: account.password, timezone: 'UTC' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return account;
}

const OWNER = { username: 'mesmer', email: 'mesmer@demo.mesmer.local' };

/**
 * Signs the demo site owner (an Administrator with a random password) in on `request`. The first
 * caller of a run sets a password through a reset mail and keeps it in the data folder; every later
 * caller, in any worker, signs in with it. A second reset would end the sessions other journeys hold.
 */
export async function signInAsOwner(request: APIRequestContext): Promise<void> {
  const kept = path.join(E2E_DATA_DIR, 'owner-password');
  let password: string;
  try {
    fs.writeFileSync(`${kept}.lock`, String(process.pid), { flag: 'wx' });
    const asked = await request.post('/api/reset_password', { data: OWNER });
    expect(asked.status(), await asked.text()).toBe(200);
    const token = new URL((await lastMailTo(OWNER.email)).link ?? '', 'http://x').searchParams.get('token');
    password = `owner-${Date.now()}`;
    const reset = await request.post('/api/reset_password', { data: { token, password } });
    expect(reset.status(), await reset.text()).toBe(204);
    fs.writeFileSync(kept, password);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    await expect.poll(() => fs.existsSync(kept), { timeout: 30_000 }).toBe(true);
    password = fs.readFileSync(kept, 'utf8');
  }
  const login = await request.post('/api/token', {
    data: { user: OWNER.username, password, timezone: 'UTC' },
  });
  expect(login.status(), await login.text()).toBe(200);
}
