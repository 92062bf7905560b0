import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text assets worth compressing (index.html is sent by the server with settings added; maps only to developers). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * Writes a .br and a .gz beside every compressible file of the build, so the server sends them as
 * they are (Content-Encoding) instead of compressing at every request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'mesmer-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      await Promise.all(
        files
          .filter((f) => COMPRESSIBLE.test(f))
          .map(async (f) => {
            const file = path.join(outDir, f);
            const bytes = fs.readFileSync(file);
            if (bytes.length < MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
              gzip(bytes, { level: 9 }),
            ]);
            fs.writeFileSync(`${file}.br`, br);
            fs.writeFileSync(`${file}.gz`, gz);
          }),
      );
    },
  };
}
