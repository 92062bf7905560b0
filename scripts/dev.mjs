// `npm run dev`: the API server with reload on change, and Vite with hot reload on :5173.
import { spawn } from 'node:child_process';

const children = [
  spawn('node', ['--watch', '--import', 'tsx', 'packages/server/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development' },
  }),
  spawn('npx', ['vite', '--config', 'packages/web/vite.config.ts', 'packages/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
