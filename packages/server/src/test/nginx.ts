/**
 * nginx in front of server processes on this machine, configured by the deployment recipe
 * (docs/deploy/nginx.conf) with its upstream servers and listen port replaced. It runs in the
 * foreground as the current user under a temporary prefix (its own pid file, logs and temp folders),
 * so it touches neither /etc/nginx nor port 80. NGINX_PATH, else Debian's /usr/sbin/nginx
 * (`npm test` installs it: scripts/ensure-nginx.mjs).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './server-process.ts';

const recipeFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../docs/deploy/nginx.conf',
);

export interface Upstream {
  host: string;
  port: number;
}

/** The recipe with `upstreams` as its upstream's servers and nginx listening on 127.0.0.1:`port`. */
function siteFromRecipe(recipe: string, opts: { port: number; upstreams: readonly Upstream[] }): string {
  const servers = opts.upstreams.map((u) => `    server ${u.host}:${u.port};`).join('\n');
  let upstreamFound = false;
  let site = recipe.replace(/(upstream mesmer \{\n)([\s\S]*?\n)(\})/, (_all, open, body: string, close) => {
    upstreamFound = true;
    const kept = body
      .split('\n')
      .filter((line) => !/^\s*server\s+\S+;/.test(line))
      .join('\n');
    return `${open}${servers}\n${kept}${close}`;
  });
  let listenFound = false;
  site = site.replace(/^(\s*)listen 80;$/m, (_all, indent) => {
    listenFound = true;
    return `${indent}listen 127.0.0.1:${opts.port};`;
  });
  if (!upstreamFound || !listenFound)
    throw new Error(`${recipeFile} no longer has "upstream mesmer { server …; }" and "listen 80;"`);
  return site;
}

export interface Nginx {
  url: string;
  port: number;
  /** nginx's error log so far. */
  errorLog(): string;
  stop(): Promise<void>;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts nginx from the recipe in front of the server processes at `upstreams`, on a free port of 127.0.0.1. */
export async function startNginx(upstreams: readonly Upstream[]): Promise<Nginx> {
  const binary = process.env.NGINX_PATH || '/usr/sbin/nginx';
  if (!fs.existsSync(binary))
    throw new Error(
      `nginx is not installed (${binary}): run \`apt-get install -y nginx-light\` as root, or set NGINX_PATH ` +
        '(`npm test` installs it when it runs as root).',
    );
  const port = await freePort();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-nginx-'));
  fs.writeFileSync(
    path.join(prefix, 'mesmer.conf'),
    siteFromRecipe(fs.readFileSync(recipeFile, 'utf8'), { port, upstreams }),
  );
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `    ${kind}_temp_path ${path.join(prefix, kind)};`)
    .join('\n');
  fs.writeFileSync(
    path.join(prefix, 'nginx.conf'),
    [
      // Run as root, nginx's workers would become `nobody`, who cannot use this folder.
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      `pid ${path.join(prefix, 'nginx.pid')};`,
      `error_log ${path.join(prefix, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '    access_log off;',
      temp,
      `    include ${path.join(prefix, 'mesmer.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const errorLog = () => fs.readFileSync(path.join(prefix, 'error.log'), 'utf8');
  let stderr = '';
  const child: ChildProcess = spawn(
    binary,
    [
      '-p',
      prefix,
      '-c',
      path.join(prefix, 'nginx.conf'),
      '-e',
      path.join(prefix, 'error.log'),
      '-g',
      'daemon off;',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGQUIT: nginx finishes open requests, then exits.
      child.kill('SIGQUIT');
      await exited;
    }
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) {
      const log = fs.existsSync(path.join(prefix, 'error.log')) ? errorLog() : '';
      await stop();
      throw new Error(`nginx exited with ${child.exitCode}: ${stderr}${log}`);
    }
    if (await accepts(port)) return { url: `http://127.0.0.1:${port}`, port, errorLog, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error('nginx did not listen within 5 s');
}
