import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { sineFile } from '../packages/server/src/test/audio-fixtures.ts';
import { expect, signInAsOwner, signUpViaApi, test, uniqueName } from './fixtures.ts';

// Hostile text in every field people type, shown on every page that shows it: no script
// runs, no markup from the text reaches the page, and links go only to http(s) and mailto. A script
// that got in would also be blocked by the content security policy, which the fixture turns into a
// failure (its console error); the DOM checks catch markup that CSP would let through.

const VECTORS = [
  '<script>window.__xss("{n}")</script>',
  '<img src=x onerror=window.__xss("{n}")>',
  '<svg onload=window.__xss("{n}")>',
  '"><script>window.__xss("{n}")</script>',
  "'><img src=x onerror=window.__xss('{n}')>",
  '<a href="javascript:window.__xss(\'{n}\')">link {n}</a>',
  '[click {n}](javascript:window.__xss("{n}"))',
  '![img {n}](javascript:window.__xss("{n}"))',
  '[data {n}](data:text/html,<script>window.__xss("{n}")</script>)',
  'javascript:window.__xss("{n}")',
  'JaVaScRiPt:window.__xss("{n}")',
  '&#106;avascript:window.__xss("{n}")',
  '<iframe src="javascript:window.__xss(\'{n}\')"></iframe>',
  '<details open ontoggle=window.__xss("{n}")>',
  '<body onload=window.__xss("{n}")>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss("{n}")>',
  '{{constructor.constructor("window.__xss(\'{n}\')")()}}',
  '<object data="javascript:window.__xss(\'{n}\')"></object>',
  '<style>@import "javascript:window.__xss(\'{n}\')";</style>',
  '<input autofocus onfocus=window.__xss("{n}")>',
];
/** 200 payloads: each vector with ten markers. */
const PAYLOADS = Array.from({ length: 200 }, (_, i) =>
  VECTORS[i % VECTORS.length].replaceAll('{n}', `p${i}`),
);

/** Injected elements or attributes a payload would leave, and links off http(s)/mailto. */
async function expectNothingInjected(page: Page) {
  const found = await page.evaluate(() => {
    const bad: string[] = [];
    const w = window as unknown as { __xssHits?: string[] };
    if (w.__xssHits?.length) bad.push(`ran: ${w.__xssHits.join(',')}`);
    for (const el of document.querySelectorAll(
      'script:not([src]), iframe, object, embed, svg[onload], math, details[ontoggle], body [onload]',
    ))
      bad.push(`element ${el.tagName}`);
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.getAttributeNames()) if (attr.startsWith('on')) bad.push(`${el.tagName} ${attr}`);
    }
    for (const a of document.querySelectorAll('a[href]')) {
      const href = a.getAttribute('href') ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !/^(https?|mailto):/i.test(href)) bad.push(`link ${href}`);
    }
    return bad;
  });
  expect(found).toEqual([]);
}

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __xssHits: string[]; __xss: (n: string) => void };
    w.__xssHits = [];
    w.__xss = (n) => w.__xssHits.push(n);
    window.alert = () => w.__xssHits.push('alert');
  });
  page.on('dialog', (dialog) => {
    throw new Error(`a dialog opened: ${dialog.message()}`);
  });
});

test('biographies: 200 payloads on the profile page', async ({ page }) => {
  const me = await signUpViaApi(page, 'xssbio');
  for (let from = 0; from < PAYLOADS.length; from += 50) {
    const biography = PAYLOADS.slice(from, from + 50).join('\n\n');
    const saved = await page.request.put('/api/user', { data: { biography } });
    expect(saved.status(), await saved.text()).toBe(200);
    await page.goto(`/user/${me.username}`);
    // Text of the batch shows (markup such as <iframe> is dropped by the renderer, so a plain payload is looked for).
    const plain = from + ((29 - (from % 20)) % 20); // a 'javascript:…' payload (VECTORS[9]): plain text
    await expect(page.getByText(`__xss("p${plain}")`, { exact: false }).first()).toBeVisible();
    await expectNothingInjected(page);
  }
});

test('playlist names and descriptions: on the playlist page, the lists and search', async ({ page }) => {
  // One playlist per payload, then several pages: over a minute on a slow 2-core machine.
  test.setTimeout(180_000);
  await signUpViaApi(page, 'xsslist');
  const marker = uniqueName('xq');
  const uuids: string[] = [];
  for (let i = 0; i < PAYLOADS.length; i++) {
    const res = await page.request.post('/api/playlists', {
      data: {
        name: `${marker} ${PAYLOADS[i]}`.slice(0, 100),
        description: PAYLOADS.slice(i, i + 10).join(' '),
        expLevel: 1,
        isPublic: true,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    uuids.push((await res.json()).uuid);
  }
  for (const uuid of uuids.filter((_, i) => i % 10 === 0)) {
    await page.goto(`/playlist/${uuid}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(marker);
    await expectNothingInjected(page);
  }
  await page.goto(`/playlists?search=${marker}`);
  await expectNothingInjected(page);
  await page.goto('/');
  await expectNothingInjected(page);
});

test('messages and thread names: in the thread list and the chat', async ({ page, browser }) => {
  const me = await signUpViaApi(page, 'xssmsg');
  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  const other = await signUpViaApi(otherPage, 'xssfriend');
  const otherId = (await (await otherPage.request.get('/api/user')).json()).user.id;
  const thread = await page.request.post('/api/messages/threads', {
    data: { name: PAYLOADS[5].slice(0, 100), userIds: String(otherId) },
  });
  expect(thread.status(), await thread.text()).toBe(200);
  const threadId = (await thread.json()).id;
  for (let from = 0; from < PAYLOADS.length; from += 8) {
    const sent = await page.request.post('/api/messages', {
      data: { threadId, message: PAYLOADS.slice(from, from + 8).join('\n') },
    });
    expect(sent.status(), await sent.text()).toBe(200);
  }
  for (const p of [page, otherPage]) {
    await p.addInitScript(() => localStorage.setItem('ageConfirmed', 'true'));
    await p.goto(`/messages?thread=${threadId}`);
    await expect(p.getByText('p199', { exact: false }).first()).toBeVisible();
    await expectNothingInjected(p);
  }
  expect(me.username).not.toBe(other.username);
  await otherContext.close();
});

test('trigger requests: names and descriptions on the triggers page', async ({ page }) => {
  const login = await page.request.post('/api/token', {
    data: { user: 'lunadrift', password: 'demo-password' },
  });
  expect(login.status()).toBe(200);
  const marker = uniqueName('xt');
  for (let i = 0; i < PAYLOADS.length; i++) {
    const res = await page.request.post('/api/triggers', {
      data: {
        name: `${marker}${i} ${PAYLOADS[i]}`.slice(0, 60),
        description: PAYLOADS[(i + 7) % PAYLOADS.length],
      },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.goto('/triggers');
  await expect(page.getByText(`${marker}0`, { exact: false }).first()).toBeVisible();
  await expectNothingInjected(page);
});

/** Uploads a short sine tone as lunadrift (a demo creator) and answers the new file. */
async function uploadFile(page: Page, name: string): Promise<{ id: number; uuid: string }> {
  const login = await page.request.post('/api/token', {
    data: { user: 'lunadrift', password: 'demo-password' },
  });
  expect(login.status()).toBe(200);
  const bytes = fs.readFileSync(await sineFile('wav', 2));
  const uuid = randomUUID();
  const fields = { uuid, fileName: 'tone.wav', secure: 'false', chunkIndex: '0', totalChunks: '1' };
  const sent = await page.request.post('/api/files/upload', {
    multipart: {
      ...fields,
      chunkSize: String(bytes.length),
      chunk: { name: 'blob', mimeType: 'audio/wav', buffer: bytes },
    },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const done = await page.request.post('/api/files/upload', { multipart: fields });
  expect(done.status(), await done.text()).toBe(200);
  const created = await page.request.post('/api/files', {
    data: { name, uuid, fileType: 2, isPublic: true },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { id } = (await created.json()) as { id: number };
  const found = await page.request.get(`/api/files?nameQuery=${encodeURIComponent(name)}`);
  const [file] = (await found.json()).files as { id: number; uuid: string }[];
  expect(file?.id).toBe(id);
  return file;
}

test('file names and descriptions: on the file page and in the file list', async ({ page }) => {
  test.setTimeout(90_000);
  const marker = uniqueName('xf');
  const file = await uploadFile(page, marker);
  for (let i = 0; i < PAYLOADS.length; i++) {
    const saved = await page.request.put('/api/files', {
      data: {
        id: file.id,
        fileType: 2,
        name: `${marker} ${PAYLOADS[i]}`,
        description: PAYLOADS.slice(i - (i % 20), i - (i % 20) + 20).join('\n\n'),
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    // Every name is stored; the page is opened for two names in each batch of 20, so each vector is
    // shown as a name once and every batch of descriptions is shown.
    const batch = Math.floor(i / 20);
    if (i % 20 !== (2 * batch) % 20 && i % 20 !== (2 * batch + 1) % 20) continue;
    await page.goto(`/file/${file.uuid}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(marker);
    await expectNothingInjected(page);
  }
  await page.goto(`/files?search=${marker}`);
  await expect(page.getByText(marker, { exact: false }).first()).toBeVisible();
  await expectNothingInjected(page);
});

test('report texts: in the moderation queue', async ({ page }) => {
  const reporter = await signUpViaApi(page, 'xssrep');
  const target = await page.request.get('/api/user?username=lunadrift');
  const subjectId = (await target.json()).user.id;
  for (const reason of PAYLOADS.slice(0, 50)) {
    const res = await page.request.post('/api/reports', { data: { subjectType: 'user', subjectId, reason } });
    expect(res.status(), await res.text()).toBe(200);
  }
  for (let from = 50; from < PAYLOADS.length; from += 25) {
    const res = await page.request.post('/api/reports', {
      data: { subjectType: 'user', subjectId, reason: PAYLOADS.slice(from, from + 25).join('\n') },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  await signInAsOwner(page.request);
  // Closed at once, so other journeys' queues are not filled with these; closed reports show their text too.
  const queue = await page.request.get('/api/moderation/reports?pageSize=50');
  const mine = (
    (await queue.json()).reports as { id: number; reporter: { username: string } | null }[]
  ).filter((r) => r.reporter?.username === reporter.username);
  for (const r of mine) {
    const res = await page.request.post(`/api/moderation/reports/${r.id}/actions`, {
      data: { action: 'dismiss' },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  await page.goto('/moderation');
  await page.getByRole('tab', { name: 'Closed' }).click();
  for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
    if (pageNumber > 1) await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByRole('article').first()).toBeVisible();
    await expectNothingInjected(page);
  }
});
