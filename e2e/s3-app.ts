// The server for the S3 pass of the journeys (E2E_STORAGE=s3): starts a local S3-compatible
// server (s3rver, packages/server/src/test/s3-server.ts), then the app with its media in that
// bucket, and stops both together.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startS3Server } from '../packages/server/src/test/s3-server.ts';

const s3 = await startS3Server();
const app = spawn(
  process.execPath,
  ['--import', 'tsx', path.resolve(import.meta.dirname, '../packages/server/src/main.ts')],
  { stdio: 'inherit', env: { ...process.env, ...s3.env } },
);
const stop = () => app.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
app.on('exit', async (code) => {
  await s3.stop();
  process.exit(code ?? 0);
});
