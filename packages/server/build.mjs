// Compiles the server into one JavaScript file (dist/main.js) for `npm start`: no TypeScript
// compiler in the running process (decision 027). Packages stay outside the bundle, our own
// workspace code (@mesmer/shared) goes in; the migrations are copied beside it.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = import.meta.dirname;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).flatMap((name) => [name, `${name}/*`]);
const outdir = path.join(root, 'dist');

fs.rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'src/main.ts')],
  outfile: path.join(outdir, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
fs.cpSync(path.join(root, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
