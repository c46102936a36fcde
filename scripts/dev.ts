import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `npm run dev`: the API server (restarted on every change) and Vite's dev server for the console
 * (hot reload), together. Open http://localhost:5173/app/: Vite forwards `/v1` to the API.
 */
const apiPort = process.env.PORT ?? '3000';
const children: ChildProcess[] = [
  spawn('npx', ['tsx', 'watch', 'src/cli.ts', 'serve'], { stdio: 'inherit', env: { ...process.env, PORT: apiPort } }),
  spawn('npx', ['vite', '--config', 'web/vite.config.ts'], {
    stdio: 'inherit',
    env: { ...process.env, SWITCHBOARD_DEV_API: `http://127.0.0.1:${apiPort}` },
  }),
];

const stopAll = () => {
  for (const child of children) {
    child.kill('SIGTERM');
  }
};
for (const child of children) {
  child.on('exit', (code) => {
    stopAll();
    process.exitCode = code ?? 1;
  });
}
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
