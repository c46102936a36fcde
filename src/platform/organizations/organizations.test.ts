import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { buildTestApp, createTestDatabase, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { connectPostgres, type DatabaseHandle } from '../../db/connect.js';
import type { DB } from '../../db/database.js';
import { fixedClock } from '../../lib/clock.js';
import { createIdFactory } from '../../lib/ids.js';
import {
  createFirstStartOrganization,
  createOrganizationWithAdmin,
  FIRST_START_ORGANIZATION,
  type NewOrganization,
} from './organization.service.js';

async function organizationRows(db: Kysely<DB>) {
  return db.selectFrom('organizations').select(['id', 'name']).execute();
}

describe.each(DIALECTS)('organizations on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  async function freshApp(): Promise<TestApp> {
    const harness = await buildTestApp(dialect);
    cleanups.push(() => harness.close());
    return harness;
  }

  describe('createFirstStartOrganization', () => {
    it('makes one organization, an ORG_ADMIN and a working API key on a fresh database', async () => {
      const harness = await freshApp();
      const { db, clock, ids } = harness;
      expect(await organizationRows(db)).toEqual([]);

      const created = await createFirstStartOrganization({ db, clock, ids });

      expect(created).not.toBeNull();
      const { organizationId, userId, apiKey } = created as NewOrganization;
      expect(await organizationRows(db)).toEqual([{ id: organizationId, name: FIRST_START_ORGANIZATION.name }]);
      const users = await db.selectFrom('users').select(['id', 'organization_id', 'email', 'user_type']).execute();
      expect(users).toEqual([
        { id: userId, organization_id: organizationId, email: FIRST_START_ORGANIZATION.adminEmail, user_type: 'ORG_ADMIN' },
      ]);

      const response = await harness.app.inject({ url: '/v1/users/me', headers: { 'x-api-key': apiKey } });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({
        user: { id: userId, userType: 'ORG_ADMIN', organizationId, createdAt: TEST_NOW },
        organization: { id: organizationId, name: FIRST_START_ORGANIZATION.name },
      });
    });

    it('returns null on a second call and makes nothing more', async () => {
      const { db, clock, ids } = await freshApp();
      expect(await createFirstStartOrganization({ db, clock, ids })).not.toBeNull();
      expect(await createFirstStartOrganization({ db, clock, ids })).toBeNull();
      expect(await organizationRows(db)).toHaveLength(1);
      expect(await db.selectFrom('api_keys').select('id').execute()).toHaveLength(1);
    });

    it('returns null when an organization already exists', async () => {
      const { db, clock, ids } = await freshApp();
      const existing = await createOrganizationWithAdmin({ db, clock, ids }, { name: 'Acme', adminEmail: 'ada@acme.test' });

      expect(await createFirstStartOrganization({ db, clock, ids })).toBeNull();
      expect(await organizationRows(db)).toEqual([{ id: existing.organizationId, name: 'Acme' }]);
      expect(await db.selectFrom('users').select('id').execute()).toEqual([{ id: existing.userId }]);
    });

    it('makes exactly one organization when five starts race on a fresh database', async () => {
      const database = await createTestDatabase(dialect);
      cleanups.push(() => database.drop());
      // PostgreSQL: one pool per caller, as separate processes would have. SQLite: one handle, whose
      // single connection Kysely serialises, as it does for every caller of one process.
      const handles: DatabaseHandle[] = [];
      for (let i = 0; i < 5; i++) {
        if (dialect === 'postgres') {
          const handle = connectPostgres(database.url ?? '');
          cleanups.push(() => handle.close());
          handles.push(handle);
        } else {
          handles.push(database);
        }
      }

      const results = await Promise.all(
        handles.map(({ db }) => {
          const clock = fixedClock(TEST_NOW);
          return createFirstStartOrganization({ db, clock, ids: createIdFactory(clock) });
        }),
      );

      const created = results.filter((result): result is NewOrganization => result !== null);
      expect(created).toHaveLength(1);
      expect(await organizationRows(database.db)).toEqual([
        { id: created[0]?.organizationId, name: FIRST_START_ORGANIZATION.name },
      ]);
      expect(await database.db.selectFrom('users').select('id').execute()).toHaveLength(1);
      expect(await database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(1);
    });
  });

  describe('createOrganizationWithAdmin', () => {
    it('stores only a SHA-256 hash of the key, and its first 12 characters as the prefix', async () => {
      const harness = await freshApp();
      const { db, clock, ids } = harness;
      const created = await createOrganizationWithAdmin({ db, clock, ids }, { name: 'Acme', adminEmail: 'ada@acme.test' });

      expect(created.apiKey).toMatch(/^sbk_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
      const rows = await db.selectFrom('api_keys').selectAll().execute();
      expect(rows).toHaveLength(1);
      const row = rows[0];
      expect(row?.key_hash).toBe(createHash('sha256').update(created.apiKey).digest('hex'));
      expect(row?.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row?.prefix).toBe(created.apiKey.slice(0, 12));
      expect(created.apiKeyPrefix).toBe(row?.prefix);
      expect(row).toMatchObject({ organization_id: created.organizationId, user_id: created.userId, revoked_at: null });

      const secret = created.apiKey.slice(13);
      const stored = [
        ...rows,
        ...(await db.selectFrom('users').selectAll().execute()),
        ...(await db.selectFrom('organizations').selectAll().execute()),
        ...(await db.selectFrom('instance_settings').selectAll().execute()),
      ].flatMap((record) => Object.values(record).map(String));
      for (const value of stored) {
        expect(value).not.toContain(created.apiKey);
        expect(value).not.toContain(secret);
      }

      const response = await harness.app.inject({ url: '/v1/users/me', headers: { 'x-api-key': created.apiKey } });
      expect(response.statusCode).toBe(200);
    });
  });
});
