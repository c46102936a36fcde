import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/heavy-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // better-sqlite3 is a native addon: separate processes, not worker threads.
    pool: 'forks',
    fileParallelism: true,
    // A worker runs file after file in one process, importing the app's modules once instead of
    // once per file (about 35% of a run's time). Safe because nothing in the app keeps state in a
    // module between apps (what it keeps is per app or per database), and tests undo what they
    // change of the process (vi.stubGlobal, fake timers) and close what they open.
    isolate: false,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which leaves a
    // core idle whenever a test waits on PostgreSQL, a loopback peer or a timer.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    env: { TZ: 'UTC' },
    sequence: { sequencer: HeavyFirstSequencer },
  },
});
