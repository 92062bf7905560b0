// Lighthouse (mobile, its default throttling) on home, Files, a playlist page and a file page of a
// running Mesmer (issue 17 item 1), in Debian's Chromium. Start the server first (`npm start`), then:
//   npm run bench:lighthouse -w @mesmer/bench            # BENCH_URL (http://localhost:3000), RUNS (3)
// Lighthouse is fetched by npx (lighthouse@12, the last line for Node 20), not kept in the lock file.
// Each page runs RUNS times; the median run by performance score is printed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

function lighthouse(url: string): Result {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-lh-')), 'report.json');
  execFileSync(
    'npx',
    [
      '--yes',
      'lighthouse@12',
      url,
      '--quiet',
      `--chrome-flags=${flags}`,
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

console.log(`Lighthouse 12, mobile, ${base}, median of ${runs} runs\n`);
console.log(
  '| page | performance | accessibility | best practices | SEO | FCP s | LCP s | TBT ms | JS KiB |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [name, pagePath] of Object.entries(pages)) {
  const results: Result[] = [];
  for (let i = 0; i < runs; i++) {
    try {
      results.push(lighthouse(`${base}${pagePath}`));
    } catch {
      console.error(`${name}: a Lighthouse run failed; it is left out`);
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
      `${(r.fcp / 1000).toFixed(1)} | ${(r.lcp / 1000).toFixed(1)} | ${Math.round(r.tbt)} | ${r.jsKb.toFixed(0)} |`,
  );
}
