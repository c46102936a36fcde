import { buildSwitchboard } from './build.js';
import { datasetLocation, SIZE_NAMES } from './datasets.js';
import { COMMON_OPTIONS, parse, parseSizes, resolveTarget } from './options.js';
import { installCleanup } from './processes.js';
import { ensureDataset } from './seed-data.js';

/**
 * `npm run bench:seed`: seeds the benchmark's datasets (1k and 1m rows per list) on SQLite and
 * PostgreSQL, under bench/.data/ and in databases switchboard_bench_1k / _1m. Datasets already
 * seeded are kept unless --force.
 */
const USAGE = `Usage: npm run bench:seed -- [options]
  --dialect sqlite|postgres|both   default: both when PostgreSQL answers at BENCH_DATABASE_URL
                                   (default ${'postgres://postgres@127.0.0.1:5432/postgres'})
  --size 1k|1m|both                default: both
  --rows-1m N                      rows per list of the "1m" dataset (default 1000000; env BENCH_ROWS_1M)
  --force                          seed again even when the dataset is there
  --no-build                       skip npm run build (dist/ must be current)`;

async function main(): Promise<void> {
  const values = parse(process.argv.slice(2), {
    ...COMMON_OPTIONS,
    size: { type: 'string' },
    force: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  installCleanup();
  const target = await resolveTarget(values);
  const sizes = parseSizes(values.size);
  if (!values['no-build']) {
    buildSwitchboard(console.log);
  }
  for (const dialect of target.dialects) {
    for (const size of SIZE_NAMES.filter((name) => sizes.includes(name))) {
      const location = datasetLocation(dialect, size, target.adminUrl);
      const meta = await ensureDataset(location, { ...target, force: values.force, log: console.log });
      console.log(`${dialect} ${size}: ready (${meta.rows} rows per list, seeded ${meta.seededAt} in ${meta.seedSeconds} s)`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
