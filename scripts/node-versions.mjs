// Starts the compiled server (what `npm start` serves) on each Node.js version the README names:
// the one running this script, and the 22 and 24 LTS lines, whose Linux builds come from the npm
// registry (node-linux-<arch>, kept in .tmp/node-versions). Each run gets a fresh embedded database
// and must answer health, a sign-up (argon2, mail to the outbox), the signed-in user and the files
// list. `npm test` runs it; `node scripts/node-versions.mjs 22` checks one line.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cache = path.join(root, '.tmp/node-versions');
const LTS_LINES = ['22', '24'];
const lines = process.argv.slice(2).length > 0 ? process.argv.slice(2) : LTS_LINES;
const port = Number(process.env.NODE_VERSIONS_PORT ?? 3130);

/** The newest build of `line` for this machine, unpacked once; answers the path of its `node`. */
function nodeBinary(line) {
  const pkg = `node-linux-${process.arch}`;
  const version = execFileSync('npm', ['view', `${pkg}@${line}`, 'version', '--json'], { encoding: 'utf8' });
  const byNumber = (a, b) => a.localeCompare(b, 'en', { numeric: true });
  const newest = [JSON.parse(version)].flat().sort(byNumber).at(-1);
  const dir = path.join(cache, newest);
  const bin = path.join(dir, 'package/bin/node');
  if (!fs.existsSync(bin)) {
    fs.mkdirSync(dir, { recursive: true });
    const tgz = execFileSync('npm', ['pack', `${pkg}@${newest}`, '--silent'], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
    execFileSync('tar', ['-xzf', tgz], { cwd: dir });
    fs.rmSync(path.join(dir, tgz));
  }
  return bin;
}

async function call(method, url, { body, token } = {}) {
  const res = await fetch(`http://127.0.0.1:${port}/api${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /api${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

async function waitForHealth(server, log) {
  for (let i = 0; i < 450; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${log()}`);
    try {
      const health = await call('GET', '/health');
      if (health.status === 'ok') return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no healthy answer within 90 s:\n${log()}`);
}

async function check(node) {
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const dataDir = fs.mkdtempSync(path.join(root, '.tmp/node-versions-data-'));
  let output = '';
  const server = spawn(node, [path.join(root, 'packages/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
    },
  });
  server.stdout.on('data', (d) => (output += d));
  server.stderr.on('data', (d) => (output += d));
  try {
    await waitForHealth(server, () => output);
    const name = `node${version.replace(/\W/g, '')}`.slice(0, 20);
    const signedUp = await call('POST', '/register', {
      body: { user: name, email: `${name}@example.test`, password: 'a long enough password' },
    });
    const token = signedUp.token ?? signedUp.data?.token;
    if (!token) throw new Error(`sign-up answered no token: ${JSON.stringify(signedUp)}`);
    const me = await call('GET', '/user', { token });
    const username = me.user?.username ?? me.username;
    if (username !== name) throw new Error(`GET /api/user answered ${JSON.stringify(me).slice(0, 200)}`);
    await call('GET', '/files');
    console.log(`Node ${version}: the compiled server starts and serves (health, sign-up, user, files).`);
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

fs.mkdirSync(cache, { recursive: true });
execFileSync('npm', ['run', '--silent', 'build', '-w', '@mesmer/server'], { cwd: root, stdio: 'inherit' });
await check(process.execPath);
for (const line of lines) await check(nodeBinary(line));
