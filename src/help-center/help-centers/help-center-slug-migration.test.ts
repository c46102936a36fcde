import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { adminQuery, uniqueName, withDatabase } from '../../../test/test-databases.js';
import { connectPostgres, connectSqlite, type DatabaseHandle } from '../../db/connect.js';
import type { Dialect } from '../../db/dialect.js';
import { migrateToLatest } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { fixedClock } from '../../lib/clock.js';
import { createIdFactory } from '../../lib/ids.js';
import { createOrganizationWithAdmin } from '../../platform/organizations/organization.service.js';

const BEFORE_INSTANCE_SLUGS = '2026-11-29T0360_macro_descriptions';

/** An empty database of the dialect (not the migrated template), and how to drop it. */
async function emptyDatabase(dialect: Dialect): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  if (dialect === 'postgres') {
    const postgres = inject('postgres');
    if (!postgres) {
      throw new Error('PostgreSQL is not available for this run');
    }
    const name = uniqueName('sb_slug_migration');
    await adminQuery(postgres.serverUrl, `create database "${name}"`);
    const handle = connectPostgres(withDatabase(postgres.serverUrl, name), 2);
    return {
      handle,
      drop: async () => {
        await handle.close();
        await adminQuery(postgres.serverUrl, `drop database if exists "${name}" with (force)`);
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-slug-migration-'));
  const handle = connectSqlite(join(dir, 'switchboard.db'));
  return {
    handle,
    drop: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each(DIALECTS)('the migration to instance-wide help-center slugs on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) {
      await cleanup();
    }
  });

  it('renames slugs that organizations share: the oldest keeps it, later ones get the first free -2, -3…', async () => {
    const database = await emptyDatabase(dialect);
    cleanups.push(database.drop);
    const { db } = database.handle;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE_INSTANCE_SLUGS)).error).toBeUndefined();

    const clock = fixedClock('2026-01-15T09:00:00.000Z');
    const deps = { db, clock, ids: createIdFactory(clock) };
    const organizations = [];
    for (const name of ['One', 'Two', 'Three']) {
      organizations.push(await createOrganizationWithAdmin(deps, { name, adminEmail: `admin@${name.toLowerCase()}.test` }));
    }
    const rows = [
      // [id, organization, slug, created at]
      ['aaaaaaaaaaaaaaaaaaaaaa01', 0, 'docs', '2026-01-02T00:00:00.000Z'],
      ['aaaaaaaaaaaaaaaaaaaaaa02', 1, 'docs', '2026-01-03T00:00:00.000Z'],
      ['aaaaaaaaaaaaaaaaaaaaaa03', 2, 'docs', '2026-01-04T00:00:00.000Z'],
      ['aaaaaaaaaaaaaaaaaaaaaa04', 1, 'docs-2', '2026-01-01T00:00:00.000Z'],
      ['aaaaaaaaaaaaaaaaaaaaaa06', 1, 'faq', '2026-01-05T00:00:00.000Z'],
      ['aaaaaaaaaaaaaaaaaaaaaa05', 0, 'faq', '2026-01-05T00:00:00.000Z'],
      ['aaaaaaaaaaaaaaaaaaaaaa07', 2, 'only-mine', '2026-01-06T00:00:00.000Z'],
    ] as const;
    for (const [id, organization, slug, at] of rows) {
      const owner = organizations[organization];
      if (!owner) {
        throw new Error('three organizations');
      }
      // biome-ignore lint/suspicious/noExplicitAny: the table as it was before the migration
      await (db as any)
        .insertInto('help_centers')
        .values({
          id,
          organization_id: owner.organizationId,
          name: slug,
          slug,
          is_protected: false,
          meta: '{}',
          created_by: owner.userId,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }

    await migrateToLatest(db);
    const slugs = await db.selectFrom('help_centers').select(['id', 'slug', 'custom_domain', 'theme']).orderBy('id').execute();
    expect(slugs).toEqual(
      [
        ['aaaaaaaaaaaaaaaaaaaaaa01', 'docs'],
        ['aaaaaaaaaaaaaaaaaaaaaa02', 'docs-3'],
        ['aaaaaaaaaaaaaaaaaaaaaa03', 'docs-4'],
        ['aaaaaaaaaaaaaaaaaaaaaa04', 'docs-2'],
        ['aaaaaaaaaaaaaaaaaaaaaa05', 'faq'],
        ['aaaaaaaaaaaaaaaaaaaaaa06', 'faq-2'],
        ['aaaaaaaaaaaaaaaaaaaaaa07', 'only-mine'],
      ].map(([id, slug]) => ({ id, slug, custom_domain: null, theme: null })),
    );
  });
});
