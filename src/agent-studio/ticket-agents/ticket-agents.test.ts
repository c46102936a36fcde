import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { serverProcesses } from '../../../test/harness.js';
import { type Json, openTicketAgentDesk, type TicketAgentDesk } from '../../../test/ticket-agent-desk.js';
import { connectPostgres } from '../../db/connect.js';
import { isAnswerable } from './ticket-agent.dispatcher.js';
import type { TicketAgentWorker } from './ticket-agent.worker.js';

describe.each(DIALECTS)('agents on tickets on %s', (dialect) => {
  let desk: TicketAgentDesk;
  let worker: TicketAgentWorker;
  // The desk's parts under the names the tests read best with.
  let harness: TicketAgentDesk['harness'];
  let model: TicketAgentDesk['model'];
  let agentId: string;
  let call: TicketAgentDesk['call'];
  let setMode: TicketAgentDesk['setMode'];
  let commentsOf: TicketAgentDesk['commentsOf'];
  let jobsOf: TicketAgentDesk['jobsOf'];
  let searchThenAnswer: TicketAgentDesk['searchThenAnswer'];
  const customerWrites = (text: string, ticket?: Json) => desk.customerWrites(text, { ticket });

  beforeAll(async () => {
    desk = await openTicketAgentDesk(dialect, 'support');
    ({ harness, model, agentId, call, setMode, commentsOf, jobsOf, searchThenAnswer } = desk);
    // A tool that writes to tickets: a ticket run is never offered it, its job writes instead.
    await call('POST', `/api/v1/agents/${agentId}/tools`, {
      agent_id: agentId,
      tool_name: 'reply_to_customer',
      tool_type: 'built_in',
    });
    worker = desk.workerOf();
  });
  afterAll(async () => {
    await desk?.close();
  });
  beforeEach(() => model.reset());

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
      const second = desk.workerOf({ app: processes.apps[1], db: secondPool.db });
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
