/**
 * Frame times of the haptic cue editor while dragging among 5,000 cues, in Debian's Chromium.
 *
 *   flock /tmp/mesmer-bench.lock npm run bench:cue-editor -w @mesmer/bench
 *   (WEB_DIST=<a built web app> skips the build; CHROMIUM_PATH, DRAG_MOVES (120) change the run;
 *   TRACE_DIR=<folder> keeps each drag's trace for chrome://tracing)
 *
 * Builds the web app, starts a server on a free port with a temporary DATA_DIR and the demo library,
 * signs in as the demo creator sonicmist and saves 5,000 cues on 'Mist Ambient' (45 s): one long cue
 * (1.0-2.5 s, the one grabbed) and 4,999 short ones (5 ms every 8 ms from 3 s). The file page's edit
 * mode opens the editor, then two drags of 120 pointer moves at 60 Hz are measured:
 *   A. the whole file in view (every cue drawn), all 5,000 selected, the long block dragged: each
 *      move previews 5,000 moved cues and draws them all;
 *   B. zoomed in to the finest zoom (10 ms per pixel), the long cue alone dragged among the 5,000.
 * For each, a Chromium performance trace (devtools.timeline) gives the renderer main thread's tasks
 * during the drag (p50, p99, max ms: a frame's work is at most its tasks), both as wall time and
 * as the thread's CPU time (the trace's `tdur`: on a loaded machine a task's wall time also counts
 * the time it waited for a core, its CPU time does not), the page's
 * requestAnimationFrame intervals give the frame times seen (p50, p99, max ms; 16.7 at 60 Hz when no
 * frame is dropped), and long animation frames (> 50 ms) are counted.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { sleep, startBenchServer } from './server-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chrome = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MOVES = Number(process.env.DRAG_MOVES ?? 120);
const CUE_COUNT = 5000;

function benchCues() {
  const cues = [{ time: 1000, stopTime: 2500, strength: 0.8 }];
  for (let i = 0; i < CUE_COUNT - 1; i++) {
    const time = 3000 + i * 8;
    cues.push({ time, stopTime: time + 5, strength: ((i % 10) + 1) / 10 });
  }
  return cues;
}

function buildWeb(): { dir: string; temporary: boolean } {
  if (process.env.WEB_DIST) return { dir: path.resolve(process.env.WEB_DIST), temporary: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-bench-web-'));
  console.log('building the web app…');
  const built = spawnSync(
    'npx',
    ['vite', 'build', 'packages/web', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (built.status !== 0) throw new Error('the web build failed');
  return { dir, temporary: true };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
  };
};
const ms = (n: number) => n.toFixed(1);

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time, µs. */
  tdur?: number;
  args?: { name?: string };
}

/** Wall and CPU durations (ms) of the renderer main thread's tasks in a trace. */
function mainThreadTasks(trace: Buffer): { wall: number[]; cpu: number[] } {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events.filter(
    (e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`) && /RunTask$/.test(e.name) && e.dur !== undefined,
  );
  return {
    wall: tasks.map((e) => (e.dur ?? 0) / 1000),
    cpu: tasks.map((e) => (e.tdur ?? e.dur ?? 0) / 1000),
  };
}

/** The timeline's view from its data attributes, and where a time is on the page. */
async function timelineGeometry(page: Page) {
  const canvas = page.getByTestId('cue-timeline');
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no timeline');
  const scrollMs = Number(await canvas.getAttribute('data-scroll-ms'));
  const msPerPx = Number(await canvas.getAttribute('data-ms-per-px'));
  return {
    box,
    msPerPx,
    xOf: (t: number) => box.x + (t - scrollMs) / msPerPx,
    bottom: box.y + box.height - 6,
  };
}

async function measureDrag(browser: Browser, page: Page, fromX: number, y: number, spanPx: number) {
  // A string, not a function: tsx would name the inner functions with a helper the page lacks.
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__loaf = 0;
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      if (window.__frames.length < 100000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    try {
      new PerformanceObserver((list) => {
        window.__loaf += list.getEntries().length;
      }).observe({ type: 'long-animation-frame', buffered: false });
    } catch {
      // No long-animation-frame in this Chromium: counted as none.
    }
  })()`);
  await sleep(200);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel'] });
  await page.evaluate(() => {
    (window as unknown as { __frames: number[] }).__frames.length = 0;
  });
  await page.mouse.move(fromX, y);
  await page.mouse.down();
  for (let i = 1; i <= MOVES; i++) {
    // There and back: a triangle wave of the given span.
    const phase = i / MOVES;
    const offset = phase < 0.5 ? phase * 2 * spanPx : (1 - phase) * 2 * spanPx;
    await page.mouse.move(fromX + offset, y);
    await sleep(16);
  }
  await page.mouse.up();
  await sleep(100);
  const frames = await page.evaluate(() => (window as unknown as { __frames: number[] }).__frames.slice());
  const loaf = await page.evaluate(() => (window as unknown as { __loaf: number }).__loaf);
  const trace = await browser.stopTracing();
  if (process.env.TRACE_DIR)
    fs.writeFileSync(path.join(process.env.TRACE_DIR, `trace-${Date.now()}.json`), trace);
  const tasks = mainThreadTasks(trace);
  return {
    frames: stats(frames.slice(1)),
    tasks: stats(tasks.wall),
    taskCpu: stats(tasks.cpu),
    longFrames: loaf,
  };
}

async function main() {
  const web = buildWeb();
  const server = await startBenchServer({
    root,
    readyPath: '/api/health',
    env: {
      // The demo accounts have a published password: production seeds them only when forced.
      SEED_DEMO: 'force',
      RATE_LIMIT: 'false',
      WEB_DIST: web.dir,
    },
  });
  const browser = await chromium.launch({
    executablePath: chrome,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  try {
    const context = await browser.newContext({
      baseURL: server.base,
      viewport: { width: 1280, height: 900 },
    });
    await context.addInitScript(() => localStorage.setItem('ageConfirmed', 'true'));
    const page = await context.newPage();
    const login = await page.request.post('/api/token', {
      data: { user: 'sonicmist', password: 'demo-password', timezone: 'UTC' },
    });
    if (!login.ok()) throw new Error(`sign-in failed: ${login.status()}`);
    const files = (
      await (await page.request.get('/api/files', { params: { nameQuery: 'Mist Ambient' } })).json()
    ).files as { id: number; uuid: string; name: string }[];
    const file = files.find((f) => f.name === 'Mist Ambient');
    if (!file) throw new Error('no Mist Ambient in the demo library');
    const { revision } = await (
      await page.request.get('/api/files/cues', { params: { fileId: file.id } })
    ).json();
    const saved = await page.request.put('/api/files/cues', {
      data: { fileId: file.id, revision, cues: benchCues() },
    });
    if (!saved.ok()) throw new Error(`saving the cues failed: ${saved.status()} ${await saved.text()}`);

    await page.goto(`/file/${file.uuid}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('button', { name: 'Open the haptic cue editor' }).click();
    const canvas = page.getByTestId('cue-timeline');
    await canvas.waitFor();
    await sleep(1500);

    // A: whole file, everything selected, the long block dragged by up to 1.5 s.
    await canvas.focus();
    await page.keyboard.press('Control+a');
    let g = await timelineGeometry(page);
    const a = await measureDrag(browser, page, g.xOf(1750), g.bottom, 1500 / g.msPerPx);

    // B: the finest zoom at the long cue, it alone dragged by up to 400 ms.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');
    for (let i = 0; i < 12; i++) await page.keyboard.press('+');
    await sleep(500);
    g = await timelineGeometry(page);
    const b = await measureDrag(browser, page, g.xOf(1750), g.bottom, 400 / g.msPerPx);

    const row = (name: string, r: typeof a) =>
      `| ${name} | ${ms(r.tasks.p50)} / ${ms(r.tasks.p99)} / ${ms(r.tasks.max)} (${r.tasks.n}) | ${ms(r.taskCpu.p99)} / ${ms(r.taskCpu.max)} | ${ms(r.frames.p50)} / ${ms(r.frames.p99)} / ${ms(r.frames.max)} (${r.frames.n}) | ${r.longFrames} |`;
    console.log(
      `\n${CUE_COUNT} cues, ${MOVES} pointer moves per drag, viewport 1280 px, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`,
    );
    console.log(
      '| drag | main-thread tasks ms p50 / p99 / max (count) | their CPU ms p99 / max | rAF frame interval ms p50 / p99 / max (frames) | long frames |',
    );
    console.log('| --- | --- | --- | --- | --- |');
    console.log(row('A: whole file, all 5,000 selected and moved', a));
    console.log(row(`B: 10 ms/px (${ms(g.msPerPx)}), one cue moved`, b));
  } finally {
    await browser.close();
    await server.stop();
    if (web.temporary) fs.rmSync(web.dir, { recursive: true, force: true });
  }
}

await main();
