// Lighthouse (mobile, its default throttling) on home, Files, a playlist page and a file page of a
// running Mesmer, in Debian's Chromium. Start the server first (`npm start`), then:
//   npm run bench:lighthouse -w @mesmer/bench            # BENCH_URL (http://localhost:3000), RUNS (3),
//                                                         # VISITOR=first|returning for one of the two
// Lighthouse is fetched by npx (lighthouse@12, the last line for Node 20), not kept in the lock file.
// Each page runs RUNS times; the median run by performance score is printed, for two visitors:
// - a first visit (Lighthouse's own fresh profile): the 18+ gate is the page, painted from the HTML;
// - a returning visitor who confirmed their age: a profile with the confirmation in localStorage and
//   its cookie, and nothing in the HTTP cache (it only ever opened /api/health), so the library renders.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const base = (process.env.BENCH_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const runs = Number(process.env.RUNS ?? 3);
const chrome = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const flags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
].join(' ');

async function first(pathAndQuery: string, key: 'files' | 'playlists'): Promise<string> {
  const res = await fetch(`${base}${pathAndQuery}`);
  const body = (await res.json()) as Record<string, { uuid: string }[]>;
  return body[key][0].uuid;
}

interface Result {
  scores: Record<string, number>;
  fcp: number;
  lcp: number;
  tbt: number;
  jsKb: number;
}

/** A Chromium profile of a visitor who confirmed they are 18 or older, with an empty HTTP cache. */
async function returningVisitorProfile(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-lh-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chrome,
    args: ['--no-sandbox'],
  });
  const page = await context.newPage();
  await page.goto(`${base}/api/health`);
  await page.evaluate(() => localStorage.setItem('ageConfirmed', 'true'));
  // The app's cookie lasts a year; a session cookie would not outlive this context, and the server
  // would send the gate's page instead of the library's.
  const aYear = 365 * 24 * 60 * 60;
  await context.addCookies([
    { name: 'ageConfirmed', value: 'true', url: base, expires: Math.floor(Date.now() / 1000) + aYear },
  ]);
  await context.close();
  return dir;
}

/** One Lighthouse run; with `profile`, in a copy of it that Lighthouse must not clear. */
function lighthouse(url: string, profile?: string): Result {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-lh-'));
  const out = path.join(runDir, 'report.json');
  const profileCopy = path.join(runDir, 'profile');
  if (profile) fs.cpSync(profile, profileCopy, { recursive: true });
  execFileSync(
    'npx',
    [
      '--yes',
      'lighthouse@12',
      url,
      '--quiet',
      // The last --user-data-dir wins over the one Lighthouse's launcher adds.
      `--chrome-flags=${flags}${profile ? ` --user-data-dir=${profileCopy}` : ''}`,
      ...(profile ? ['--disable-storage-reset'] : []),
      '--only-categories=performance,accessibility,best-practices,seo',
      '--output=json',
      `--output-path=${out}`,
    ],
    { env: { ...process.env, CHROME_PATH: chrome }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  const audits = report.audits;
  const requests: { resourceType?: string; transferSize: number }[] =
    audits['network-requests'].details.items;
  return {
    scores: Object.fromEntries(
      Object.entries(report.categories as Record<string, { score: number }>).map(([k, v]) => [
        k,
        Math.round(v.score * 100),
      ]),
    ),
    fcp: audits['first-contentful-paint'].numericValue,
    lcp: audits['largest-contentful-paint'].numericValue,
    tbt: audits['total-blocking-time'].numericValue,
    jsKb:
      requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + r.transferSize, 0) / 1024,
  };
}

const pages = {
  home: '/',
  files: '/files',
  playlist: `/playlist/${await first('/api/playlists?pageSize=1', 'playlists')}`,
  file: `/file/${await first('/api/files?pageSize=1', 'files')}`,
};

function table(title: string, profile?: string) {
  console.log(`\n${title}\n`);
  console.log(
    '| page | performance | accessibility | best practices | SEO | FCP s | LCP s | TBT ms | JS KiB |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, pagePath] of Object.entries(pages)) {
    const results: Result[] = [];
    // Lighthouse now and then fails to record a trace (NO_NAVSTART): the first such run of a page is made again.
    for (let i = 0, failures = 0; i < runs; i++) {
      try {
        results.push(lighthouse(`${base}${pagePath}`, profile));
      } catch {
        failures++;
        const again = failures === 1;
        console.error(`${name}: a Lighthouse run failed; it is ${again ? 'made again' : 'left out'}`);
        if (again) i--;
      }
    }
    if (results.length === 0) {
      console.log(`| ${name} | failed | | | | | | | |`);
      continue;
    }
    results.sort((a, b) => a.scores.performance - b.scores.performance);
    const r = results[Math.floor(results.length / 2)];
    console.log(
      `| ${name} | ${r.scores.performance} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.scores.seo} | ` +
        `${(r.fcp / 1000).toFixed(2)} | ${(r.lcp / 1000).toFixed(2)} | ${Math.round(r.tbt)} | ${r.jsKb.toFixed(0)} |`,
    );
  }
}

console.log(`Lighthouse 12, mobile, ${base}, median of ${runs} runs`);
if (process.env.VISITOR !== 'returning') table('First visit (the 18+ gate)');
if (process.env.VISITOR !== 'first')
  table('Returning visitor (18+ confirmed, empty HTTP cache)', await returningVisitorProfile());
