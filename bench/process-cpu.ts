/**
 * CPU time of the processes a benchmark measures, read from /proc (Linux; zeros elsewhere). On a
 * machine shared with other work, CPU time per request moves less than requests a second, which drop
 * with whatever else runs.
 */
import fs from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time (user + system, ms) a process has used so far; 0 when it is gone or there is no /proc. */
export function cpuMsOf(pid: number | string | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(after[11]) + Number(after[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The pids of /proc whose command line passes the test. */
function processesWhere(test: (cmdline: string) => boolean): string[] {
  if (!fs.existsSync('/proc')) return [];
  return fs.readdirSync('/proc').filter((name) => {
    if (!/^\d+$/.test(name)) return false;
    try {
      return test(fs.readFileSync(`/proc/${name}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
}

/**
 * CPU time (ms) of the PostgreSQL backends serving the database a URL names (a backend's title reads
 * "postgres: [<cluster>: ]<user> <database> <client> <state>"). A backend that ends takes its time
 * with it, so compare figures taken while the same connections are open.
 */
export function postgresCpuMs(databaseUrl: string | undefined): number {
  if (!databaseUrl) return 0;
  const database = new URL(databaseUrl).pathname.slice(1);
  return processesWhere(
    (cmdline) => /^postgres: (?:\S+: )?\S+ (\S+) /.exec(cmdline)?.[1] === database,
  ).reduce((sum, pid) => sum + cpuMsOf(pid), 0);
}

/** The local redis-server's CPU time (ms), when it runs on this machine. */
export function redisCpuMs(): number {
  const [pid] = processesWhere((cmdline) => cmdline.startsWith('redis-server'));
  return cpuMsOf(pid);
}

/** The server process's and the bench database's PostgreSQL backends' CPU time so far (ms). */
export function serverAndPostgresCpuMs(
  serverPid: number | undefined,
  databaseUrl: string | undefined,
): { server: number; postgres: number } {
  return { server: cpuMsOf(serverPid), postgres: postgresCpuMs(databaseUrl) };
}
