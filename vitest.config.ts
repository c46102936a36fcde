import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/heavy-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // better-sqlite3 is a native addon: separate processes, not worker threads.
    pool: 'forks',
    fileParallelism: true,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which leaves a
    // core idle whenever a test waits on PostgreSQL, a loopback peer or a timer.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    env: { TZ: 'UTC' },
    sequence: { sequencer: HeavyFirstSequencer },
  },
});
