import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { backfillCustomFieldValues } from '../../db/migrations/2026-11-24T0200_ticket_filters.js';
import type { CursorKey } from '../../lib/cursors.js';
import { countVisibleTickets, listTickets } from './ticket.repository.js';
import { ticketCursorKeys } from './ticket-cursors.js';
import { resolveTicketQuery } from './ticket-filters.js';

interface ApiTicket {
  id: string;
  ticketIdentifier: string;
  teamId: string;
  statusId: string;
  status: string;
  priorityId: string;
  priority: string;
  isClosed: boolean;
  isPrivate: boolean;
  assignedAgentId: string | null;
  requestorEmail: string;
  customerContactId: string | null;
  accountId: string | null;
  customFieldValues: { fieldId: string; value: unknown }[];
  tags: { id: string; name: string }[];
  createdAt: string;
  updatedAt: string;
}

type Page = { data: ApiTicket[]; nextCursor: string | null };

const STATUS_RANK: Record<string, number> = { Open: 0, 'In progress': 1, 'On hold': 2, Closed: 3 };
const PRIORITY_RANK: Record<string, number> = { Low: 0, Medium: 1, High: 2, Urgent: 3 };
const STATUS_NAMES = ['open', 'in_progress', 'on_hold', 'closed'];
const PRIORITY_NAMES = ['low', 'medium', 'high', 'urgent'];

/** The order a sort gives, written out plainly: the expectation the database's order is held to. */
function comparator(sort: string): (a: ApiTicket, b: ApiTicket) => number {
  const desc = sort.startsWith('-');
  const field = sort.replace(/^-/, '');
  const keys = (ticket: ApiTicket): (string | number)[] => {
    switch (field) {
      case 'updatedAt':
        return [ticket.updatedAt, ticket.id];
      case 'priority':
        return [PRIORITY_RANK[ticket.priority] ?? -1, ticket.createdAt, ticket.id];
      case 'status':
        return [STATUS_RANK[ticket.status] ?? -1, ticket.createdAt, ticket.id];
      default:
        return [ticket.createdAt, ticket.id];
    }
  };
  return (a, b) => {
    const [left, right] = [keys(a), keys(b)];
    for (let index = 0; index < left.length; index++) {
      const [x, y] = [left[index] as string | number, right[index] as string | number];
      if (x !== y) {
        return (x < y ? -1 : 1) * (desc ? -1 : 1);
      }
    }
    return 0;
  };
}

describe.each(DIALECTS)('ticket filters, sorts and identifiers on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let agent: Awaited<ReturnType<typeof makeUser>>;
  const teams: Record<'billing' | 'sales' | 'secret', string> = { billing: '', sales: '', secret: '' };
  let accountId: string;
  let globexIds: { teamId: string; ticketId: string; accountId: string; contactId: string; fieldId: string; tagId: string };
  const fields: Record<'code' | 'seats' | 'products', string> = { code: '', seats: '', products: '' };
  const tags: Record<'vipBilling' | 'vipSales' | 'refund' | 'skill', string> = {
    vipBilling: '',
    vipSales: '',
    refund: '',
    skill: '',
  };
  /** Every ticket of acme as the API last answered it. */
  const model = new Map<string, ApiTicket>();
  const all = () => [...model.values()];

  const get = (url: string, headers: Record<string, string> = acme.headers) => harness.app.inject({ url, headers });
  async function send(method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = acme.headers) {
    const response = await harness.app.inject({ method, url, headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    // The platform envelope, except on accounts, which answer the contract's bare object.
    const body = response.json();
    return body.data ?? body;
  }

  /** Every page of a list, following nextCursor: no page may repeat an id. */
  async function walk(url: string, headers: Record<string, string> = acme.headers): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const separator = url.includes('?') ? '&' : '?';
      const response = await get(cursor ? `${url}${separator}cursor=${cursor}` : url, headers);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      const page = response.json() as Page;
      expect(page.data.length).toBeLessThanOrEqual(4);
      ids.push(...page.data.map((ticket) => ticket.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(new Set(ids).size, url).toBe(ids.length);
    return ids;
  }

  /** The list with `query` walked by cursor and by page, against the model filtered by `keep`. */
  async function expectList(query: string, keep: (ticket: ApiTicket) => boolean, sort = '-createdAt') {
    const expected = all()
      .filter(keep)
      .sort(comparator(sort))
      .map((ticket) => ticket.id);
    const url = `/v1/tickets?limit=4${query ? `&${query}` : ''}${sort === '-createdAt' ? '' : `&sort=${sort}`}`;
    expect(await walk(url), url).toEqual(expected);
    const byPage: string[] = [];
    for (let page = 0; page * 4 < Math.max(expected.length, 1); page++) {
      const response = await get(`${url}&page=${page}`);
      expect(response.statusCode, response.body).toBe(200);
      byPage.push(...(response.json() as Page).data.map((ticket) => ticket.id));
    }
    expect(byPage, `${url} by page`).toEqual(expected);
    return expected;
  }

  async function expect400(url: string, field: string, headers = acme.headers) {
    const response = await get(url, headers);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(body.message, url).toContain(field);
  }

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId, { email: 'member@acme.test' });
    agent = await makeUser(harness, acme.organizationId, { email: 'agent@acme.test' });
    teams.billing = (await send('POST', '/v1/teams', { name: 'Billing', identifier: 'BILL' })).id;
    teams.sales = (await send('POST', '/v1/teams', { name: 'Sales', identifier: 'SAL' })).id;
    teams.secret = (await send('POST', '/v1/teams', { name: 'Secret', identifier: 'SEC', isPrivate: true })).id;
    for (const teamId of [teams.billing, teams.sales]) {
      await send('POST', `/v1/teams/${teamId}/members`, { userId: member.userId });
    }
    accountId = (await send('POST', '/v1/accounts', { name: 'Initech', primaryDomain: 'initech.test' })).id;
    fields.code = (await send('POST', '/v1/custom-field', { name: 'Plan code', source: 'ticket', fieldType: 'single_line' })).uid;
    fields.seats = (await send('POST', '/v1/custom-field', { name: 'Seats', source: 'ticket', fieldType: 'integer' })).uid;
    fields.products = (
      await send('POST', '/v1/custom-field', {
        name: 'Products',
        source: 'ticket',
        fieldType: 'multi_choice',
        options: [{ value: 'Phones' }, { value: 'Laptops' }, { value: 'Desks' }],
      })
    ).uid;

    // Creating a tag answers all of the team's tags.
    const tag = async (teamId: string, name: string, type = 'ticket', headers = acme.headers) =>
      ((await send('POST', `/v1/teams/${teamId}/tags`, { name, type }, headers)).items as { id: string; name: string }[]).find(
        (entry) => entry.name === name,
      )?.id as string;
    tags.vipBilling = await tag(teams.billing, 'VIP');
    tags.refund = await tag(teams.billing, 'Refund');
    tags.vipSales = await tag(teams.sales, 'vip');
    tags.skill = await tag(teams.billing, 'German', 'skills');

    for (let index = 0; index < 30; index++) {
      // Three tickets per instant: the id decides among them.
      harness.clock.set(new Date(Date.UTC(2026, 0, 10, 9, Math.floor(index / 3))).toISOString());
      const team = index % 7 === 6 ? teams.secret : index % 2 === 0 ? teams.billing : teams.sales;
      const values: { fieldId: string; value: unknown }[] = [];
      if (index % 3 === 0) {
        values.push({ fieldId: fields.code, value: index % 2 === 0 ? 'GOLD-1' : 'silver' });
      }
      if (index % 4 === 0) {
        values.push({ fieldId: fields.seats, value: index });
      }
      if (index % 5 < 2) {
        values.push({ fieldId: fields.products, value: index % 5 === 0 ? ['Phones', 'Laptops'] : ['Desks'] });
      }
      const ticket = (await send('POST', '/v1/tickets', {
        title: `Ticket ${index}`,
        requestorEmail: index % 4 === 1 ? 'Pat@Customer.test' : `c${index % 3}@customer.test`,
        teamId: team,
        statusName: STATUS_NAMES[index % 4],
        priorityName: PRIORITY_NAMES[(index * 3) % 4],
        isPrivate: index % 5 === 3,
        assignedAgentId: index % 3 === 1 ? agent.userId : index % 3 === 2 ? acme.userId : undefined,
        accountId: index % 6 === 0 ? accountId : undefined,
        customFieldValues: values,
        tagIds:
          team === teams.billing
            ? [...(index % 4 === 0 ? [tags.vipBilling] : []), ...(index % 3 === 0 ? [tags.refund] : [])]
            : team === teams.sales && index % 4 === 1
              ? [tags.vipSales]
              : [],
        performRouting: false,
      })) as ApiTicket;
      model.set(ticket.id, ticket);
    }
    // Later changes, some at one instant, so updatedAt orders differently from createdAt.
    harness.clock.set(new Date(Date.UTC(2026, 0, 12, 9)).toISOString());
    for (const ticket of all().filter((_, index) => index % 4 === 2)) {
      const updated = (await send('PATCH', `/v1/tickets/${ticket.id}`, { title: `${ticket.id} again` })) as ApiTicket;
      model.set(updated.id, updated);
    }
    harness.clock.set(new Date(Date.UTC(2026, 0, 12, 10)).toISOString());
    for (const ticket of all().filter((_, index) => index % 5 === 4)) {
      const updated = (await send('PATCH', `/v1/tickets/${ticket.id}`, { priorityName: 'urgent' })) as ApiTicket;
      model.set(updated.id, updated);
    }

    const globexTeam = (await send('POST', '/v1/teams', { name: 'Globex', identifier: 'BILL' }, globex.headers)).id;
    const globexTicket = await send(
      'POST',
      '/v1/tickets',
      { title: 'Theirs', requestorEmail: 'pat@customer.test', teamId: globexTeam, performRouting: false },
      globex.headers,
    );
    globexIds = {
      teamId: globexTeam,
      ticketId: globexTicket.id,
      contactId: globexTicket.customerContactId,
      accountId: (await send('POST', '/v1/accounts', { name: 'Hooli', primaryDomain: 'hooli.test' }, globex.headers)).id,
      fieldId: (
        await send('POST', '/v1/custom-field', { name: 'Theirs', source: 'ticket', fieldType: 'single_line' }, globex.headers)
      ).uid,
      tagId: await tag(globexTeam, 'VIP', 'ticket', globex.headers),
    };
  }, 120_000);
  afterAll(() => harness?.close());

  describe('filters', () => {
    it('teamId, once and repeated', async () => {
      await expectList(`teamId=${teams.billing}`, (ticket) => ticket.teamId === teams.billing);
      await expectList(
        `teamId=${teams.sales}&teamId=${teams.secret}`,
        (ticket) => ticket.teamId === teams.sales || ticket.teamId === teams.secret,
      );
    });

    it('statusId, statusName (key or display name, any case) and isClosed', async () => {
      const some = all().find((ticket) => ticket.status === 'In progress') as ApiTicket;
      await expectList(`statusId=${some.statusId}`, (ticket) => ticket.statusId === some.statusId);
      await expectList('statusName=IN_PROGRESS', (ticket) => ticket.status === 'In progress');
      await expectList('statusName=on%20Hold', (ticket) => ticket.status === 'On hold');
      await expectList('isClosed=true', (ticket) => ticket.isClosed);
      await expectList('isClosed=false&statusName=closed', () => false);
      await expectList(
        `statusName=open&teamId=${teams.sales}`,
        (ticket) => ticket.status === 'Open' && ticket.teamId === teams.sales,
      );
    });

    it('priorityId and priorityName', async () => {
      const some = all().find((ticket) => ticket.priority === 'High') as ApiTicket;
      await expectList(`priorityId=${some.priorityId}`, (ticket) => ticket.priorityId === some.priorityId);
      await expectList('priorityName=Urgent', (ticket) => ticket.priority === 'Urgent');
      await expectList(`priorityId=${some.priorityId}&priorityName=low`, () => false);
    });

    it('assignedAgentId: a user, none, me', async () => {
      await expectList(`assignedAgentId=${agent.userId}`, (ticket) => ticket.assignedAgentId === agent.userId);
      await expectList('assignedAgentId=none', (ticket) => ticket.assignedAgentId === null);
      await expectList('assignedAgentId=me', (ticket) => ticket.assignedAgentId === acme.userId);
      const mine = await walk('/v1/tickets?limit=4&assignedAgentId=me', agent.headers);
      expect(mine.sort()).toEqual(
        all()
          .filter((ticket) => ticket.assignedAgentId === agent.userId)
          .map((ticket) => ticket.id)
          .sort(),
      );
    });

    it('requestorEmail (any case), customerContactId, accountId', async () => {
      await expectList(
        'requestorEmail=pat%40CUSTOMER.test',
        (ticket) => ticket.requestorEmail.toLowerCase() === 'pat@customer.test',
      );
      const contactId = all().find((ticket) => ticket.requestorEmail === 'c1@customer.test')?.customerContactId;
      await expectList(`customerContactId=${contactId}`, (ticket) => ticket.customerContactId === contactId);
      await expectList(`accountId=${accountId}`, (ticket) => ticket.accountId === accountId);
    });

    it('createdAfter/createdBefore (half-open: after is inclusive, before exclusive) and updatedAfter/updatedBefore', async () => {
      const from = '2026-01-10T09:03:00.000Z';
      const to = '2026-01-10T09:07:00Z';
      await expectList(`createdAfter=${from}`, (ticket) => ticket.createdAt >= from);
      await expectList(`createdBefore=${to}`, (ticket) => ticket.createdAt < '2026-01-10T09:07:00.000Z');
      await expectList(
        `createdAfter=${from}&createdBefore=${to}`,
        (ticket) => ticket.createdAt >= from && ticket.createdAt < '2026-01-10T09:07:00.000Z',
      );
      // Another time zone names the same instant.
      await expectList('createdAfter=2026-01-10T10:03:00%2B01:00', (ticket) => ticket.createdAt >= from);
      await expectList('updatedAfter=2026-01-12T09:30:00Z', (ticket) => ticket.updatedAt >= '2026-01-12T09:30:00.000Z');
      await expectList('updatedBefore=2026-01-12T00:00:00Z', (ticket) => ticket.updatedAt < '2026-01-12T00:00:00.000Z');
    });

    it('isPrivate', async () => {
      await expectList('isPrivate=true', (ticket) => ticket.isPrivate);
      await expectList('isPrivate=false', (ticket) => !ticket.isPrivate);
    });

    it('custom field values: text in any case, numbers in any spelling, one option of a multiple choice', async () => {
      const holds = (ticket: ApiTicket, fieldId: string, test: (value: unknown) => boolean) =>
        ticket.customFieldValues.some((entry) => entry.fieldId === fieldId && test(entry.value));
      await expectList(`cf.${fields.code}=gold-1`, (ticket) => holds(ticket, fields.code, (value) => value === 'GOLD-1'));
      await expectList(`cf.${fields.seats}=%2B08`, (ticket) => holds(ticket, fields.seats, (value) => value === 8));
      await expectList(`cf.${fields.products}=laptops`, (ticket) =>
        holds(ticket, fields.products, (value) => Array.isArray(value) && value.includes('Laptops')),
      );
      await expectList(
        `cf.${fields.products}=Phones&cf.${fields.code}=GOLD-1`,
        (ticket) =>
          holds(ticket, fields.products, (value) => Array.isArray(value) && value.includes('Phones')) &&
          holds(ticket, fields.code, (value) => value === 'GOLD-1'),
      );
      await expectList(`cf.${fields.code}=nobody`, () => false);
    });

    it('custom field values are kept in step when a ticket changes them', async () => {
      const ticket = all().find((candidate) => candidate.customFieldValues.length === 0) as ApiTicket;
      const changed = (await send('PATCH', `/v1/tickets/${ticket.id}`, {
        customFieldValues: [{ fieldId: fields.code, value: 'Platinum' }],
      })) as ApiTicket;
      model.set(changed.id, changed);
      expect(await walk(`/v1/tickets?limit=4&cf.${fields.code}=platinum`)).toEqual([ticket.id]);
      const cleared = (await send('PATCH', `/v1/tickets/${ticket.id}`, {
        customFieldValues: [{ fieldId: fields.code, value: null }],
      })) as ApiTicket;
      model.set(cleared.id, cleared);
      expect(await walk(`/v1/tickets?limit=4&cf.${fields.code}=platinum`)).toEqual([]);
    });

    it('the migration fills the value table from the tickets as the application writes it', async () => {
      const read = () =>
        harness.db
          .selectFrom('ticket_custom_field_values')
          .selectAll()
          .orderBy('ticket_id')
          .orderBy('field_id')
          .orderBy('value_key')
          .execute();
      const written = await read();
      expect(written.length).toBeGreaterThan(20);
      await harness.db.deleteFrom('ticket_custom_field_values').execute();
      await backfillCustomFieldValues(harness.db);
      expect(await read()).toEqual(written);
    });

    it('tag: an id, a name in any case (in every team), several (any of them)', async () => {
      const has = (ticket: ApiTicket, ...ids: string[]) => ticket.tags.some((entry) => ids.includes(entry.id));
      expect(all().filter((ticket) => has(ticket, tags.vipSales)).length).toBeGreaterThan(0);
      await expectList(`tag=${tags.refund}`, (ticket) => has(ticket, tags.refund));
      await expectList('tag=Vip', (ticket) => has(ticket, tags.vipBilling, tags.vipSales));
      await expectList(`tag=${tags.refund}&tag=vip`, (ticket) => has(ticket, tags.refund, tags.vipBilling, tags.vipSales));
      await expectList(`tag=VIP&teamId=${teams.sales}`, (ticket) => has(ticket, tags.vipSales));
      await expect400('/v1/tickets?tag=German', 'tag');
      await expect400('/v1/tickets?tag=nothing', 'tag');
      expect((await get(`/v1/tickets?tag=${tags.skill}`)).statusCode).toBe(404);
    });

    it('countVisibleTickets counts what the list walks (for saved views)', async () => {
      for (const [query, headers, userId, seeAll] of [
        ['statusName=open', acme.headers, acme.userId, true],
        [`teamId=${teams.secret}`, member.headers, member.userId, false],
        ['assignedAgentId=none&isPrivate=true', member.headers, member.userId, false],
      ] as const) {
        const principal = {
          organizationId: acme.organizationId,
          userId,
          userType: 'ORG_MEMBER' as const,
          apiKeyId: 'k',
          apiKeyPrefix: 'p',
        };
        const params = Object.fromEntries(new URLSearchParams(query));
        if (params.teamId) {
          Object.assign(params, { teamId: [params.teamId] });
        }
        if (params.isPrivate) {
          Object.assign(params, { isPrivate: params.isPrivate === 'true' });
        }
        const { filters } = await resolveTicketQuery(harness.db, principal, params);
        const count = await countVisibleTickets(harness.db, acme.organizationId, {
          viewerId: userId,
          seeAll,
          filters,
          cap: 10_000,
        });
        expect(count, query).toBe((await walk(`/v1/tickets?limit=4&${query}`, headers)).length);
      }
    });

    it('combinations', async () => {
      await expectList(
        `teamId=${teams.billing}&assignedAgentId=none&isPrivate=false`,
        (ticket) => ticket.teamId === teams.billing && ticket.assignedAgentId === null && !ticket.isPrivate,
      );
      await expectList(
        `statusName=open&priorityName=low&createdAfter=2026-01-10T09:02:00Z`,
        (ticket) => ticket.status === 'Open' && ticket.priority === 'Low' && ticket.createdAt >= '2026-01-10T09:02:00.000Z',
      );
      await expectList(
        `requestorEmail=pat@customer.test&assignedAgentId=${agent.userId}&teamId=${teams.sales}`,
        (ticket) =>
          ticket.requestorEmail === 'Pat@Customer.test' &&
          ticket.assignedAgentId === agent.userId &&
          ticket.teamId === teams.sales,
      );
    });

    it('visibility holds with every filter and sort: a member sees no private ticket of a team they are not in', async () => {
      const visible = (ticket: ApiTicket) => !ticket.isPrivate || ticket.teamId !== teams.secret;
      for (const [query, keep] of [
        ['', () => true],
        ['isPrivate=true', (ticket: ApiTicket) => ticket.isPrivate],
        [`teamId=${teams.secret}`, (ticket: ApiTicket) => ticket.teamId === teams.secret],
        ['statusName=open', (ticket: ApiTicket) => ticket.status === 'Open'],
      ] as const) {
        for (const sort of ['-createdAt', 'status', '-updatedAt']) {
          const expected = all()
            .filter((ticket) => keep(ticket) && visible(ticket))
            .sort(comparator(sort))
            .map((ticket) => ticket.id);
          expect(await walk(`/v1/tickets?limit=4&sort=${sort}${query ? `&${query}` : ''}`, member.headers)).toEqual(expected);
        }
      }
    });
  });

  describe('sorts', () => {
    const sorts = ['createdAt', '-createdAt', 'updatedAt', '-updatedAt', 'priority', '-priority', 'status', '-status'];

    it.each(sorts)('%s: cursor pages walk every ticket once in order, ties broken by id, as page does', async (sort) => {
      await expectList('', () => true, sort);
    });

    it.each(sorts)('%s with filters', async (sort) => {
      await expectList(
        `teamId=${teams.billing}&teamId=${teams.sales}&isPrivate=false`,
        (ticket) => ticket.teamId !== teams.secret && !ticket.isPrivate,
        sort,
      );
      await expectList('statusName=open', (ticket) => ticket.status === 'Open', sort);
    });

    it('past the options a page merges, the database sorts by rank: same order, same cursors', async () => {
      const principal = {
        organizationId: acme.organizationId,
        userId: acme.userId,
        userType: 'ORG_ADMIN' as const,
        apiKeyId: 'k',
        apiKeyPrefix: 'p',
      };
      // 120 options no ticket has: in one rank (each rank read as a range, its options in one IN
      // list), or each in its own rank (the rank computed by the database).
      const padding = Array.from({ length: 120 }, (_, index) => `01PAD${String(index).padStart(21, '0')}`);
      const paddings = [[{ rank: 99, optionIds: padding }], padding.map((id, index) => ({ rank: 100 + index, optionIds: [id] }))];
      for (const [name, extra] of [
        ['status', paddings[0]],
        ['-status', paddings[0]],
        ['priority', paddings[1]],
        ['-status', paddings[1]],
      ] as const) {
        const resolved = await resolveTicketQuery(harness.db, principal, { sort: name });
        const sort = { ...resolved.sort, ranks: [...(resolved.sort.ranks ?? []), ...(extra ?? [])] };
        sort.ranks.sort((a, b) => (sort.direction === 'asc' ? a.rank - b.rank : b.rank - a.rank));
        const ids: string[] = [];
        let after: CursorKey[] | undefined;
        for (let pages = 0; pages < 20; pages++) {
          const rows = await listTickets(harness.db, acme.organizationId, {
            viewerId: acme.userId,
            seeAll: true,
            sort,
            limit: 5,
            after,
          });
          ids.push(...rows.map((row) => row.id));
          const last = rows.at(-1);
          if (rows.length < 5 || !last) {
            break;
          }
          after = ticketCursorKeys(sort, resolved.fingerprint, last).slice(0, -1);
        }
        expect(ids).toEqual(
          all()
            .sort(comparator(name))
            .map((ticket) => ticket.id),
        );
      }
    });

    it('a cursor made for one sort or filter set is refused by another', async () => {
      const first = (await get('/v1/tickets?limit=4&sort=status')).json() as Page;
      expect(first.nextCursor).not.toBeNull();
      await expect400(`/v1/tickets?limit=4&sort=-status&cursor=${first.nextCursor}`, 'cursor');
      await expect400(`/v1/tickets?limit=4&sort=status&statusName=open&cursor=${first.nextCursor}`, 'cursor');
      await expect400(`/v1/tickets?limit=4&sort=createdAt&cursor=${first.nextCursor}`, 'cursor');
      const filtered = (await get(`/v1/tickets?limit=4&teamId=${teams.billing}`)).json() as Page;
      await expect400(`/v1/tickets?limit=4&cursor=${filtered.nextCursor}`, 'cursor');
      await expect400(`/v1/tickets?limit=4&teamId=${teams.sales}&cursor=${filtered.nextCursor}`, 'cursor');
      // Another limit is the same list.
      expect((await get(`/v1/tickets?limit=2&teamId=${teams.billing}&cursor=${filtered.nextCursor}`)).statusCode).toBe(200);
    });
  });

  describe('bad input', () => {
    it.each([
      ['/v1/tickets?colour=red', 'colour'],
      ['/v1/tickets?cf.nope=1', 'cf.nope'],
      ['/v1/tickets?sort=title', 'sort'],
      ['/v1/tickets?sort=createdAt&order=desc', 'order'],
      ['/v1/tickets?createdAfter=yesterday', 'createdAfter'],
      ['/v1/tickets?createdBefore=2026-02-30T00:00:00Z', 'createdBefore'],
      ['/v1/tickets?updatedAfter=2026-01-01', 'updatedAfter'],
      ['/v1/tickets?updatedBefore=2026-01-01T10:00:00', 'updatedBefore'],
      ['/v1/tickets?statusName=resolved', 'statusName'],
      ['/v1/tickets?priorityName=critical', 'priorityName'],
      ['/v1/tickets?assignedAgentId=nobody', 'assignedAgentId'],
      ['/v1/tickets?requestorEmail=not-an-email', 'requestorEmail'],
      ['/v1/tickets?isPrivate=maybe', 'isPrivate'],
      ['/v1/tickets?teamId=123', 'teamId'],
      ['/v1/tickets?statusId=open', 'statusId'],
      ['/v1/tickets?cursor=not-a-cursor', 'cursor'],
      ['/v1/tickets?cursor=WyJ4IiwieSIsInoiXQ', 'cursor'],
      ['/v1/tickets?cursor=WzEsIjIwMjYtMDEtMTBUMDk6MDA6MDAuMDAwWiIsIloiLCJmIl0', 'cursor'],
      ['/v1/tickets?cursor=WyJ4IiwieSJd&page=2', 'cursor'],
    ])('%s is a 400 naming %s', async (url, field) => {
      await expect400(url, field);
    });

    it('custom field values a field cannot hold, and fields of other records, are 400s naming the parameter', async () => {
      await expect400(`/v1/tickets?cf.${fields.seats}=many`, `cf.${fields.seats}`);
      await expect400(`/v1/tickets?cf.${fields.products}=Chairs`, `cf.${fields.products}`);
      const accountField = (await send('POST', '/v1/custom-field', { name: 'Tier', source: 'account', fieldType: 'single_line' }))
        .uid;
      await expect400(`/v1/tickets?cf.${accountField}=gold`, `cf.${accountField}`);
    });

    it("another organization's team, user, contact, account, status, priority or custom field is a 404", async () => {
      const theirs = (await get(`/v1/tickets/${globexIds.ticketId}`, globex.headers)).json().data as ApiTicket;
      for (const query of [
        `teamId=${globexIds.teamId}`,
        `teamId=${teams.billing}&teamId=${globexIds.teamId}`,
        `assignedAgentId=${globex.userId}`,
        `customerContactId=${globexIds.contactId}`,
        `accountId=${globexIds.accountId}`,
        `statusId=${theirs.statusId}`,
        `priorityId=${theirs.priorityId}`,
        `cf.${globexIds.fieldId}=x`,
        `tag=${globexIds.tagId}`,
      ]) {
        const response = await get(`/v1/tickets?${query}`);
        expect(response.statusCode, `${query}: ${response.body}`).toBe(404);
        expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
      }
    });

    it('a team filter is a 404 for an archived team, with or without tickets, on every page; an active team without tickets is an empty page', async () => {
      const archived = (await send('POST', '/v1/teams', { name: 'Archived desk' })).id as string;
      await send('POST', '/v1/tickets', { title: 'Left behind', requestorEmail: 'left@customer.test', teamId: archived });
      const firstPage = (await get(`/v1/tickets?teamId=${archived}&limit=1`)).json() as Page;
      expect(firstPage.data).toHaveLength(1);
      const empty = (await send('POST', '/v1/teams', { name: 'Quiet desk' })).id as string;
      await send('DELETE', `/v1/teams/${archived}`);
      for (const query of [
        `teamId=${archived}`,
        `teamId=${archived}&teamId=${teams.billing}`,
        `teamId=${archived}&page=1`,
        `teamId=${archived}&sort=-priority`,
      ]) {
        const response = await get(`/v1/tickets?${query}`);
        expect(response.statusCode, `${query}: ${response.body}`).toBe(404);
        expect(response.json().message).toBe('Team not found!');
      }
      const quiet = await get(`/v1/tickets?teamId=${empty}`);
      expect(quiet.statusCode, quiet.body).toBe(200);
      expect(quiet.json()).toMatchObject({ data: [], nextCursor: null });
      const both = (await get(`/v1/tickets?teamId=${empty}&teamId=${teams.billing}&limit=100`)).json() as Page;
      expect(both.data.length).toBeGreaterThan(0);
      expect(both.data.every((ticket) => ticket.teamId === teams.billing)).toBe(true);
    });
  });

  describe('lookup by ticketIdentifier', () => {
    it('GET answers the same ticket by id and by identifier, in any case', async () => {
      const ticket = all().find((candidate) => candidate.ticketIdentifier === 'BILL-1') as ApiTicket;
      for (const name of ['BILL-1', 'bill-1', 'Bill-1', ' BILL-1 ']) {
        const response = await get(`/v1/tickets/${encodeURIComponent(name)}`);
        expect(response.statusCode, name).toBe(200);
        expect(response.json().data.id).toBe(ticket.id);
      }
      for (const name of ['BILL-999', 'BILL-0', 'BILL-01', 'BILL', '1', 'BILL-1-2', 'NOPE-1', `${ticket.id.toLowerCase()}`]) {
        expect((await get(`/v1/tickets/${name}`)).statusCode, name).toBe(404);
      }
      // Globex has a BILL-1 too: each organization finds its own.
      expect((await get('/v1/tickets/bill-1', globex.headers)).json().data.id).toBe(globexIds.ticketId);
    });

    it('every sub-route takes the identifier: PATCH, comments, tags, activities, routing, DELETE', async () => {
      const created = (await send('POST', '/v1/tickets', {
        title: 'By name',
        requestorEmail: 'named@customer.test',
        teamId: teams.sales,
        performRouting: false,
      })) as ApiTicket;
      const name = created.ticketIdentifier.toLowerCase();
      expect((await send('PATCH', `/v1/tickets/${name}`, { title: 'Renamed' })).title).toBe('Renamed');
      const comment = await send('POST', `/v1/tickets/${name}/comment`, { content: 'Hello' });
      expect(comment.ticketId).toBe(created.id);
      const comments = (await get(`/v1/tickets/${name.toUpperCase()}/comments`)).json();
      expect(comments.data.map((entry: { id: string }) => entry.id)).toEqual([comment.id]);
      expect((await send('PATCH', `/v1/tickets/${name}/comments/${comment.id}`, { content: 'Hello again' })).content).toBe(
        'Hello again',
      );
      await send('DELETE', `/v1/tickets/${name}/comments/${comment.id}`);
      const tagged = await send('POST', `/v1/tickets/${name}/tags`, { tagIds: [tags.vipSales] });
      expect(tagged.tags.map((entry: { id: string }) => entry.id)).toEqual([tags.vipSales]);
      const activities = await get(`/v1/tickets/${name.toUpperCase()}/activities`);
      expect(activities.statusCode, activities.body).toBe(200);
      expect(activities.json().data.length).toBeGreaterThan(0);
      const rerouted = await harness.app.inject({ method: 'POST', url: `/v1/tickets/${name}/route`, headers: acme.headers });
      expect(rerouted.statusCode, rerouted.body).toBe(200);
      const routedName = rerouted.json().data.ticket.ticketIdentifier;
      const history = await get(`/v1/tickets/${routedName}/routing-history`);
      expect(history.statusCode, history.body).toBe(200);
      expect((await send('DELETE', `/v1/tickets/${routedName}`)).id).toBe(created.id);
      expect((await get(`/v1/tickets/${routedName}`)).statusCode).toBe(404);
    });

    it("another organization's identifier and a private ticket of another team answer 404", async () => {
      const secret = all().find(
        (ticket) => ticket.teamId === teams.secret && ticket.isPrivate && ticket.assignedAgentId !== member.userId,
      );
      if (secret) {
        expect((await get(`/v1/tickets/${secret.ticketIdentifier}`, member.headers)).statusCode).toBe(404);
        expect((await get(`/v1/tickets/${secret.ticketIdentifier}/comments`, member.headers)).statusCode).toBe(404);
      }
      const glx = (await send('POST', '/v1/teams', { name: 'Globex only', identifier: 'GLX' }, globex.headers)).id;
      const globexOnly = await send(
        'POST',
        '/v1/tickets',
        { title: 'Only theirs', requestorEmail: 'x@customer.test', teamId: glx, performRouting: false },
        globex.headers,
      );
      expect(globexOnly.ticketIdentifier).toBe('GLX-1');
      expect((await get(`/v1/tickets/${globexOnly.ticketIdentifier}`)).statusCode).toBe(404);
      const comment = await harness.app.inject({
        method: 'POST',
        url: `/v1/tickets/${globexOnly.ticketIdentifier}/comment`,
        headers: acme.headers,
        payload: { content: 'Hi' },
      });
      expect(comment.statusCode).toBe(404);
    });

    it('a ticket keeps its identifier when its team changes identifier; a team taking the old identifier wins its new tickets', async () => {
      const renamed = (await send('POST', '/v1/teams', { name: 'Renamed', identifier: 'OLD' })).id;
      const old = (await send('POST', '/v1/tickets', {
        title: 'Before',
        requestorEmail: 'r@customer.test',
        teamId: renamed,
        performRouting: false,
      })) as ApiTicket;
      expect(old.ticketIdentifier).toBe('OLD-1');
      await send('PATCH', `/v1/teams/${renamed}`, { identifier: 'NEW' });
      expect((await get('/v1/tickets/old-1')).json().data.id).toBe(old.id);
      const after = (await send('POST', '/v1/tickets', {
        title: 'After',
        requestorEmail: 'r@customer.test',
        teamId: renamed,
        performRouting: false,
      })) as ApiTicket;
      expect(after.ticketIdentifier).toBe('NEW-2');

      harness.clock.set(new Date(Date.UTC(2026, 0, 13)).toISOString());
      const taker = (await send('POST', '/v1/teams', { name: 'Taker', identifier: 'OLD' })).id;
      const taken = (await send('POST', '/v1/tickets', {
        title: 'Taken',
        requestorEmail: 'r@customer.test',
        teamId: taker,
        performRouting: false,
      })) as ApiTicket;
      expect(taken.ticketIdentifier).toBe('OLD-1');
      expect((await get('/v1/tickets/OLD-1')).json().data.id).toBe(taken.id);
      expect((await get(`/v1/tickets/${old.id}`)).json().data.ticketIdentifier).toBe('OLD-1');
      for (const id of [old.id, after.id, taken.id]) {
        await send('DELETE', `/v1/tickets/${id}`);
      }
    });
  });
});
