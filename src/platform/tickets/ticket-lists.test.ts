import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { threadRootIds } from './comment.repository.js';
import { visibleTicketIds } from './ticket.repository.js';

type Page = { data: { id: string }[]; nextCursor: string | null };

describe.each(DIALECTS)('ticket and comment lists by page and by cursor on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let teamId: string;
  let privateTeamId: string;
  let ticketId: string;
  const ticketIds: string[] = [];

  const get = (url: string, headers: Record<string, string> = acme.headers) => harness.app.inject({ url, headers });
  const post = async (url: string, payload: object, headers: Record<string, string> = acme.headers) => {
    const response = await harness.app.inject({ method: 'POST', url, headers, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data as { id: string };
  };

  /** Every page of a list, following nextCursor from the first page. */
  async function walk(url: string, headers: Record<string, string> = acme.headers): Promise<{ pages: Page[]; ids: string[] }> {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const separator = url.includes('?') ? '&' : '?';
      const response = await get(cursor ? `${url}${separator}cursor=${cursor}` : url, headers);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as Page;
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor && pages.length < 50);
    return { pages, ids: pages.flatMap((page) => page.data.map((item) => item.id)) };
  }

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    teamId = (await post('/v1/teams', { name: 'Support' })).id;
    privateTeamId = (await post('/v1/teams', { name: 'Secret', isPrivate: true })).id;
    for (let index = 0; index < 25; index++) {
      // Some share an instant, so the id decides their order.
      harness.clock.set(new Date(Date.UTC(2026, 0, 15, 9, Math.floor(index / 3))).toISOString());
      const team = index % 5 === 4 ? privateTeamId : teamId;
      const isPrivate = index % 5 === 4;
      ticketIds.push(
        (await post('/v1/tickets', { title: `T${index}`, requestorEmail: 'c@example.com', teamId: team, isPrivate })).id,
      );
    }
    await post(
      '/v1/tickets',
      { title: 'Globex', requestorEmail: 'g@example.com', teamId: (await post('/v1/teams', { name: 'G' }, globex.headers)).id },
      globex.headers,
    );
    ticketId = ticketIds[0] as string;
    for (let index = 0; index < 25; index++) {
      harness.clock.set(new Date(Date.UTC(2026, 0, 16, 9, index)).toISOString());
      const root = await post(`/v1/tickets/${ticketId}/comment`, { content: `Thread ${index}` });
      if (index % 4 === 0) {
        await post(`/v1/tickets/${ticketId}/comment`, { content: `Reply to ${index}`, parentCommentId: root.id });
      }
    }
  });
  afterAll(() => harness?.close());

  it('tickets: cursor pages walk every visible ticket once, newest first, and agree with page', async () => {
    const newestFirst = [...ticketIds].reverse();
    const { pages, ids } = await walk('/v1/tickets?limit=10');
    expect(pages.map((page) => page.data.length)).toEqual([10, 10, 5]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    expect(ids).toEqual(newestFirst);

    const byPage = [];
    for (let page = 0; page < 3; page++) {
      const response = (await get(`/v1/tickets?limit=10&page=${page}`)).json() as Page;
      byPage.push(...response.data.map((ticket) => ticket.id));
      expect(response.nextCursor === null).toBe(page === 2);
    }
    expect(byPage).toEqual(newestFirst);

    // A cursor from a page read by number continues after it.
    const second = (await get('/v1/tickets?limit=10&page=1')).json() as Page;
    const third = (await get(`/v1/tickets?limit=10&cursor=${second.nextCursor}`)).json() as Page;
    expect(third.data.map((ticket) => ticket.id)).toEqual(newestFirst.slice(20));
  });

  it('tickets: the team filter and visibility hold on every page', async () => {
    const { ids } = await walk(`/v1/tickets?limit=4&teamId=${teamId}`);
    expect(ids).toEqual([...ticketIds].reverse().filter((_, index) => (24 - index) % 5 !== 4));

    const member = await makeUser(harness, acme.organizationId);
    const visible = await walk('/v1/tickets?limit=7', member.headers);
    expect(visible.ids).toEqual([...ticketIds].reverse().filter((_, index) => (24 - index) % 5 !== 4));
  });

  it('tickets: another organization walks only its own tickets, whatever cursor it sends', async () => {
    const acmePage = (await get('/v1/tickets?limit=2')).json() as Page;
    const response = await get(`/v1/tickets?limit=10&cursor=${acmePage.nextCursor}`, globex.headers);
    expect(response.statusCode).toBe(200);
    for (const ticket of (response.json() as Page).data) {
      expect(ticketIds).not.toContain(ticket.id);
    }
  });

  it.each([
    ['/v1/tickets?cursor=not-a-cursor', 'cursor is not a nextCursor this list returned'],
    ['/v1/tickets?cursor=WyJ4Il0', 'cursor is not a nextCursor this list returned'],
    ['/v1/tickets?cursor=WyJ4IiwieSJd&page=2', 'cursor and page cannot be combined'],
  ])('tickets: %s is a 400', async (url, message) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });

  it('comments: cursor pages walk every thread once, each root followed by its replies', async () => {
    const { pages, ids } = await walk(`/v1/tickets/${ticketId}/comments?limit=10`);
    expect(
      pages.map((page) => page.data.filter((comment) => !('parentCommentId' in comment) || !comment.parentCommentId).length),
    ).toEqual([10, 10, 5]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(25 + 7);
    const byPage = [];
    for (let page = 0; page < 3; page++) {
      byPage.push(
        ...((await get(`/v1/tickets/${ticketId}/comments?limit=10&page=${page}`)).json() as Page).data.map(
          (comment) => comment.id,
        ),
      );
    }
    expect(ids).toEqual(byPage);
    const bad = await get(`/v1/tickets/${ticketId}/comments?cursor=%7B%7D`);
    expect(bad.statusCode).toBe(400);
  });

  it('comments: another organization cannot list them', async () => {
    expect((await get(`/v1/tickets/${ticketId}/comments`, globex.headers)).statusCode).toBe(404);
  });

  describe('query plans: the ids of a page come from an index alone, without sorting or scanning the table', () => {
    /** SQLite: the plan's lines. PostgreSQL (sequential scans off, so small tables still show the index plan): each node as `Type relation`. */
    async function plan(compiled: CompiledQuery): Promise<string[]> {
      const explain = (prefix: string) => ({ ...compiled, sql: `${prefix} ${compiled.sql}` });
      if (dialect === 'sqlite') {
        const { rows } = await harness.db.executeQuery<{ detail: string }>(explain('explain query plan'));
        return rows.map((row) => row.detail);
      }
      return harness.db.connection().execute(async (connection) => {
        await sql`set enable_seqscan = off`.execute(connection);
        try {
          const { rows } = await connection.executeQuery<{ 'QUERY PLAN': string | unknown[] }>(explain('explain (format json)'));
          const raw = rows[0]?.['QUERY PLAN'];
          const [root] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
          const nodes: string[] = [];
          const visit = (node: PlanNode) => {
            nodes.push(`${node['Node Type']} ${node['Relation Name'] ?? ''}`.trim());
            for (const child of node.Plans ?? []) {
              visit(child);
            }
          };
          if (root) {
            visit(root.Plan);
          }
          return nodes;
        } finally {
          await sql`reset enable_seqscan`.execute(connection);
        }
      });
    }
    interface PlanNode {
      'Node Type': string;
      'Relation Name'?: string;
      Plans?: PlanNode[];
    }

    function expectIndexRange(lines: string[], table: string) {
      const text = lines.join('\n');
      if (dialect === 'sqlite') {
        expect(text).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
        expect(text).not.toMatch(new RegExp(`SCAN ${table}(?! USING)`));
        expect(text).toMatch(/USING COVERING INDEX/);
      } else {
        expect(lines, text).not.toContain('Sort');
        expect(lines, text).not.toContain(`Seq Scan ${table}`);
        expect(
          lines.some((line) => line.startsWith('Index') && line.endsWith(table)),
          text,
        ).toBe(true);
      }
    }

    const filters = () => [
      { viewerId: 'x', seeAll: true, limit: 11, offset: 990 },
      { viewerId: 'x', seeAll: false, limit: 11, offset: 990 },
      { viewerId: 'x', seeAll: true, limit: 11, filters: { organizationId: 'O', teamIds: ['T'] }, offset: 990 },
      { viewerId: 'x', seeAll: true, limit: 11, after: ['2026-01-15T09:00:00.000Z', 'Z'] },
    ];

    it.each(filters().map((filter, index) => [index, filter] as const))('tickets list #%s', async (_, filter) => {
      const compiled = visibleTicketIds(harness.db, acme.organizationId, filter).compile();
      expectIndexRange(await plan(compiled), 'tickets');
    });

    it.each([[{ limit: 21, offset: 980 }], [{ limit: 21, after: ['2026-01-15T09:00:00.000Z', 'Z'] }]])(
      'comment threads %o',
      async (page) => {
        expectIndexRange(await plan(threadRootIds(harness.db, ticketId, page).compile()), 'ticket_comments');
      },
    );
  });
});
