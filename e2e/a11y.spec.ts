import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

// Accessibility: every page, signed out and signed in, in both themes, has no
// serious or critical axe violation (contrast, names, roles, structure).

const THEMES = ['light', 'dark'] as const;

async function firstUuid(page: Page, url: string, key: 'files' | 'playlists' | 'series'): Promise<string> {
  const body = await (await page.request.get(url)).json();
  return body[key][0].uuid;
}

async function expectNoSeriousViolations(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${path}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

async function useTheme(page: Page, theme: (typeof THEMES)[number]) {
  await page.addInitScript(
    (light) => localStorage.setItem('light', light),
    theme === 'light' ? 'true' : 'false',
  );
}

for (const theme of THEMES) {
  test(`signed-out pages in the ${theme} theme`, async ({ page }) => {
    // Twenty pages, each checked by axe: 1.6-2.1 minutes on a slow 2-core machine.
    test.setTimeout(240_000);
    await useTheme(page, theme);
    const file = await firstUuid(page, '/api/files?pageSize=1', 'files');
    const playlist = await firstUuid(page, '/api/playlists?pageSize=1', 'playlists');
    const plan = await firstUuid(page, '/api/series', 'series');
    for (const path of [
      '/',
      '/files',
      '/music',
      '/playlists',
      `/file/${file}`,
      `/playlist/${playlist}`,
      '/triggers',
      '/plans',
      `/plan/${plan}`,
      '/leaderboard',
      '/playlist/generate',
      '/user/mesmer',
      '/about',
      '/policy/privacy',
      '/policy/cookies',
      '/login',
      '/signup',
      '/reset_password',
      '/messages',
      '/404',
    ]) {
      await expectNoSeriousViolations(page, path);
    }
  });

  test(`signed-in pages in the ${theme} theme`, async ({ page }) => {
    test.setTimeout(120_000);
    await useTheme(page, theme);
    const login = await page.request.post('/api/token', {
      data: { user: 'lunadrift', password: 'demo-password', timezone: 'UTC' },
    });
    expect(login.status()).toBe(200);
    for (const path of [
      '/',
      '/account',
      '/messages',
      '/user/lunadrift',
      '/files',
      '/playlists',
      '/moderation',
      '/insights',
      '/insights/listening',
    ]) {
      await expectNoSeriousViolations(page, path);
    }
  });
}
