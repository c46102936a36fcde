import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../../test/harness.js';
import type { AppDeps } from '../../../deps.js';
import { createSitePageCache } from '../../../help-center/site/site-page-cache.js';
import { createApiKeyAuth, createAuthenticate } from '../../../http/api-key-auth.js';
import { registerRateLimits } from '../../../http/rate-limits.js';
import { createMetrics } from '../../../lib/metrics.js';
import { createEventSignal } from '../../../platform/events/event.signal.js';
import { apiKeyLookup } from '../../../platform/users/api-key.service.js';
import { BUILT_IN_TOOLS } from '../../tools/built-in-tools.js';
import { builtInRuntimeTool } from '../built-in-runtime-tools.js';
import type { ToolCallContext } from '../runtime-tool.js';

type Headers = { 'x-api-key': string };
type Json = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: each tool answers its own JSON shape, which the assertions read
type ToolResult = Record<string, any>;

/** The deps a run hands its tools, made as `buildApp` makes them, on the harness's database and clock. */
async function appDepsOf(harness: TestApp): Promise<{ deps: AppDeps; close(): Promise<void> }> {
  const scratch = Fastify();
  const limits = await registerRateLimits(scratch, harness.config, harness);
  const auth = createApiKeyAuth({ lookup: apiKeyLookup(harness.db), ttlSeconds: 0 });
  const eventSignal = createEventSignal({ config: harness.config, db: harness.db, log: pino({ level: 'silent' }) });
  const deps: AppDeps = {
    config: harness.config,
    db: harness.db,
    clock: harness.clock,
    ids: harness.ids,
    log: pino({ level: 'silent' }),
    metrics: createMetrics(),
    auth,
    credentialsChanged: async (userId) => auth.forgetUser(userId),
    eventSignal,
    sitePages: createSitePageCache({
      db: harness.db,
      config: harness.config,
      signal: eventSignal,
      log: pino({ level: 'silent' }),
      now: () => harness.clock.now().getTime(),
    }),
    authenticate: createAuthenticate(auth, limits),
    authenticateWithSession: createAuthenticate(auth, limits),
    limits,
    secretKey: harness.secretKey,
    docs: new Map(),
    errorRenderers: new Map(),
  };
  return {
    deps,
    close: async () => {
      await eventSignal.close();
      await scratch.close();
    },
  };
}

describe.each(DIALECTS)('built-in agent tools on %s', (dialect) => {
  let harness: TestApp;
  let deps: AppDeps;
  let closeDeps: () => Promise<void>;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let mia: { userId: string; headers: Headers };
  let desk: TestTeam;
  let vault: TestTeam;
  let agentId: string;
  let deskTicket: Json;
  let vaultTicket: Json;
  let globexTicket: Json;

  const call = async (method: string, url: string, payload?: object, headers: Headers = acme.headers) =>
    harness.app.inject({ method: method as 'GET', url, headers, payload });
  async function ok(method: string, url: string, payload?: object, headers: Headers = acme.headers) {
    const response = await call(method, url, payload, headers);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  }
  const createTicket = async (teamId: string, extra: object = {}, headers: Headers = acme.headers) =>
    (
      await ok(
        'POST',
        '/v1/tickets',
        { title: 'Printer on fire', requestorEmail: 'pat@customer.test', teamId, ...extra },
        headers,
      )
    ).data as Json;
  const comments = async (ticketId: string) => (await ok('GET', `/v1/tickets/${ticketId}/comments`)).data as Json[];
  const count = async (table: 'tickets' | 'ticket_comments' | 'email_outbox' | 'ticket_routing_decisions') =>
    Number(
      (
        await harness.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  function context(overrides: Partial<ToolCallContext> = {}): ToolCallContext {
    return {
      deps,
      organizationId: acme.organizationId,
      actingUserId: mia.userId,
      principal: { type: 'user', userId: mia.userId },
      agentId,
      runId: randomUUID(),
      threadId: null,
      ticketId: null,
      signal: new AbortController().signal,
      ...overrides,
    };
  }
  function tool(name: string, configuration: Json = {}) {
    const made = builtInRuntimeTool(name, configuration);
    if (!made) {
      throw new Error(`no built-in tool ${name}`);
    }
    return made;
  }
  const run = async (name: string, args: unknown, options: { configuration?: Json; context?: Partial<ToolCallContext> } = {}) =>
    (await tool(name, options.configuration).execute(args, context(options.context))) as ToolResult;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    ({ deps, close: closeDeps } = await appDepsOf(harness));
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia' });
    desk = await makeTeam(harness, acme, { identifier: 'DESK', name: 'Desk' });
    vault = await makeTeam(harness, acme, { identifier: 'VLT', name: 'Vault', isPrivate: true });
    const globexDesk = await makeTeam(harness, globex, { identifier: 'GLO' });
    agentId = (await ok('POST', '/api/v1/agents', { name: 'Aria' })).id;
    deskTicket = await createTicket(desk.teamId, { title: 'Printer on fire', description: 'Flames since Monday' });
    vaultTicket = await createTicket(vault.teamId, { title: 'Printer audit', isPrivate: true });
    globexTicket = await createTicket(globexDesk.teamId, { title: 'Printer jam' }, globex.headers);
  });
  afterAll(async () => {
    await closeDeps();
    await harness.close();
  });

  describe('the registry', () => {
    it('implements every tool of the catalog, each with a JSON Schema of its arguments', () => {
      for (const entry of BUILT_IN_TOOLS) {
        const made = builtInRuntimeTool(entry.tool_name, {});
        expect(made, entry.tool_name).toBeDefined();
        expect(made?.name).toBe(entry.tool_name);
        expect(made?.description.length).toBeGreaterThan(20);
        expect(made?.parameters).toMatchObject({ type: 'object', additionalProperties: false, properties: expect.any(Object) });
      }
      expect(builtInRuntimeTool('web_browse', {})).toBeUndefined();
    });

    it('refuses arguments its schema refuses, naming each problem, before anything is read or written', async () => {
      const before = await count('ticket_comments');
      await expect(run('add_internal_note', { ticket_id: deskTicket.id })).rejects.toThrow(
        'Invalid arguments: content is required',
      );
      await expect(run('add_internal_note', { ticket_id: deskTicket.id, content: 'x', colour: 'red' })).rejects.toThrow(
        'colour is not an accepted field',
      );
      await expect(run('search_tickets', { limit: '5' })).rejects.toThrow('Invalid arguments: limit must be a whole number');
      await expect(run('search_tickets', { limit: 0 })).rejects.toThrow('limit must be at least 1');
      await expect(run('get_ticket', 'DESK-1')).rejects.toThrow('Invalid arguments: arguments must be an object');
      await expect(run('create_ticket', { title: 'x', requestor_email: 'not an email', team_id: desk.teamId })).rejects.toThrow(
        'requestor_email must be a valid email',
      );
      expect(await count('ticket_comments')).toBe(before);
    });

    it('fails every call of a tool whose stored configuration the catalog refuses', async () => {
      await expect(run('get_ticket', { ticket_id: deskTicket.id }, { configuration: { max_comments: 500 } })).rejects.toThrow(
        'The configuration of tool get_ticket is invalid: max_comments must be at most 50',
      );
    });

    it('stops at once when the run is aborted', async () => {
      const controller = new AbortController();
      controller.abort(new Error('run timed out'));
      await expect(run('get_ticket', { ticket_id: deskTicket.id }, { context: { signal: controller.signal } })).rejects.toThrow(
        'run timed out',
      );
    });

    it('acts for no one once the acting user is disabled or unknown', async () => {
      const sam = await makeUser(harness, acme.organizationId, { name: 'Sam' });
      expect(
        (await run('get_ticket', { ticket_id: deskTicket.id }, { context: { actingUserId: sam.userId } })).ticket,
      ).toBeDefined();
      await ok('PATCH', `/v1/users/${sam.userId}`, { disabled: true });
      await expect(run('get_ticket', { ticket_id: deskTicket.id }, { context: { actingUserId: sam.userId } })).rejects.toThrow(
        'The user this agent acts for is disabled',
      );
      // A user of another organization is no user of this one.
      await expect(run('get_ticket', { ticket_id: deskTicket.id }, { context: { actingUserId: globex.userId } })).rejects.toThrow(
        'The user this agent acts for does not exist in the organization',
      );
    });
  });

  describe('search_knowledge_base', () => {
    let helpCenterId: string;
    let general: string;
    let billing: string;
    let refundsArticle: Json;

    const article = async (collectionId: string, payload: object, options: { publish?: boolean; headers?: Headers } = {}) => {
      const headers = options.headers ?? acme.headers;
      const created = (await ok('POST', '/articles', { collectionId, ...payload }, headers)).data as Json;
      if (options.publish !== false) {
        await ok('POST', `/articles/${created._id}/publish`, undefined, headers);
      }
      return created;
    };

    beforeAll(async () => {
      helpCenterId = (await ok('POST', '/help-centers', { name: 'Acme Help' })).data._id;
      general = (await ok('POST', '/collections', { helpCenterId, name: 'General' })).data._id;
      billing = (await ok('POST', '/collections', { helpCenterId, name: 'Billing' })).data._id;
      const invoices = (await ok('POST', '/collections', { helpCenterId, name: 'Invoices', parentId: billing })).data._id;
      refundsArticle = await article(invoices, {
        title: 'Refund policy',
        contentMarkdown: 'Refunds & returns: ask within **thirty** days of the purchase.',
      });
      await article(general, { title: 'Printer refunds', contentMarkdown: 'Printers are refunded within ten days.' });
      // A draft never published, and an article published then withdrawn: neither may be cited.
      await article(general, { title: 'Secret refund plan', contentMarkdown: 'Refund everyone twice.' }, { publish: false });
      const withdrawn = await article(general, { title: 'Old refund rules', contentMarkdown: 'Refund in gold.' });
      await ok('POST', `/articles/${withdrawn._id}/unpublish`);
      const globexHelp = (await ok('POST', '/help-centers', { name: 'Globex Help' }, globex.headers)).data._id;
      const globexGeneral = (await ok('POST', '/collections', { helpCenterId: globexHelp, name: 'G' }, globex.headers)).data._id;
      await article(
        globexGeneral,
        { title: 'Globex refunds', contentMarkdown: 'Refund via Globex.' },
        { headers: globex.headers },
      );
    });

    it('finds published articles only, of the organization only, each with its public link and a plain excerpt', async () => {
      const result = await run('search_knowledge_base', { query: 'refund' });
      const titles = result.results.map((hit: Json) => hit.title);
      expect(titles.sort()).toEqual(['Printer refunds', 'Refund policy']);
      const policy = result.results.find((hit: Json) => hit.title === 'Refund policy');
      expect(policy).toEqual({
        article_id: refundsArticle._id,
        title: 'Refund policy',
        description: null,
        url: `http://localhost:3000/hc/acme-help/articles/${refundsArticle.slug}`,
        excerpt: expect.stringContaining('Refunds & returns'),
      });
      expect(policy.excerpt).not.toContain('<mark>');
    });

    it('keeps to its configuration: at most max_results, only the collections named and those under them, metadata when asked', async () => {
      const capped = await run('search_knowledge_base', { query: 'refund' }, { configuration: { max_results: 1 } });
      expect(capped.results).toHaveLength(1);
      // The model cannot ask past the configured cap.
      expect(
        (await run('search_knowledge_base', { query: 'refund', limit: 10 }, { configuration: { max_results: 1 } })).results,
      ).toHaveLength(1);
      const inBilling = await run(
        'search_knowledge_base',
        { query: 'refund' },
        { configuration: { collection_ids: [billing], include_metadata: true } },
      );
      expect(inBilling.results).toEqual([
        expect.objectContaining({ title: 'Refund policy', help_center_ids: [helpCenterId], published_at: expect.any(String) }),
      ]);
      const inGeneral = await run('search_knowledge_base', { query: 'refund' }, { configuration: { collection_ids: [general] } });
      expect(inGeneral.results.map((hit: Json) => hit.title)).toEqual(['Printer refunds']);
    });

    it('says so when nothing matches, and answers under its older name alike', async () => {
      const none = await run('search_knowledge_base', { query: 'zeppelin' });
      expect(none).toEqual({ query: 'zeppelin', results: [], note: expect.stringContaining('No published article matches') });
      const older = await run('knowledge_base_search', { query: 'purchase' });
      expect(older.results.map((hit: Json) => hit.title)).toEqual(['Refund policy']);
    });

    it("refuses another organization's help center and a malformed query", async () => {
      const globexHelp = (await ok('GET', '/help-centers', undefined, globex.headers)).data[0]._id;
      await expect(
        run('search_knowledge_base', { query: 'refund' }, { configuration: { help_center_id: globexHelp } }),
      ).rejects.toThrow('Help center not found');
      await expect(run('search_knowledge_base', { query: '"' })).rejects.toThrow(/^q /);
    });
  });

  describe('get_ticket and search_tickets', () => {
    beforeAll(async () => {
      await ok('POST', `/v1/tickets/${deskTicket.id}/comment`, { content: 'It smells of toner.' });
      await ok('POST', `/v1/tickets/${deskTicket.id}/comment`, { content: 'Internal: replace the fuser.', commentType: 'note' });
    });

    it('reads a ticket by identifier in any case, with its latest public comments', async () => {
      const result = await run('get_ticket', { ticket_id: 'desk-1' });
      expect(result.ticket).toMatchObject({
        id: deskTicket.id,
        identifier: 'DESK-1',
        title: 'Printer on fire',
        description: 'Flames since Monday',
        status: 'Open',
        is_closed: false,
        team: { id: desk.teamId, name: 'Desk' },
        requestor: { email: 'pat@customer.test', contact_id: expect.any(String) },
      });
      expect(result.latest_comments.map((comment: Json) => comment.content)).toEqual(['It smells of toner.']);
      const withNotes = await run(
        'get_ticket',
        { ticket_id: deskTicket.id },
        { configuration: { include_private_comments: true } },
      );
      expect(withNotes.latest_comments.map((comment: Json) => [comment.content, comment.visibility])).toEqual([
        ['It smells of toner.', 'public'],
        ['Internal: replace the fuser.', 'private'],
      ]);
      const latestOnly = await run(
        'ticket_lookup',
        { ticket_id: deskTicket.id },
        { configuration: { include_private_comments: true, max_comments: 1 } },
      );
      expect(latestOnly.latest_comments.map((comment: Json) => comment.content)).toEqual(['Internal: replace the fuser.']);
    });

    it("reads the run's ticket by default, and asks a chat run for one", async () => {
      expect((await run('get_ticket', {}, { context: { ticketId: deskTicket.id as string } })).ticket.identifier).toBe('DESK-1');
      await expect(run('get_ticket', {})).rejects.toThrow('ticket_id is required: this run is not about a ticket');
    });

    it("answers not found for a private ticket the acting user may not see, another organization's, or another team's", async () => {
      await expect(run('get_ticket', { ticket_id: vaultTicket.id })).rejects.toThrow('Ticket not found!');
      // The admin the agent may act for sees it.
      expect(
        (await run('get_ticket', { ticket_id: vaultTicket.id }, { context: { actingUserId: acme.userId } })).ticket.identifier,
      ).toBe('VLT-1');
      await expect(run('get_ticket', { ticket_id: globexTicket.id })).rejects.toThrow('Ticket not found!');
      await expect(run('get_ticket', { ticket_id: 'GLO-1' })).rejects.toThrow('Ticket not found!');
      await expect(
        run('get_ticket', { ticket_id: deskTicket.id }, { configuration: { team_ids: [vault.teamId] } }),
      ).rejects.toThrow('Ticket not found!');
    });

    it('searches the tickets the acting user may see, by words and filters', async () => {
      const mine = await run('search_tickets', { query: 'printer' });
      expect(mine.tickets.map((ticket: Json) => ticket.identifier)).toEqual(['DESK-1']);
      expect(mine.tickets[0]).toMatchObject({ title: 'Printer on fire', matches: expect.arrayContaining(['Printer on fire']) });
      const asAdmin = await run('search_tickets', { query: 'printer' }, { context: { actingUserId: acme.userId } });
      expect(asAdmin.tickets.map((ticket: Json) => ticket.identifier).sort()).toEqual(['DESK-1', 'VLT-1']);
      const limited = await run(
        'search_tickets',
        { query: 'printer' },
        { context: { actingUserId: acme.userId }, configuration: { team_ids: [vault.teamId] } },
      );
      expect(limited.tickets.map((ticket: Json) => ticket.identifier)).toEqual(['VLT-1']);
      expect((await run('search_tickets', { query: 'printer', requestor_email: 'nobody@customer.test' })).tickets).toEqual([]);
      expect((await run('search_tickets', { query: 'printer', is_closed: true })).tickets).toEqual([]);
      const recent = await run(
        'search_tickets',
        {},
        { context: { actingUserId: acme.userId }, configuration: { max_results: 1 } },
      );
      expect(recent).toMatchObject({ tickets: [expect.objectContaining({ identifier: expect.any(String) })], more: true });
    });
  });

  describe('notes and replies', () => {
    it('adds an internal note the API shows as the agent’s (AI_AGENT), rendered from Markdown', async () => {
      const result = await run('add_internal_note', { ticket_id: 'DESK-1', content: 'Customer is **angry**; check the fuser.' });
      expect(result).toEqual({
        comment_id: expect.any(String),
        ticket: { id: deskTicket.id, identifier: 'DESK-1' },
        visibility: 'private',
        emailed_to_requestor: null,
      });
      const stored = (await comments(deskTicket.id as string)).find((comment) => comment.id === result.comment_id);
      expect(stored).toMatchObject({
        author: 'Aria',
        authorId: agentId,
        authorUserType: 'AI_AGENT',
        authorAvatarUrl: null,
        commentVisibility: 'private',
        commentType: 'note',
        content: 'Customer is **angry**; check the fuser.',
        contentHtml: expect.stringContaining('<strong>angry</strong>'),
      });
      // The event every consumer reads (the run loop included, which must not answer its own comments) says so too.
      const events = (await ok('GET', '/v1/events?type=comment.created')).data as Json[];
      const event = events.find((entry) => (entry.data as Json).id === result.comment_id);
      expect(event?.data).toMatchObject({ authorUserType: 'AI_AGENT', authorId: agentId });
    });

    it('writes a step replayed in the same run once, and refuses a ticket the acting user may not see', async () => {
      const runId = randomUUID();
      const before = await count('ticket_comments');
      const first = await run('add_internal_note', { ticket_id: deskTicket.id, content: 'Once.' }, { context: { runId } });
      const again = await run('add_internal_note', { ticket_id: deskTicket.id, content: 'Once.' }, { context: { runId } });
      expect(again).toMatchObject({ comment_id: first.comment_id, note: expect.stringContaining('already written') });
      expect(await count('ticket_comments')).toBe(before + 1);
      await expect(run('add_internal_note', { ticket_id: vaultTicket.id, content: 'Peek.' })).rejects.toThrow(
        'Ticket not found!',
      );
      await expect(run('add_internal_note', { ticket_id: globexTicket.id, content: 'Peek.' })).rejects.toThrow(
        'Ticket not found!',
      );
      expect(await count('ticket_comments')).toBe(before + 1);
    });

    it("replies to the customer on the run's ticket, publicly and by email", async () => {
      const ticket = await createTicket(desk.teamId, { title: 'Toner empty', requestorEmail: 'lee@customer.test' });
      const outbox = await count('email_outbox');
      const result = await run(
        'reply_to_customer',
        { content: 'A new cartridge is on its way.' },
        { context: { ticketId: ticket.id as string } },
      );
      expect(result).toMatchObject({ visibility: 'public', emailed_to_requestor: 'lee@customer.test' });
      expect(await comments(ticket.id as string)).toEqual([
        expect.objectContaining({
          authorUserType: 'AI_AGENT',
          author: 'Aria',
          commentVisibility: 'public',
          commentType: 'comment',
        }),
      ]);
      expect(await count('email_outbox')).toBe(outbox + 1);
      const quiet = await run(
        'reply_to_customer',
        { ticket_id: ticket.id, content: 'Shipped.' },
        { configuration: { should_send_email: false } },
      );
      expect(quiet.emailed_to_requestor).toBeNull();
      expect(await count('email_outbox')).toBe(outbox + 1);
    });

    it('comments under the older name as its configuration says', async () => {
      const note = await run('create_ticket_comment', { ticket_id: deskTicket.id, content: 'Older, private.' });
      expect(note.visibility).toBe('private');
      const reply = await run(
        'create_ticket_comment',
        { ticket_id: deskTicket.id, content: 'Older, public.' },
        { configuration: { comment_visibility: 'public' } },
      );
      expect(reply).toMatchObject({ visibility: 'public', emailed_to_requestor: null });
    });
  });

  describe('create_ticket', () => {
    it('opens a ticket in the team named or the default one, through the ticket service', async () => {
      const named = await run('create_ticket', {
        title: 'Paper jam',
        description: 'Tray 2',
        requestor_email: 'kim@customer.test',
        team_id: desk.teamId,
        priority: 'high',
      });
      expect(named).toMatchObject({
        created: true,
        ticket: { identifier: expect.stringMatching(/^DESK-\d+$/), priority: 'High' },
      });
      const fetched = (await ok('GET', `/v1/tickets/${named.ticket.id}`)).data;
      expect(fetched).toMatchObject({ title: 'Paper jam', source: 'ai_agent', requestorEmail: 'kim@customer.test' });
      const byDefault = await run(
        'create_ticket',
        { title: 'Scanner dead', requestor_email: 'kim@customer.test' },
        { configuration: { team_id: desk.teamId } },
      );
      expect(byDefault.ticket.team.id).toBe(desk.teamId);
    });

    it('writes nothing for a missing, refused or foreign team, or an unknown priority', async () => {
      const before = await count('tickets');
      const args = { title: 'Nope', requestor_email: 'kim@customer.test' };
      await expect(run('create_ticket', args)).rejects.toThrow('team_id is required: this tool has no default team');
      await expect(
        run('create_ticket', { ...args, team_id: vault.teamId }, { configuration: { team_ids: [desk.teamId] } }),
      ).rejects.toThrow(`team_id must be one of the teams this tool may use: ${desk.teamId}`);
      const globexTeam = (
        await harness.db.selectFrom('teams').select('id').where('identifier', '=', 'GLO').executeTakeFirstOrThrow()
      ).id;
      await expect(run('create_ticket', { ...args, team_id: globexTeam })).rejects.toThrow('Team not found!');
      await expect(run('create_ticket', { ...args, team_id: desk.teamId, priority: 'whenever' })).rejects.toThrow('priorityName');
      expect(await count('tickets')).toBe(before);
    });
  });

  describe('lookup_contact', () => {
    it('finds a contact by email or id, with the tickets the acting user may see', async () => {
      const byEmail = await run('lookup_contact', { email: 'PAT@customer.test' });
      expect(byEmail.contact).toMatchObject({ email: 'pat@customer.test', accounts: [] });
      // Pat's vault ticket is private: Mia sees Desk's only.
      expect(byEmail.latest_tickets.map((ticket: Json) => ticket.identifier)).toEqual(['DESK-1']);
      const asAdmin = await run('lookup_contact', { contact_id: byEmail.contact.id }, { context: { actingUserId: acme.userId } });
      expect(asAdmin.latest_tickets.map((ticket: Json) => ticket.identifier).sort()).toEqual(['DESK-1', 'VLT-1']);
      const bare = await run('lookup_contact', { email: 'pat@customer.test' }, { configuration: { include_tickets: false } });
      expect(bare).not.toHaveProperty('latest_tickets');
    });

    it("answers not found for an unknown or another organization's contact, and wants exactly one key", async () => {
      await expect(run('lookup_contact', { email: 'ghost@customer.test' })).rejects.toThrow('Contact not found');
      const globexContact = (await ok('GET', `/v1/tickets/${globexTicket.id}`, undefined, globex.headers)).data.customerContactId;
      await expect(run('lookup_contact', { contact_id: globexContact })).rejects.toThrow('Contact not found');
      await expect(run('lookup_contact', {})).rejects.toThrow('give either email or contact_id');
      await expect(run('lookup_contact', { email: 'pat@customer.test', contact_id: globexContact })).rejects.toThrow(
        'give either email or contact_id',
      );
    });
  });

  describe('handoff_to_human', () => {
    let humans: TestTeam;
    let bo: { userId: string };

    beforeAll(async () => {
      bo = await makeUser(harness, acme.organizationId, { name: 'Bo' });
      await ok('PATCH', `/v1/users/${bo.userId}`, { status: 'online' });
      humans = await makeTeam(harness, acme, { identifier: 'HUM', name: 'Humans' });
      // Only Bo takes this team's tickets (the factory made the admin a member).
      await harness.db
        .deleteFrom('team_members')
        .where('team_id', '=', humans.teamId)
        .where('user_id', '=', acme.userId)
        .execute();
      await ok('POST', `/v1/teams/${humans.teamId}/members`, { userId: bo.userId });
      await ok('PATCH', `/v1/teams/${humans.teamId}/configurations`, { userRoutingStrategy: 'round_robin' });
    });

    it('assigns the ticket through the routing engine and says so, in a note and to the model', async () => {
      const ticket = await createTicket(humans.teamId, { title: 'Need a person', performRouting: false });
      expect(ticket.assignedAgentId).toBeNull();
      const result = await run(
        'handoff_to_human',
        { reason: 'The customer asks for a refund outside the policy.' },
        { context: { ticketId: ticket.id as string } },
      );
      expect(result).toMatchObject({
        handed_off: true,
        ticket: { id: ticket.id, identifier: ticket.ticketIdentifier },
        team: 'Humans',
        assigned_to: { id: bo.userId, name: 'Bo' },
        outcome: 'It is now assigned to Bo of team Humans.',
        message: expect.stringContaining('Tell the customer a person will follow up'),
      });
      expect((await ok('GET', `/v1/tickets/${ticket.id}`)).data.assignedAgentId).toBe(bo.userId);
      const history = (await ok('GET', `/v1/tickets/${ticket.id}/routing-history`)).data as Json[];
      expect(history.map((decision) => [decision.trigger, decision.agentId, decision.decidedById])).toEqual([
        ['reroute', bo.userId, mia.userId],
      ]);
      expect(await comments(ticket.id as string)).toEqual([
        expect.objectContaining({
          id: result.note_id,
          authorUserType: 'AI_AGENT',
          author: 'Aria',
          commentVisibility: 'private',
          content: expect.stringMatching(/Handed off to a human by Aria\.[\s\S]*outside the policy[\s\S]*assigned to Bo/),
        }),
      ]);
    });

    it('tells the user it acts for of a ticket routing hands them: the agent made that change, not they', async () => {
      const solo = await makeTeam(harness, acme, { identifier: 'SOLO', name: 'Solo' });
      await harness.db.deleteFrom('team_members').where('team_id', '=', solo.teamId).where('user_id', '=', acme.userId).execute();
      await ok('POST', `/v1/teams/${solo.teamId}/members`, { userId: mia.userId });
      await harness.app.inject({
        method: 'PATCH',
        url: `/v1/users/${mia.userId}`,
        headers: mia.headers,
        payload: { status: 'online' },
      });
      await ok('PATCH', `/v1/teams/${solo.teamId}/configurations`, { userRoutingStrategy: 'round_robin' });
      const ticket = await createTicket(solo.teamId, { title: 'Only Mia can take it', performRouting: false });
      const result = await run(
        'handoff_to_human',
        { reason: 'A person must decide.' },
        { context: { ticketId: ticket.id as string } },
      );
      expect(result.assigned_to).toMatchObject({ id: mia.userId });
      const mail = await harness.db
        .selectFrom('email_outbox')
        .innerJoin('users', 'users.email', 'email_outbox.to_address')
        .select(['email_outbox.subject'])
        .where('users.id', '=', mia.userId)
        .execute();
      const aboutIt = mail.map((row) => row.subject).filter((subject) => subject.startsWith(`[${ticket.ticketIdentifier}]`));
      expect(aboutIt).toContain(`[${ticket.ticketIdentifier}] Assigned to you: Only Mia can take it`);
    });

    it('writes nothing when the ticket cannot be routed or seen', async () => {
      const closed = await createTicket(humans.teamId, { title: 'Done', statusName: 'Closed' });
      const before = { comments: await count('ticket_comments'), decisions: await count('ticket_routing_decisions') };
      await expect(run('handoff_to_human', { ticket_id: closed.id, reason: 'x' })).rejects.toThrow(
        'A closed ticket is not routed!',
      );
      await expect(run('handoff_to_human', { ticket_id: vaultTicket.id, reason: 'x' })).rejects.toThrow('Ticket not found!');
      await expect(run('handoff_to_human', { ticket_id: globexTicket.id, reason: 'x' })).rejects.toThrow('Ticket not found!');
      await expect(run('handoff_to_human', { ticket_id: deskTicket.id })).rejects.toThrow(
        'Invalid arguments: reason is required',
      );
      expect({ comments: await count('ticket_comments'), decisions: await count('ticket_routing_decisions') }).toEqual(before);
    });
  });
});
