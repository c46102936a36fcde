import type { Config } from '../config.js';
import { openReachableDatabase } from '../db/reachability.js';
import { createLogger } from '../http/logging.js';
import { limitHeapGrowth } from '../lib/heap-growth.js';
import { resolveSecretKey } from '../lib/secret-box.js';
import { closeOnSignals, startServer } from '../server.js';
import { type CliIo, type Command, type ParsedArgs, withDatabase } from './command.js';

export const SERVE: Command = {
  name: 'serve',
  summary: 'apply pending migrations and serve the three APIs (what `npm start` runs)',
  options: [],
  run: serve,
};

export const MIGRATE: Command = {
  name: 'migrate',
  summary: 'apply pending migrations',
  options: [],
  run: (_args, config, io) =>
    withDatabase(config, async (_db, applied) => {
      io.out(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.');
      return 0;
    }),
};

async function serve(_args: ParsedArgs, config: Config, io: CliIo): Promise<number> {
  // Configuration first (PostgreSQL needs SECRET_KEY), then the database: each problem is reported
  // in one line before the server starts anything.
  resolveSecretKey(config);
  const probe = await openReachableDatabase(config);
  await probe.close();
  const log = createLogger(config);
  limitHeapGrowth();
  const server = await startServer(config, log, io.out);
  await closeOnSignals(server, log);
  return 0;
}
