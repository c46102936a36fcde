import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/dialects.js';
import { createTestDatabase, testConfig } from '../../test/harness.js';
import { buildApp } from '../app.js';
import { main } from '../cli.js';
import type { DB } from '../db/database.js';
import { systemClock } from '../lib/clock.js';
import { createIdFactory } from '../lib/ids.js';
import { DEMO_AI_AGENT, DEMO_COLLECTIONS, DEMO_SIGN_IN, DEMO_TICKETS } from './demo-content.js';
import type { DemoSeedResult } from './demo-seed.js';

const PASSWORD = 'lumen demo password 2026';

async function runCli(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describe.each(DIALECTS)('switchboard demo seed on %s', (dialect) => {
  let env: Record<string, string>;
  let db: Kysely<DB>;
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  let demo: DemoSeedResult;

  const cli = (...argv: string[]) => runCli(argv, env);
  const api = (url: string, key: string) => app.inject({ url, headers: { 'x-api-key': key } });
  const ticketCount = async (organizationId: string) =>
    Number(
      (
        await db
          .selectFrom('tickets')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('organization_id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    db = database.db;
    drop = database.drop;
    env =
      dialect === 'postgres'
        ? { DATABASE_URL: database.url ?? '', SECRET_KEY: randomBytes(32).toString('hex') }
        : { DATA_DIR: database.dataDir ?? '' };
    // The seed writes a history that ends now and an invitation valid from now: the app reads them on the real clock.
    app = await buildApp({
      config: testConfig(),
      db,
      clock: systemClock,
      ids: createIdFactory(systemClock),
      log: pino({ level: 'silent' }),
    });
    await app.ready();
    const run = await cli('demo', 'seed', '--json');
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    demo = JSON.parse(run.out[0] ?? '') as DemoSeedResult;
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  it('creates the Demo organization and reports what it holds', () => {
    const articles = DEMO_COLLECTIONS.flatMap((collection) => collection.articles);
    expect(demo.organization).toMatchObject({ name: 'Demo', created: true });
    expect(demo.counts).toEqual({
      teams: 3,
      agents: 5,
      accounts: 4,
      contacts: 8,
      tickets: DEMO_TICKETS.length,
      publicComments: 14,
      internalNotes: 8,
      collections: 3,
      publishedArticles: articles.filter((article) => !article.draft).length,
      draftArticles: 1,
      aiAgentTools: DEMO_AI_AGENT.tools.length,
    });
    expect(demo.signIn).toMatchObject({ email: DEMO_SIGN_IN.email, passwordSet: false, url: expect.stringMatching(/\/app\/$/) });
  });

  it('made tickets the API shows, with statuses, priorities, tags, assignees and conversations, over three weeks', async () => {
    const key = demo.adminApiKey ?? '';
    const list = await api('/v1/tickets?limit=50', key);
    expect(list.statusCode, list.body).toBe(200);
    const tickets = list.json().data as { status: string; createdAt: string; ticketIdentifier: string }[];
    expect(tickets).toHaveLength(DEMO_TICKETS.length);
    const statuses = new Set(tickets.map((ticket) => ticket.status));
    expect([...statuses].sort()).toEqual(['Closed', 'In progress', 'On hold', 'Open']);
    const times = tickets.map((ticket) => Date.parse(ticket.createdAt)).sort();
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThan(14 * 24 * 3600_000);
    expect(times.at(-1) ?? Number.POSITIVE_INFINITY).toBeLessThan(Date.now());

    const first = (await api('/v1/tickets/SUP-1', key)).json().data;
    expect(first).toMatchObject({
      title: 'Cannot sign in after password reset',
      status: 'In progress',
      priority: 'High',
      assignedAgentEmail: DEMO_SIGN_IN.email,
      requestorEmail: 'priya@northwind.example',
      account: null,
      tags: [expect.objectContaining({ name: 'login' }), expect.objectContaining({ name: 'vip' })],
    });
    const comments = (await api(`/v1/tickets/${first.id}/comments`, key)).json().data as Record<string, unknown>[];
    expect(comments.map((comment) => [comment.authorUserType, comment.commentVisibility])).toEqual([
      ['ORG_ADMIN', 'public'],
      ['CUSTOMER', 'public'],
      ['ORG_ADMIN', 'private'],
    ]);
    const drafted = (await api('/v1/tickets/SUP-2/comments', key)).json().data as Record<string, unknown>[];
    expect(drafted).toEqual([expect.objectContaining({ authorUserType: 'AI_AGENT', author: DEMO_AI_AGENT.name })]);
    // Search documents were written as for any ticket.
    const found = (await api('/v1/tickets/search?q=credentials', key)).json().data as { ticketIdentifier: string }[];
    expect(found.map((ticket) => ticket.ticketIdentifier)).toEqual(['SUP-1']);
  });

  it('made a help center whose search finds published articles only, and an AI agent with its tools', async () => {
    const key = demo.adminApiKey ?? '';
    const hits = (await api('/articles/search?q=refund', key)).json().data as { title: string }[];
    expect(hits.map((hit) => hit.title)).toContain('Refund policy');
    expect((await api('/articles/search?q=SAML', key)).json().data).toEqual([]);
    const tools = (await api(`/api/v1/agents/${demo.aiAgentId}/tools`, key)).json() as { tool_name: string }[];
    expect(tools.map((tool) => tool.tool_name).sort()).toEqual([...DEMO_AI_AGENT.tools].sort());
  });

  it('lets the demo user choose a password with the link printed, then sign in', async () => {
    const token = new URL(demo.signIn.invitationLink ?? '').searchParams.get('token');
    const accepted = await app.inject({
      method: 'POST',
      url: '/v1/auth/invitations/accept',
      payload: { token, password: PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const login = await app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: DEMO_SIGN_IN.email, password: PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
  });

  it('refuses to seed Demo again, writing nothing', async () => {
    const before = await ticketCount(demo.organization.id);
    const again = await cli('demo', 'seed');
    expect(again.code).toBe(1);
    expect(again.err).toEqual([expect.stringContaining('An organization named Demo exists already')]);
    expect(await ticketCount(demo.organization.id)).toBe(before);
  });

  it('seeds an existing organization with --org, setting the password given; a second time it refuses', async () => {
    const created = await cli('orgs', 'create', '--name', 'Wayne', '--admin-email', 'bruce@wayne.example', '--json');
    const { organizationId } = JSON.parse(created.out[0] ?? '') as { organizationId: string };
    const run = await cli('demo', 'seed', '--org', organizationId, '--password', PASSWORD);
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out[0]).toBe(`Seeded organization Wayne (${organizationId}):`);
    expect(run.out.at(-1)).toMatch(new RegExp(`^Sign in at .*/app/ as ${DEMO_SIGN_IN.email} with the password you gave\\.$`));
    expect(run.out.join('\n')).not.toContain('API key');
    expect(await ticketCount(organizationId)).toBe(DEMO_TICKETS.length);
    const login = await app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: DEMO_SIGN_IN.email, password: PASSWORD, organizationId },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json().data.user).toMatchObject({ email: DEMO_SIGN_IN.email, userType: 'ORG_MEMBER' });

    const again = await cli('demo', 'seed', '--org', organizationId);
    expect(again).toMatchObject({
      code: 1,
      err: [`Wayne (${organizationId}) has a team SUP already: it looks seeded; nothing was written`],
    });
    expect(await ticketCount(organizationId)).toBe(DEMO_TICKETS.length);
  });

  it('writes nothing for a password the rules refuse or an unknown organization', async () => {
    const created = await cli('orgs', 'create', '--name', 'Stark', '--admin-email', 'tony@stark.example', '--json');
    const { organizationId } = JSON.parse(created.out[0] ?? '') as { organizationId: string };
    const short = await cli('demo', 'seed', '--org', organizationId, '--password', 'too short');
    expect(short.code).toBe(1);
    expect(short.err[0]).toMatch(/^--password: .*12/);
    const unknown = await cli('demo', 'seed', '--org', '01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknown).toMatchObject({ code: 1, err: ['No organization 01ARZ3NDEKTSV4RRFFQ69G5FAV (see switchboard orgs list)'] });
    expect(await ticketCount(organizationId)).toBe(0);
    const teams = await db.selectFrom('teams').select('id').where('organization_id', '=', organizationId).execute();
    expect(teams).toEqual([]);
  });
});
