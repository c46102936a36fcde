import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';
import { composeMail, INBOUND_SECRET_KEY, inboundDepsOf, inboundEnv } from '../../../test/inbound.js';
import { type ModelRequest, startModelServer, type TestModelServer } from '../../../test/model-server.js';
import { sendRaw } from '../../../test/smtp-client.js';
import { depsOfApp } from '../../app.js';
import { connectPostgres } from '../../db/connect.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../email/inbound/smtp-receiver.js';
import { replyAddressFor } from '../../email/reply-address.js';
import { decodeSecretKey } from '../../lib/secret-box.js';
import { isAnswerable } from './ticket-agent.dispatcher.js';
import { respondToTicket } from './ticket-agent.service.js';
import { createTicketAgentWorker, type TicketAgentWorker } from './ticket-agent.worker.js';

// biome-ignore lint/suspicious/noExplicitAny: answers of the API, read field by field in assertions
type Json = Record<string, any>;

/** The content of the last tool message the model was sent: what the tool really returned. */
function lastToolResult(request: ModelRequest): string {
  const tool = [...request.body.messages].reverse().find((message) => message.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content);
}

describe.each(DIALECTS)('agents on tickets on %s', (dialect) => {
  let data: ReturnType<typeof inboundEnv>;
  let harness: TestApp;
  let acme: TestOrganization;
  let desk: TestTeam;
  let model: TestModelServer;
  let receiver: SmtpReceiver;
  let agentId: string;
  let worker: TicketAgentWorker;
  let sequence = 0;
  const support = `support-${dialect}@acme.test`;

  const call = async (method: string, url: string, payload?: object) => {
    const response = await harness.app.inject({
      method: method as 'GET',
      url,
      headers: acme.headers,
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json() as Json;
  };
  const workerOf = (app = harness.app, db = harness.db) =>
    createTicketAgentWorker({
      db,
      clock: harness.clock,
      ids: harness.ids,
      pollMs: 1000,
      respond: (job, signal) => respondToTicket(depsOfApp(app), job, signal),
      log: pino({ level: 'silent' }),
    });

  beforeAll(async () => {
    data = inboundEnv({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    harness = await buildTestApp(dialect, { env: data.env });
    acme = await makeOrganization(harness, { name: 'Acme' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    // A teammate for routing to hand tickets to.
    const teammate = await makeUser(harness, acme.organizationId, { name: 'Tess Teammate' });
    await call('POST', `/v1/teams/${desk.teamId}/members`, { userId: teammate.userId });
    await call('POST', '/v1/mailboxes', { address: support, teamId: desk.teamId, displayName: 'Acme Support', delivery: 'smtp' });
    receiver = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1' });
    model = await startModelServer();

    const helpCenterId = (await call('POST', '/help-centers', { name: 'Acme Help' })).data._id;
    const collectionId = (await call('POST', '/collections', { helpCenterId, name: 'Billing' })).data._id;
    const published = (
      await call('POST', '/articles', { collectionId, title: 'Refund policy', contentMarkdown: 'Refunds within thirty days.' })
    ).data;
    await call('POST', `/articles/${published._id}/publish`);
    await call('POST', '/articles', { collectionId, title: 'Secret refund plan', contentMarkdown: 'Refund everyone twice.' });

    const provider = await call('POST', '/api/v1/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-ticket-agents',
      default_model: 'test-model',
    });
    const agent = await call('POST', '/api/v1/agents', {
      name: 'Desk helper',
      configuration: { model_provider_id: provider.id, system_instructions: 'Be kind and brief.' },
    });
    agentId = agent.id;
    // A tool that writes to tickets: a ticket run is never offered it, its job writes instead.
    await call('POST', `/api/v1/agents/${agentId}/tools`, {
      agent_id: agentId,
      tool_name: 'reply_to_customer',
      tool_type: 'built_in',
    });
    worker = workerOf();
  });
  afterAll(async () => {
    await receiver?.close();
    await model?.close();
    await harness?.close();
    data?.cleanup();
  });
  beforeEach(() => model.reset());

  const setMode = (mode: 'off' | 'draft' | 'auto') =>
    call('PATCH', `/v1/teams/${desk.teamId}/configurations`, { aiAgentId: agentId, aiAgentMode: mode });

  /** A customer writes in: a new ticket, or (with `ticket`) a reply to its signed reply address. */
  async function customerWrites(text: string, ticket?: Json) {
    const to = ticket
      ? replyAddressFor(support, { id: ticket.id, identifier: ticket.ticketIdentifier }, decodeSecretKey(INBOUND_SECRET_KEY))
      : support;
    const raw = await composeMail({
      from: 'Kim Lee <kim@customer.test>',
      to,
      subject: ticket ? `Re: ${ticket.title}` : `Question ${++sequence}`,
      text,
      messageId: `<kim-${++sequence}-${dialect}@customer.test>`,
    });
    const answer = await sendRaw(receiver.port, { from: 'kim@customer.test', to: [to] }, raw);
    expect(answer.data?.code).toBe(250);
    const tickets = (await call('GET', '/v1/tickets?limit=1')).data as Json[];
    return tickets[0] as Json;
  }
  const commentsOf = async (ticketId: string) => (await call('GET', `/v1/tickets/${ticketId}/comments`)).data as Json[];
  const jobsOf = (ticketId: string) =>
    harness.db.selectFrom('ticket_agent_jobs').selectAll().where('ticket_id', '=', ticketId).orderBy('id').execute();

  /** The model searches the knowledge base, then answers with what it found (or with `text`). */
  const searchThenAnswer = (query: string, answer: (found: string) => string) =>
    model.script({ toolCalls: [{ name: 'search_knowledge_base', arguments: { query } }] }, (request) => ({
      text: answer(lastToolResult(request)),
    }));

  it('draft: a new ticket gets a suggested reply as the agent’s internal note, and the customer is not written to', async () => {
    await setMode('draft');
    const ticket = await customerWrites('Can I get a refund for my order?');
    searchThenAnswer('refund', (found) => {
      expect(found).toContain('Refund policy');
      expect(found).not.toContain('Secret refund plan');
      return 'Yes: refunds are accepted within thirty days (see Refund policy).';
    });
    expect(await worker.runOnce()).toBeGreaterThan(0);

    const request = model.requests[0];
    const offered = (request?.body.tools ?? []).map((tool) => tool.function.name);
    expect(offered).toContain('search_knowledge_base');
    expect(offered).not.toContain('reply_to_customer');
    expect(JSON.stringify(request?.body.messages)).toContain('Can I get a refund for my order?');

    const comments = await commentsOf(ticket.id);
    const notes = comments.filter((comment) => comment.authorUserType === 'AI_AGENT');
    expect(notes).toEqual([
      expect.objectContaining({
        commentVisibility: 'private',
        content: expect.stringContaining(
          'Suggested reply (not sent to the customer):\n\nYes: refunds are accepted within thirty days',
        ),
      }),
    ]);
    expect(comments.filter((comment) => comment.commentVisibility === 'public' && comment.authorUserType === 'AI_AGENT')).toEqual(
      [],
    );
    const [job] = await jobsOf(ticket.id);
    expect(job).toMatchObject({ status: 'done', event_type: 'ticket.created', mode: 'draft', error: null });
    expect(JSON.parse(job?.outcome ?? '{}')).toMatchObject({ action: 'drafted' });
    const run = await call('GET', `/api/v1/agents/${agentId}/runs/${job?.run_id}`);
    expect(run).toMatchObject({ trigger: 'ticket', ticket_id: ticket.id, status: 'succeeded' });

    // Its own note is no event it answers: no second job, no second run.
    await worker.runOnce();
    expect(await jobsOf(ticket.id)).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
  });

  it('auto: a customer reply answered by a published article gets a public reply by the agent, emailed', async () => {
    await setMode('off');
    const ticket = await customerWrites('Hello, a question about my invoice.');
    await worker.runOnce();
    expect(await jobsOf(ticket.id)).toEqual([]);

    await setMode('auto');
    await customerWrites('How long do I have to ask for a refund?', ticket);
    searchThenAnswer('refund', () => 'You have thirty days to ask for a refund (Refund policy).');
    await worker.runOnce();

    const replies = (await commentsOf(ticket.id)).filter((comment) => comment.authorUserType === 'AI_AGENT');
    expect(replies).toEqual([
      expect.objectContaining({
        commentVisibility: 'public',
        content: 'You have thirty days to ask for a refund (Refund policy).',
      }),
    ]);
    const [job] = await jobsOf(ticket.id);
    expect(job).toMatchObject({ status: 'done', event_type: 'comment.created', mode: 'auto' });
    expect(JSON.parse(job?.outcome ?? '{}')).toMatchObject({ action: 'replied' });
    const outbox = await harness.db
      .selectFrom('email_outbox')
      .select(['to_address'])
      .where('dedupe_key', '=', `comment:${(replies[0] as Json).id}`)
      .execute();
    expect(outbox.map((row) => row.to_address)).toEqual(['kim@customer.test']);
  });

  it('auto: no answer in the knowledge base, or an answer resting on none, hands the ticket to a human', async () => {
    await setMode('auto');
    const unanswerable = await customerWrites('My quantum flux capacitor hums.');
    searchThenAnswer('quantum flux', (found) => {
      expect(found).toContain('"results":[]');
      return 'HANDOFF';
    });
    await worker.runOnce();
    let ticket = (await call('GET', `/v1/tickets/${unanswerable.id}`)).data;
    expect(ticket.assignee).not.toBeNull();
    let comments = await commentsOf(unanswerable.id);
    expect(comments.filter((comment) => comment.commentVisibility === 'public' && comment.authorUserType === 'AI_AGENT')).toEqual(
      [],
    );
    expect(
      comments.some((comment) => /Handed off to a human/.test(comment.content) && comment.commentVisibility === 'private'),
    ).toBe(true);
    expect(JSON.parse((await jobsOf(unanswerable.id))[0]?.outcome ?? '{}')).toMatchObject({
      action: 'handed_off',
      reason: 'The knowledge base does not answer this question.',
    });

    // An answer made up without searching is not sent either.
    const madeUp = await customerWrites('Do you ship to Mars?');
    model.script({ text: 'Sure, we ship to Mars every Tuesday.' });
    await worker.runOnce();
    comments = await commentsOf(madeUp.id);
    expect(
      comments.some((comment) => comment.content.includes('Mars every Tuesday') && comment.commentVisibility === 'public'),
    ).toBe(false);
    ticket = (await call('GET', `/v1/tickets/${madeUp.id}`)).data;
    expect(ticket.assignee).not.toBeNull();
    expect(JSON.parse((await jobsOf(madeUp.id))[0]?.outcome ?? '{}')).toMatchObject({ action: 'handed_off' });
  });

  it('a provider that fails: auto hands off saying why; draft records the failed job and writes nothing', async () => {
    await setMode('auto');
    const down = await customerWrites('Anyone there?');
    model.script({ kind: 'error', status: 401, message: 'bad key' });
    await worker.runOnce();
    const [autoJob] = await jobsOf(down.id);
    expect(JSON.parse(autoJob?.outcome ?? '{}')).toMatchObject({
      action: 'handed_off',
      reason: expect.stringMatching(/could not answer/),
    });

    await setMode('draft');
    const quiet = await customerWrites('Still there?');
    model.script({ kind: 'error', status: 401, message: 'bad key' });
    await worker.runOnce();
    const [draftJob] = await jobsOf(quiet.id);
    expect(draftJob).toMatchObject({ status: 'failed', error: expect.stringMatching(/could not draft a reply/) });
    expect((await commentsOf(quiet.id)).filter((comment) => comment.authorUserType === 'AI_AGENT')).toEqual([]);
  });

  it.runIf(dialect === 'postgres')('two processes answer one new ticket exactly once', async () => {
    await setMode('draft');
    const processes = await serverProcesses(harness);
    const secondPool = connectPostgres(harness.url ?? '', 5);
    try {
      const second = workerOf(processes.apps[1], secondPool.db);
      const ticket = await customerWrites('Refund question, asked once.');
      searchThenAnswer('refund', () => 'Thirty days (Refund policy).');
      await Promise.all([worker.runOnce(), second.runOnce(), worker.runOnce(), second.runOnce()]);
      expect(await jobsOf(ticket.id)).toHaveLength(1);
      expect(model.requests).toHaveLength(2);
      const notes = (await commentsOf(ticket.id)).filter((comment) => comment.authorUserType === 'AI_AGENT');
      expect(notes).toHaveLength(1);
    } finally {
      await secondPool.close();
      await processes.close();
    }
  });
});

describe('which events a team’s agent answers', () => {
  const event = (overrides: object) => ({
    type: 'ticket.created' as const,
    actor_type: 'customer_contact' as const,
    is_internal: false,
    ticket_id: 'T',
    team_id: 'D',
    data: '{"source":"email"}',
    ...overrides,
  });
  it('answers new tickets and customers’ public replies, never agents’ own tickets, notes or comments', () => {
    expect(isAnswerable(event({}))).toBe(true);
    expect(isAnswerable(event({ actor_type: 'user', data: '{"source":"api"}' }))).toBe(true);
    expect(isAnswerable(event({ actor_type: 'user', data: '{"source":"ai_agent"}' }))).toBe(false);
    expect(isAnswerable(event({ type: 'comment.created' }))).toBe(true);
    expect(isAnswerable(event({ type: 'comment.created', is_internal: true }))).toBe(false);
    expect(isAnswerable(event({ type: 'comment.created', actor_type: 'user' }))).toBe(false);
    expect(isAnswerable(event({ team_id: null }))).toBe(false);
  });
});
