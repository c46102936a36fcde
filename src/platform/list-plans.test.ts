import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, type Insertable, type InsertObject, type Kysely, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { makeOrganization, makeTeam, type TestOrganization } from '../../test/factories.js';
import { buildTestApp, type TestApp } from '../../test/harness.js';
import { recordingStatements } from '../../test/sent-statements.js';
import { adminQuery, uniqueName, withDatabase } from '../../test/test-databases.js';
import { connectPostgres, connectSqlite, type DatabaseHandle } from '../db/connect.js';
import type { DB } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { listOutboxMessages } from '../delivery/outbox/outbox.repository.js';
import type { ListPage } from '../lib/cursors.js';
import { listAccounts } from './accounts/account.repository.js';
import { listContacts } from './contacts/customer-contact.repository.js';
import { listCustomFields } from './custom-fields/custom-field.repository.js';
import { listNotesOfAccount } from './notes/account-note.repository.js';
import { listRoutingDecisions, listTeamsWithWaitingTickets } from './routing/routing.repository.js';
import { listTeamMembers, listTeams } from './teams/team.repository.js';
import { listApiKeysOfUser } from './users/api-key.repository.js';
import { listUsers } from './users/user.repository.js';

/**
 * The query plans of the platform's lists, on the SQL their repository functions send: every
 * list reads an index in its own order (no sort), deep `page`s take their ids from the index
 * alone (a covering index: the deferred join), and no list scans its table. 2,000 rows per list
 * make the planners choose as they would on a large table; PostgreSQL plans with sequential
 * scans turned off, so a missing index shows up as a Seq Scan rather than as a cheap small-table plan.
 */
const ROWS = 2_000;
const BASE = Date.parse('2026-01-01T00:00:00.000Z');
const at = (index: number) => new Date(BASE + index * 1000).toISOString();
const FIRST: ListPage = { offset: 0, limit: 20 };
const DEEP: ListPage = { offset: 300, limit: 20 };
const AFTER = (keys: (string | number)[]): ListPage => ({ after: keys, offset: 0, limit: 20 });

/** Captures the SQL and parameters of every query executed through the returned database (not its subqueries). */
async function insertInChunks<T extends keyof DB & string>(db: Kysely<DB>, table: T, rows: Insertable<DB[T]>[]) {
  for (let start = 0; start < rows.length; start += 200) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + 200) as InsertObject<DB, T>[])
      .execute();
  }
}

interface PlanCheck {
  /** Plan lines (SQLite) or nodes (PostgreSQL), flattened for the assertions. */
  details: string[];
  sorts: boolean;
  scannedTables: string[];
  indexes: string[];
}

async function explain(harness: TestApp, query: CompiledQuery): Promise<PlanCheck> {
  if (harness.dialect === 'sqlite') {
    const result = await harness.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    const details = result.rows.map((row) => row.detail);
    return {
      details,
      sorts: details.some((detail) => detail.includes('TEMP B-TREE')),
      scannedTables: details.flatMap((detail) => /^SCAN (\w+)(?! USING)/.exec(detail)?.slice(1) ?? []),
      indexes: details.flatMap((detail) => /USING (?:COVERING )?INDEX (\w+)/.exec(detail)?.slice(1) ?? []),
    };
  }
  return harness.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const result = await trx.executeQuery<{ 'QUERY PLAN': string | [{ Plan: PgPlanNode }] }>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    );
    const nodes: PgPlanNode[] = [];
    // A sort inside a subplan (say, the few teams a member belongs to, hashed for a filter) does
    // not order the list; only the main plan's sorts count.
    const listSorts: PgPlanNode[] = [];
    const walk = (node: PgPlanNode, inSubPlan: boolean) => {
      const subPlan = inSubPlan || node['Parent Relationship'] === 'SubPlan' || node['Parent Relationship'] === 'InitPlan';
      nodes.push(node);
      if (!subPlan && node['Node Type'].includes('Sort')) {
        listSorts.push(node);
      }
      for (const child of node.Plans ?? []) {
        walk(child, subPlan);
      }
    };
    // JSON comes back as text (see connect.ts).
    const plan = result.rows[0]?.['QUERY PLAN'];
    const root = (typeof plan === 'string' ? JSON.parse(plan) : plan)?.[0]?.Plan as PgPlanNode | undefined;
    if (root) {
      walk(root, false);
    }
    return {
      details: nodes.map((node) => `${node['Node Type']} ${node['Relation Name'] ?? ''} ${node['Index Name'] ?? ''}`.trim()),
      sorts: listSorts.length > 0,
      scannedTables: nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name'] ?? ''),
      indexes: nodes.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : [])),
    };
  });
}

interface PgPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Parent Relationship'?: string;
  Plans?: PgPlanNode[];
}

describe.each(DIALECTS)('list query plans (%s)', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let teamId: string;
  let accountId: string;
  let ticketId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    const org = acme.organizationId;
    teamId = (await makeTeam(harness, acme)).teamId;
    const { db } = harness;
    const index = Array.from({ length: ROWS }, (_, i) => i);
    const id = (prefix: string, i: number) => `${prefix}${String(i).padStart(26 - prefix.length, '0')}`;

    await insertInChunks(
      db,
      'users',
      index.map((i) => ({
        id: id('U', i),
        organization_id: org,
        name: `User ${i}`,
        email: `user${i}@acme.test`,
        user_type: 'ORG_MEMBER',
        created_at: at(i),
        updated_at: at(i),
        deleted_at: i % 10 === 0 ? at(i) : null,
      })),
    );
    await insertInChunks(
      db,
      'api_keys',
      index.map((i) => ({
        id: id('K', i),
        organization_id: org,
        user_id: acme.userId,
        prefix: `sbk_plan${i}`,
        key_hash: `hash${i}`,
        created_at: at(i),
        last_used_at: null,
        revoked_at: i % 2 === 0 ? at(i) : null,
      })),
    );
    await insertInChunks(
      db,
      'team_members',
      index.map((i) => ({
        team_id: teamId,
        user_id: id('U', i),
        organization_id: org,
        is_admin: false,
        invited_by_id: acme.userId,
        joined_at: at(i),
      })),
    );
    await insertInChunks(
      db,
      'teams',
      index.map((i) => ({
        id: id('T', i),
        organization_id: org,
        name: `Team ${i}`,
        identifier: `P${i}`,
        parent_team_id: i % 2 === 0 ? teamId : null,
        is_private: i % 3 === 0,
        owner_id: acme.userId,
        created_at: at(i),
        updated_at: at(i),
        archived_at: i % 7 === 0 ? at(i) : null,
      })),
    );
    await insertInChunks(
      db,
      'email_outbox',
      index.map((i) => ({
        id: id('E', i),
        organization_id: org,
        dedupe_key: `plan:${i}`,
        to_address: 'someone@acme.test',
        subject: 'Hello',
        text_body: 'Hello',
        status: (['pending', 'sent', 'failed', 'undeliverable'] as const)[i % 4] ?? 'pending',
        next_attempt_at: null,
        created_at: at(i),
        updated_at: at(i),
      })),
    );
    await insertInChunks(
      db,
      'accounts',
      index.map((i) => ({
        id: id('A', i),
        organization_id: org,
        name: `Account ${i}`,
        primary_domain: `a${i}.acme.test`,
        custom_field_values: '[]',
        created_at: at(i),
        updated_at: at(i),
        deleted_at: i % 10 === 0 ? at(i) : null,
      })),
    );
    accountId = id('A', 1);
    await insertInChunks(
      db,
      'customer_contacts',
      index.map((i) => ({
        id: id('C', i),
        organization_id: org,
        first_name: `Contact ${i}`,
        email: `c${i}@customer.test`,
        custom_field_values: '[]',
        created_at: at(i),
        updated_at: at(i),
        deleted_at: null,
      })),
    );
    await insertInChunks(
      db,
      'account_contacts',
      index.map((i) => ({
        account_id: accountId,
        customer_contact_id: id('C', i),
        organization_id: org,
        created_at: at(i),
        contact_created_at: at(i),
      })),
    );
    await insertInChunks(
      db,
      'account_notes',
      index.map((i) => ({
        id: id('N', i),
        organization_id: org,
        account_id: accountId,
        content: `Note ${i}`,
        visibility: i % 2 === 0 ? 'private' : 'public',
        author_id: acme.userId,
        created_at: at(i),
        updated_at: at(i),
        deleted_at: i % 10 === 0 ? at(i) : null,
      })),
    );
    await insertInChunks(
      db,
      'custom_fields',
      index.map((i) => ({
        uid: id('F', i),
        organization_id: org,
        team_id: i % 3 === 0 ? teamId : null,
        name: `Field ${i}`,
        slug: `field-${i}`,
        source: i % 2 === 0 ? 'ticket' : 'account',
        field_type: 'single_line',
        options: '[]',
        metadata: '{}',
        is_active: true,
        auto_add_to_all_forms: false,
        mandatory_on_creation: false,
        mandatory_on_close: false,
        visible_to_customer: false,
        editable_by_customer: false,
        version: 1,
        created_at: at(i),
        updated_at: at(i),
        deleted_at: i % 10 === 0 ? at(i) : null,
      })),
    );
    const ticket = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: acme.headers,
      payload: { title: 'Plans', requestorEmail: 'pat@customer.test', teamId },
    });
    expect(ticket.statusCode).toBe(201);
    ticketId = ticket.json().data.id;
    await insertInChunks(
      db,
      'ticket_routing_decisions',
      index.map((i) => ({
        id: id('R', i),
        organization_id: org,
        ticket_id: ticketId,
        trigger: 'reroute',
        from_team_id: teamId,
        team_id: teamId,
        outcome: 'manual',
        explanation: '{}',
        created_at: at(i),
      })),
    );
    // Unassigned tickets, none waiting for an agent, as in a helpdesk that does not route: the
    // routing worker's search for waiting tickets must not walk them.
    const template = await db.selectFrom('tickets').selectAll().where('id', '=', ticketId).executeTakeFirstOrThrow();
    const prefix = template.ticket_identifier.split('-')[0];
    await insertInChunks(
      db,
      'tickets',
      index.map((i) => ({
        ...template,
        id: id('W', i),
        ticket_number: 10_000 + i,
        ticket_identifier: `${prefix}-${10_000 + i}`,
        assigned_agent_id: null,
        awaiting_assignment_since: null,
        created_at: at(i),
        updated_at: at(i),
      })),
    );
    // Statistics, and on PostgreSQL the visibility map that makes an index-only scan cheaper than
    // reading the rows (autovacuum keeps it on a live database).
    await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
  });

  /** Runs a list's repository function and checks the plan of every query it sent. */
  async function expectIndexedPlan(run: (db: Kysely<DB>) => Promise<unknown>, expected: { table: string; index: string }) {
    const recording = recordingStatements(harness.db);
    await run(recording.db);
    expect(recording.statements.length).toBeGreaterThan(0);
    for (const query of recording.statements) {
      const plan = await explain(harness, query);
      const context = `${query.sql}\n${plan.details.join('\n')}`;
      expect(plan.sorts, context).toBe(false);
      expect(plan.scannedTables, context).not.toContain(expected.table);
      expect(plan.indexes, context).toContain(expected.index);
      if (harness.dialect === 'sqlite' && /\boffset\b/i.test(query.sql) && /\bas "page"/.test(query.sql)) {
        // The id query of a deferred join reads the index alone.
        expect(plan.details.join('\n'), context).toContain(`USING COVERING INDEX ${expected.index}`);
      }
    }
  }

  const pages = [
    ['first page', FIRST],
    ['deep page', DEEP],
    ['cursor page', AFTER([at(1_500), 'Z'])],
  ] as const;

  it.each(pages)('users: %s', async (_, page) => {
    await expectIndexedPlan((db) => listUsers(db, acme.organizationId, page), {
      table: 'users',
      index: 'users_live_organization_created',
    });
  });

  it('API keys of a user: first and cursor page', async () => {
    for (const page of [FIRST, AFTER([at(1_500), 'K'])]) {
      await expectIndexedPlan((db) => listApiKeysOfUser(db, acme.organizationId, acme.userId, page), {
        table: 'api_keys',
        index: 'api_keys_user_created',
      });
    }
  });

  it.each(pages)('outbox, every status and one status: %s', async (_, page) => {
    await expectIndexedPlan((db) => listOutboxMessages(db, acme.organizationId, { page }), {
      table: 'email_outbox',
      index: 'email_outbox_organization_created_id',
    });
    await expectIndexedPlan((db) => listOutboxMessages(db, acme.organizationId, { status: 'failed', page }), {
      table: 'email_outbox',
      index: 'email_outbox_organization_status_created',
    });
  });

  it.each(pages)('accounts: %s', async (_, page) => {
    await expectIndexedPlan((db) => listAccounts(db, acme.organizationId, page), {
      table: 'accounts',
      index: 'accounts_live_organization_created',
    });
  });

  it.each(pages)('contacts, of the organization and of one account: %s', async (_, page) => {
    await expectIndexedPlan((db) => listContacts(db, acme.organizationId, { page }), {
      table: 'customer_contacts',
      index: 'customer_contacts_live_organization_created',
    });
    await expectIndexedPlan((db) => listContacts(db, acme.organizationId, { accountId, page }), {
      table: 'account_contacts',
      index: 'account_contacts_account_contact_created',
    });
  });

  it.each(pages)('notes of an account, as an admin and as a member who sees public ones and their own: %s', async (_, page) => {
    for (const seeAll of [true, false]) {
      await expectIndexedPlan(
        (db) => listNotesOfAccount(db, acme.organizationId, { accountId, viewerId: acme.userId, seeAll, page }),
        { table: 'account_notes', index: 'account_notes_live_account_created' },
      );
    }
  });

  it.each(pages)('custom fields: every scope, one team, a source and a name: %s', async (_, page) => {
    const filters = [
      { scope: { memberUserId: null, includeOrganizationWide: true } },
      { scope: { memberUserId: acme.userId, includeOrganizationWide: true } },
      { scope: { teamId, includeOrganizationWide: true }, nameContains: 'Field 1' },
      { scope: { teamId, includeOrganizationWide: true }, source: 'account' as const },
    ];
    for (const filter of filters) {
      await expectIndexedPlan((db) => listCustomFields(db, { organizationId: acme.organizationId, ...filter, page }), {
        table: 'custom_fields',
        index: 'custom_fields_live_organization_created',
      });
    }
    const teamOnly = { scope: { teamId, includeOrganizationWide: false } };
    await expectIndexedPlan((db) => listCustomFields(db, { organizationId: acme.organizationId, ...teamOnly, page }), {
      table: 'custom_fields',
      index: 'custom_fields_live_team_created',
    });
  });

  it('teams, sub-teams and team members: first and cursor page', async () => {
    for (const page of [FIRST, AFTER([at(1_500), 'T'])]) {
      await expectIndexedPlan((db) => listTeams(db, acme.organizationId, {}, page), {
        table: 'teams',
        index: 'teams_active_organization_created',
      });
      await expectIndexedPlan((db) => listTeams(db, acme.organizationId, { memberUserId: acme.userId }, page), {
        table: 'teams',
        index: 'teams_active_organization_created',
      });
      await expectIndexedPlan((db) => listTeams(db, acme.organizationId, { parentTeamId: teamId }, page), {
        table: 'teams',
        index: 'teams_active_parent_created',
      });
    }
    for (const page of [FIRST, AFTER([at(1_500), 'U'])]) {
      await expectIndexedPlan((db) => listTeamMembers(db, teamId, { page }), {
        table: 'team_members',
        index: 'team_members_team_joined',
      });
      if (dialect === 'sqlite') {
        // A search is a substring of a name or email, which no index answers. PostgreSQL, which
        // guesses such a filter keeps few users, may find those users first and sort them
        // instead; SQLite walks the members in order and filters, like the plain list.
        await expectIndexedPlan((db) => listTeamMembers(db, teamId, { search: 'user 1', page }), {
          table: 'team_members',
          index: 'team_members_team_joined',
        });
      }
    }
  });

  it("a ticket's routing history: first and cursor page", async () => {
    for (const page of [FIRST, AFTER([at(1_500), 'R'])]) {
      await expectIndexedPlan((db) => listRoutingDecisions(db, acme.organizationId, ticketId, page), {
        table: 'ticket_routing_decisions',
        index: 'ticket_routing_decisions_ticket_created_id',
      });
    }
  });

  it('the routing worker finds teams with waiting tickets on their partial index, not among all unassigned tickets', async () => {
    const recording = recordingStatements(harness.db);
    await listTeamsWithWaitingTickets(recording.db);
    expect(recording.statements).toHaveLength(1);
    const [query] = recording.statements;
    const plan = await explain(harness, query as CompiledQuery);
    const context = `${query?.sql}\n${plan.details.join('\n')}`;
    expect(plan.indexes, context).toContain('tickets_awaiting_assignment');
    expect(plan.indexes, context).not.toContain('tickets_assigned_agent');
    expect(plan.scannedTables, context).not.toContain('tickets');
  });
});

describe.each(DIALECTS)('the platform list indexes migration (%s)', (dialect) => {
  /** A brand-new, empty database of the dialect, migrated only as far as `until`. */
  async function databaseMigratedUntil(until: string) {
    let handle: DatabaseHandle;
    let drop: () => Promise<void>;
    if (dialect === 'postgres') {
      const postgres = inject('postgres');
      if (!postgres) {
        throw new Error('PostgreSQL is not available for this run');
      }
      const name = uniqueName('sb_list_indexes');
      await adminQuery(postgres.serverUrl, `create database "${name}"`);
      handle = connectPostgres(withDatabase(postgres.serverUrl, name), 2);
      drop = async () => {
        await handle.close();
        await adminQuery(postgres.serverUrl, `drop database if exists "${name}" with (force)`);
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'switchboard-list-indexes-'));
      handle = connectSqlite(join(dir, 'switchboard.db'));
      drop = async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      };
    }
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
    const result = await migrator.migrateTo(until);
    expect(result.error).toBeUndefined();
    return { db: handle.db, drop };
  }

  it("gives links made before it their contact's creation time, so those contacts list in order", async () => {
    const { db, drop } = await databaseMigratedUntil('2026-11-23T2200_create_attachment_chunks');
    try {
      const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const at = (n: number) => `2026-01-0${n}T00:00:00.000Z`;
      await untyped
        .insertInto('organizations')
        .values({ id: 'O1', name: 'Acme', created_at: at(1), updated_at: at(1) })
        .execute();
      await untyped
        .insertInto('accounts')
        .values({
          id: 'A1',
          organization_id: 'O1',
          name: 'Initech',
          primary_domain: 'initech.test',
          custom_field_values: '[]',
          created_at: at(1),
          updated_at: at(1),
        })
        .execute();
      // Ids in another order than the creation times, so that only the copied times can order them.
      for (const [n, created] of [
        [1, 3],
        [2, 1],
        [3, 2],
      ] as const) {
        await untyped
          .insertInto('customer_contacts')
          .values({
            id: `C${n}`,
            organization_id: 'O1',
            first_name: 'Pat',
            email: `c${n}@initech.test`,
            custom_field_values: '[]',
            created_at: at(created),
            updated_at: at(created),
          })
          .execute();
        await untyped
          .insertInto('account_contacts')
          .values({ account_id: 'A1', customer_contact_id: `C${n}`, organization_id: 'O1', created_at: at(9) })
          .execute();
      }
      await migrateToLatest(db);

      const rows = await listContacts(db, 'O1', { accountId: 'A1', page: FIRST });
      expect(rows.map((row) => [row.id, row.created_at])).toEqual([
        ['C2', at(1)],
        ['C3', at(2)],
        ['C1', at(3)],
      ]);
    } finally {
      await drop();
    }
  });
});
