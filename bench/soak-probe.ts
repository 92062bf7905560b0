/**
 * Loaded into each server process of the soak (`node --import ./soak-probe.ts main.ts`): every
 * SOAK_PROBE_MS it appends one JSON line to SOAK_PROBE_FILE with the process's RSS, heap and the
 * event loop's delay over the last window (p99 and max, milliseconds), so the soak can read
 * memory and responsiveness from outside without changing the server.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.SOAK_PROBE_FILE;
const every = Number(process.env.SOAK_PROBE_MS ?? 10_000);

if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const timer = setInterval(() => {
    const memory = process.memoryUsage();
    const line = {
      t: Date.now(),
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      loopP99Ms: delay.percentile(99) / 1e6,
      loopMaxMs: delay.max / 1e6,
    };
    delay.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, every);
  timer.unref();
}
