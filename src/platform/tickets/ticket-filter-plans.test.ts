import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import type { TicketListFilter } from './ticket.repository.js';
import { findTicketById, visibleTicketIds } from './ticket.repository.js';
import type { TicketFilters, TicketSort } from './ticket-filters.js';

/**
 * The query plans of the ticket list's filters and sorts, on the SQL the repository sends: each
 * filter reads an index that starts with it, the default order needs no sort, and a cursor page
 * starts from an index range. 4,000 tickets so the planners choose as on a large table;
 * PostgreSQL plans with sequential scans off, so a missing index shows up as a Seq Scan.
 */
const ROWS = 4_000;
const BASE = Date.parse('2026-01-01T00:00:00.000Z');
const at = (index: number) => new Date(BASE + index * 60_000).toISOString();

interface PlanCheck {
  text: string;
  sorts: boolean;
  scansTickets: boolean;
  indexes: string[];
}

interface PgPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Parent Relationship'?: string;
  Plans?: PgPlanNode[];
}

describe.each(DIALECTS)('ticket filter query plans (%s)', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let teamId: string;
  let otherTeamId: string;
  let agentId: string;
  const statusIds: string[] = [];
  const priorityIds: string[] = [];
  const fieldId = '01JFIELD000000000000000000';
  let tagId: string;

  async function explain(query: CompiledQuery): Promise<PlanCheck> {
    if (dialect === 'sqlite') {
      const { rows } = await harness.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      const details = rows.map((row) => row.detail);
      return {
        text: details.join('\n'),
        sorts: details.some((detail) => detail.includes('TEMP B-TREE')),
        scansTickets: details.some((detail) => /^SCAN tickets(?! USING)/.test(detail)),
        indexes: details.flatMap((detail) => /USING (?:COVERING )?INDEX (\w+)/.exec(detail)?.slice(1) ?? []),
      };
    }
    return harness.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string | [{ Plan: PgPlanNode }] }>(
        CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
      );
      const plan = rows[0]?.['QUERY PLAN'];
      const root = (typeof plan === 'string' ? JSON.parse(plan) : plan)?.[0]?.Plan as PgPlanNode;
      const nodes: PgPlanNode[] = [];
      let sorts = false;
      const walk = (node: PgPlanNode, inSubPlan: boolean) => {
        const sub = inSubPlan || node['Parent Relationship'] === 'SubPlan' || node['Parent Relationship'] === 'InitPlan';
        nodes.push(node);
        sorts ||= !sub && node['Node Type'].includes('Sort');
        for (const child of node.Plans ?? []) {
          walk(child, sub);
        }
      };
      walk(root, false);
      return {
        text: nodes.map((node) => `${node['Node Type']} ${node['Relation Name'] ?? ''} ${node['Index Name'] ?? ''}`).join('\n'),
        sorts,
        scansTickets: nodes.some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'tickets'),
        indexes: nodes.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : [])),
      };
    });
  }

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    teamId = (await makeTeam(harness, acme)).teamId;
    otherTeamId = (await makeTeam(harness, acme)).teamId;
    agentId = (await makeUser(harness, acme.organizationId)).userId;
    for (const team of [teamId, otherTeamId]) {
      // The first ticket of a team gives it its statuses and priorities.
      const response = await harness.app.inject({
        method: 'POST',
        url: '/v1/tickets',
        headers: acme.headers,
        payload: { title: 'Seed', requestorEmail: 'seed@customer.test', teamId: team, performRouting: false },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const options = await harness.db
      .selectFrom('ticket_options')
      .select(['id', 'kind'])
      .where('team_id', '=', teamId)
      .orderBy('position')
      .execute();
    statusIds.push(...options.filter((option) => option.kind === 'status').map((option) => option.id));
    priorityIds.push(...options.filter((option) => option.kind === 'priority').map((option) => option.id));
    const accountId = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/accounts',
        headers: acme.headers,
        payload: { name: 'Initech', primaryDomain: 'initech.test' },
      })
    ).json().id as string;
    const contactId = (await harness.db.selectFrom('customer_contacts').select('id').executeTakeFirstOrThrow()).id;
    const rows = Array.from({ length: ROWS }, (_, index) => ({
      id: id25(index),
      organization_id: acme.organizationId,
      team_id: index % 10 === 0 ? otherTeamId : teamId,
      ticket_number: 1000 + index,
      ticket_identifier: `P-${index}`,
      title: `Ticket ${index}`,
      description: null,
      source: 'api',
      account_id: index % 50 === 0 ? accountId : null,
      status_id: statusIds[index % statusIds.length] as string,
      priority_id: priorityIds[index % priorityIds.length] as string,
      type_id: null,
      is_private: index % 7 === 0,
      assigned_agent_id: index % 3 === 0 ? agentId : index % 3 === 1 ? acme.userId : null,
      requestor_email: `c${index % 200}@customer.test`,
      customer_contact_id: index % 100 === 0 ? contactId : null,
      submitter_email: null,
      metadata: null,
      custom_field_values: '[]',
      due_date: null,
      created_by_id: acme.userId,
      assigned_at: null,
      awaiting_assignment_since: null,
      closed_at: null,
      created_at: at(index),
      updated_at: at((index * 7919) % ROWS),
      deleted_at: index % 20 === 0 ? at(index) : null,
    }));
    for (let start = 0; start < rows.length; start += 200) {
      await harness.db
        .insertInto('tickets')
        .values(rows.slice(start, start + 200))
        .execute();
      await harness.db
        .insertInto('ticket_custom_field_values')
        .values(
          rows.slice(start, start + 200).map((row, offset) => ({
            ticket_id: row.id,
            field_id: fieldId,
            value_key: `v${(start + offset) % 40}`,
            organization_id: acme.organizationId,
          })),
        )
        .execute();
    }
    // Ten tags, each on every 25th ticket from its own start.
    const tagIds: string[] = [];
    for (let index = 0; index < 10; index++) {
      const tag = await harness.app.inject({
        method: 'POST',
        url: `/v1/teams/${teamId}/tags`,
        headers: acme.headers,
        payload: { name: `Tag ${index}` },
      });
      expect(tag.statusCode, tag.body).toBe(201);
      const items = tag.json().data.items as { id: string; name: string }[];
      tagIds.push(items.find((item) => item.name === `Tag ${index}`)?.id as string);
    }
    tagId = tagIds[3] as string;
    const tagged = rows.flatMap((row, index) => (index % 25 < 10 ? [{ row, tag: tagIds[index % 25] as string }] : []));
    for (let start = 0; start < tagged.length; start += 200) {
      await harness.db
        .insertInto('ticket_tags')
        .values(
          tagged.slice(start, start + 200).map(({ row, tag }) => ({
            ticket_id: row.id,
            tag_id: tag,
            organization_id: acme.organizationId,
            created_at: row.created_at,
          })),
        )
        .execute();
    }
    // Every other ticket has a running first-reply target, due in the order of the tickets after
    // the last one is created; every 100th's was breached and met late.
    const targets = rows.flatMap((row, index) => {
      if (index % 2 !== 0) {
        return [];
      }
      const late = index % 100 === 0;
      return [
        {
          id: `T${id25(index).slice(1)}`,
          organization_id: acme.organizationId,
          ticket_id: row.id,
          policy_id: 'policy',
          metric: 'firstReply' as const,
          status: late ? ('breached' as const) : ('active' as const),
          target_minutes: 60,
          business_hours: false,
          ai_replies_count: false,
          warning_share: 0.75,
          started_at: row.created_at,
          due_at: at(ROWS + index),
          consumed_minutes: 0,
          running_since: late ? null : row.created_at,
          met_at: late ? at(ROWS + index + 5) : null,
          breached_at: late ? at(ROWS + index) : null,
          warn_at: null,
          warned_at: null,
          breach_notified_at: null,
          updated_at: row.created_at,
        },
      ];
    });
    for (let start = 0; start < targets.length; start += 200) {
      await harness.db
        .insertInto('ticket_sla_targets')
        .values(targets.slice(start, start + 200))
        .execute();
    }
    await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(harness.db);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
  });

  const base = (filters: Partial<TicketFilters> = {}, more: Partial<TicketListFilter> = {}): TicketListFilter => ({
    viewerId: agentId,
    seeAll: true,
    limit: 21,
    filters: { organizationId: acme.organizationId, ...filters },
    ...more,
  });
  const NEWEST: TicketSort = { name: '-createdAt', field: 'createdAt', direction: 'desc' };

  async function expectPlan(filter: TicketListFilter, index: string | string[], options: { sorts?: boolean } = {}) {
    const compiled = visibleTicketIds(harness.db, acme.organizationId, filter).compile();
    const plan = await explain(compiled);
    const context = `${compiled.sql}\n${plan.text}`;
    expect(plan.scansTickets, context).toBe(false);
    const accepted = typeof index === 'string' ? [index] : index;
    expect(
      plan.indexes.some((used) => accepted.includes(used)),
      context,
    ).toBe(true);
    expect(plan.sorts, context).toBe(options.sorts ?? false);
  }

  const id25 = (index: number) => `0${String(index).padStart(25, '0')}`;
  const cursorAt = (index: number) => ({ after: [at(index), id25(index)] });

  // Where a filter keeps most tickets (a third are unassigned), PostgreSQL may rightly walk the
  // organization's index, which holds the team and the assignee, and filter there: still no sort.
  const filterCases: [string, () => Partial<TicketFilters>, string | string[]][] = [
    ['the whole list, as an admin', () => ({}), 'tickets_live_organization_created'],
    ['one team', () => ({ teamIds: [otherTeamId] }), ['tickets_live_team_created', 'tickets_live_organization_created']],
    ['one status', () => ({ statusIds: [statusIds[1] as string] }), 'tickets_live_status_created'],
    ['one priority', () => ({ priorityIds: [priorityIds[2] as string] }), 'tickets_live_priority_created'],
    ['an assignee', () => ({ assignedAgentId: agentId }), 'tickets_live_assignee_created'],
    ['unassigned', () => ({ assignedAgentId: null }), ['tickets_live_assignee_created', 'tickets_live_organization_created']],
    ['a requestor email', () => ({ requestorEmail: 'c7@customer.test' }), 'tickets_live_requestor_created'],
    ['a created range', () => ({ createdAfter: at(1000), createdBefore: at(3000) }), 'tickets_live_organization_created'],
  ];

  it.each(filterCases)('%s: first page, deep page and cursor page read an index in order', async (_, filters, index) => {
    for (const more of [{}, { offset: 400 }, cursorAt(2500)]) {
      await expectPlan(base(filters(), { ...more, sort: NEWEST }), index);
    }
  });

  it('several statuses, newest first: a range of the status index per status, merged', async () => {
    for (const more of [{}, cursorAt(2500)]) {
      const filter = base({ statusIds: statusIds.slice(0, 3) }, { ...more, sort: NEWEST });
      const compiled = visibleTicketIds(harness.db, acme.organizationId, filter).compile();
      const plan = await explain(compiled);
      expect(plan.scansTickets, plan.text).toBe(false);
      expect(plan.indexes.filter((index) => index === 'tickets_live_status_created').length, plan.text).toBe(3);
    }
  });

  it('the whole list as a member (visibility read from the index), first and cursor page', async () => {
    for (const more of [{}, cursorAt(2500)]) {
      await expectPlan(base({}, { ...more, seeAll: false }), 'tickets_live_organization_created');
    }
  });

  it('an account and a contact: their indexes', async () => {
    const accountId = (await harness.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;
    const contactId = (await harness.db.selectFrom('customer_contacts').select('id').executeTakeFirstOrThrow()).id;
    await expectPlan(base({ accountId }), 'tickets_account_created');
    await expectPlan(base({ customerContactId: contactId }), 'tickets_customer_contact_created');
  });

  it('by last change, of the organization and of a team, both ways, first and cursor page', async () => {
    for (const direction of ['desc', 'asc'] as const) {
      const sort: TicketSort = { name: direction === 'desc' ? '-updatedAt' : 'updatedAt', field: 'updatedAt', direction };
      for (const more of [{}, cursorAt(2500)]) {
        await expectPlan(base({}, { ...more, sort }), 'tickets_live_organization_updated');
        await expectPlan(base({ teamIds: [teamId] }, { ...more, sort }), 'tickets_live_team_updated');
      }
    }
  });

  it('oldest first reads the same index backwards', async () => {
    const sort: TicketSort = { name: 'createdAt', field: 'createdAt', direction: 'asc' };
    await expectPlan(base({}, { sort, ...cursorAt(1000) }), 'tickets_live_organization_created');
  });

  it('by status or priority: each rank is a range of its own index (only the merged page is sorted)', async () => {
    for (const field of ['status', 'priority'] as const) {
      const ids = field === 'status' ? statusIds : priorityIds;
      const sort: TicketSort = {
        name: field,
        field,
        direction: 'asc',
        ranks: ids.map((optionId, rank) => ({ rank, optionIds: [optionId] })),
      };
      const index = field === 'status' ? 'tickets_live_status_created' : 'tickets_live_priority_created';
      for (const more of [{}, { after: [1, at(2500), id25(2500)] }]) {
        const compiled = visibleTicketIds(harness.db, acme.organizationId, base({}, { ...more, sort })).compile();
        const plan = await explain(compiled);
        expect(plan.scansTickets, plan.text).toBe(false);
        expect(plan.indexes, plan.text).toContain(index);
      }
    }
  });

  it('a custom field value: read from its index table', async () => {
    const compiled = visibleTicketIds(
      harness.db,
      acme.organizationId,
      base({ customFields: [{ fieldId, valueKey: 'v7' }] }),
    ).compile();
    const plan = await explain(compiled);
    expect(plan.scansTickets, plan.text).toBe(false);
    expect(plan.indexes, plan.text).toContain('ticket_custom_field_values_lookup');
  });

  it('a tag: read from the tag index of ticket_tags', async () => {
    const compiled = visibleTicketIds(harness.db, acme.organizationId, base({ tagIds: [tagId] })).compile();
    const plan = await explain(compiled);
    expect(plan.scansTickets, plan.text).toBe(false);
    expect(
      plan.indexes.some((index) => index.startsWith('ticket_tags')),
      plan.text,
    ).toBe(true);
  });

  it('the SLA filters read the running targets by due time, and the breached ones, from their indexes', async () => {
    const slaDueAt: TicketSort = { name: 'slaDueAt', field: 'slaDueAt', direction: 'asc' };
    const cases: [Partial<TicketFilters>, string[]][] = [
      [{ slaDueBefore: at(ROWS + 100) }, ['ticket_sla_targets_running_due']],
      [{ slaBreached: true, slaNow: at(ROWS + 40) }, ['ticket_sla_targets_breached', 'ticket_sla_targets_running_due']],
    ];
    for (const [filters, indexes] of cases) {
      for (const more of [{ sort: NEWEST }, { sort: slaDueAt }, { sort: slaDueAt, after: [at(ROWS + 10), id25(10)] }]) {
        const compiled = visibleTicketIds(harness.db, acme.organizationId, base(filters, more)).compile();
        const plan = await explain(compiled);
        expect(plan.scansTickets, plan.text).toBe(false);
        for (const index of indexes) {
          expect(plan.indexes, `${compiled.sql}\n${plan.text}`).toContain(index);
        }
      }
    }
    // Absent, they add nothing to the statement.
    const plain = visibleTicketIds(harness.db, acme.organizationId, base({}, { sort: NEWEST })).compile();
    expect(plain.sql).not.toContain('ticket_sla_targets');
  });

  it('lookup by identifier reads its index', async () => {
    // The statement of findTicketById(…, 'identifier'), narrowed to the table it looks up.
    const query = harness.db
      .selectFrom('tickets')
      .select('tickets.id')
      .where('tickets.organization_id', '=', acme.organizationId)
      .where('tickets.deleted_at', 'is', null)
      .where((eb) => eb(eb.fn('lower', ['tickets.ticket_identifier']), '=', 'p-17'))
      .compile();
    const plan = await explain(query);
    expect(plan.scansTickets, plan.text).toBe(false);
    expect(plan.indexes, plan.text).toContain('tickets_organization_identifier');
    const ticket = await findTicketById(harness.db, acme.organizationId, 'p-17', 'identifier');
    expect(ticket?.id).toBe(id25(17));
  });
});
