import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization } from '../../../test/factories.js';
import { composeMail, makeVerifiedMailbox } from '../../../test/inbound.js';
import { organizationRows } from '../../../test/permission-walk.js';
import { sendRaw } from '../../../test/smtp-client.js';
import { type Json, openTicketAgentDesk, type TicketAgentDesk } from '../../../test/ticket-agent-desk.js';
import type { TicketAgentWorker } from '../ticket-agents/ticket-agent.worker.js';
import { customerQuestionOf, inputOf } from '../ticket-agents/ticket-question.js';
import { groupByWording, significantTerms } from './knowledge-gap.grouping.js';

const MINUTE = 60_000;

describe.each(DIALECTS)('knowledge gaps on %s', (dialect) => {
  let desk: TicketAgentDesk;
  let worker: TicketAgentWorker;
  let globex: TestOrganization;
  let globexAgentId: string;
  let member: { headers: Record<string, string> };
  const tickets: Record<string, Json> = {};

  const get = (url: string, headers: Record<string, string> = desk.acme.headers) =>
    desk.harness.app.inject({ method: 'GET', url, headers });
  const gapsUrl = (query = '') => `/api/v1/agents/${desk.agentId}/knowledge-gaps${query}`;

  /** A customer writes a new ticket; the agent answers it as the model is scripted to. */
  async function asked(key: string, text: string, answer: () => void) {
    desk.harness.clock.advance(MINUTE);
    tickets[key] = await desk.customerWrites(text);
    answer();
    await worker.runOnce();
  }
  const noAnswer = () => desk.searchThenAnswer('search', () => 'HANDOFF');
  const ungrounded = () => desk.model.script({ text: 'Just do it, it works.' });

  /** Globex, on the same server: its own team, mailbox, model provider and agent answering on its tickets. */
  async function openGlobex() {
    const { harness, model } = desk;
    globex = await makeOrganization(harness, { name: 'Globex' });
    const team = await makeTeam(harness, globex, { name: 'Help', identifier: 'GLO' });
    const address = `gaps-${dialect}@globex.test`;
    await makeVerifiedMailbox(harness, globex, { address, teamId: team.teamId });
    const call = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
      const response = await harness.app.inject({ method, url, headers: globex.headers, payload });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json() as Json;
    };
    const provider = await call('POST', '/api/v1/model-providers', {
      name: 'Loopback',
      kind: 'openai_compatible',
      base_url: model.baseUrl,
      api_key: 'sk-globex',
      default_model: 'test-model',
    });
    globexAgentId = (
      await call('POST', '/api/v1/agents', { name: 'Globex helper', configuration: { model_provider_id: provider.id } })
    ).id;
    await call('PATCH', `/v1/teams/${team.teamId}/configurations`, { aiAgentId: globexAgentId, aiAgentMode: 'auto' });
    const raw = await composeMail({
      from: 'Gil <gil@customer.test>',
      to: address,
      subject: 'Password',
      text: 'How do I reset my password?',
      messageId: `<gaps-globex-${dialect}@customer.test>`,
    });
    expect((await sendRaw(desk.receiver.port, { from: 'gil@customer.test', to: [address] }, raw)).data?.code).toBe(250);
    noAnswer();
    await worker.runOnce();
  }

  beforeAll(async () => {
    desk = await openTicketAgentDesk(dialect, 'gaps');
    worker = desk.workerOf();
    member = await makeUser(desk.harness, desk.acme.organizationId, { name: 'Mo Member', userType: 'ORG_MEMBER' });
    await desk.setMode('auto');
    await asked('oldReset', 'How can I reset my password please?', noAnswer);
    // What no stored run of the last 30 days holds: the one above is 40 days old by the end.
    desk.harness.clock.advance(40 * 24 * 60 * MINUTE);
    await asked('reset', 'How do I reset my password?', noAnswer);
    await asked('mars', 'Do you ship to Mars?', noAnswer);
    await asked('forgot', 'I forgot my password, how can I reset it?', ungrounded);
    // Answered from the published article: replied, no gap.
    await asked('refund', 'How long do I have to ask for a refund?', () =>
      desk.searchThenAnswer('refund', () => 'You have thirty days to ask for a refund (Refund policy).'),
    );
    // The provider fails: handed off, but for no want of an article.
    await asked('down', 'My password reset fails, why?', () =>
      desk.model.script({ kind: 'error', status: 401, message: 'bad key' }),
    );
    // A customer's reply on a ticket is a question too.
    desk.harness.clock.advance(MINUTE);
    await desk.customerWrites('And do you also ship to Mars?', { ticket: tickets.refund });
    noAnswer();
    await worker.runOnce();
    // In draft the agent writes a note and hands nothing off: no gap.
    await desk.setMode('draft');
    await asked('drafted', 'Do you ship to Mars?', noAnswer);
    await desk.setMode('auto');
    await asked('resetAgain', 'How do I reset my password?', noAnswer);
    await openGlobex();
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
  });

  it('groups the handed-off questions of the range by wording, most asked first, with the newest ticket', async () => {
    const outcomes = await Promise.all(
      ['reset', 'refund', 'down', 'forgot', 'drafted'].map(async (key) =>
        (await desk.jobsOf(tickets[key]?.id)).map((job) => JSON.parse(job.outcome ?? '{}').action),
      ),
    );
    expect(outcomes).toEqual([['handed_off'], ['replied', 'handed_off'], ['handed_off'], ['handed_off'], ['no_answer']]);

    const response = await get(gapsUrl());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-next-cursor']).toBeUndefined();
    const newest = tickets.resetAgain as Json;
    expect(response.json()).toEqual([
      {
        question: 'How do I reset my password?',
        count: 3,
        terms: ['reset', 'password'],
        newest: {
          run_id: expect.any(String),
          handed_off_at: expect.any(String),
          ticket: { id: newest.id, identifier: newest.ticketIdentifier, title: newest.title },
        },
      },
      {
        question: 'And do you also ship to Mars?',
        count: 2,
        terms: ['ship', 'mars'],
        newest: {
          run_id: expect.any(String),
          handed_off_at: expect.any(String),
          ticket: { id: tickets.refund?.id, identifier: tickets.refund?.ticketIdentifier, title: tickets.refund?.title },
        },
      },
    ]);
    const [passwords] = response.json() as Json[];
    const run = await desk.call('GET', `/api/v1/agents/${desk.agentId}/runs/${passwords?.newest.run_id}`);
    expect(run).toMatchObject({ ticket_id: newest.id, trigger: 'ticket', handoff_reason: expect.any(String) });
    expect(passwords?.newest.handed_off_at).toBe(new Date(run.created_at).toISOString());
  });

  it('reads only the range asked for: `days` reaches the older hand-off', async () => {
    const response = await get(gapsUrl('?days=60'));
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as Json[]).map((gap) => [gap.question, gap.count])).toEqual([
      ['How do I reset my password?', 4],
      ['And do you also ship to Mars?', 2],
    ]);
  });

  it('pages by cursor, and writes nothing', async () => {
    const before = await organizationRows(desk.harness, desk.acme.organizationId);
    const first = await get(gapsUrl('?limit=1'));
    expect(first.statusCode, first.body).toBe(200);
    expect((first.json() as Json[]).map((gap) => gap.count)).toEqual([3]);
    const cursor = first.headers['x-next-cursor'];
    expect(cursor).toEqual(expect.any(String));
    const second = await get(gapsUrl(`?limit=1&cursor=${cursor}`));
    expect((second.json() as Json[]).map((gap) => gap.question)).toEqual(['And do you also ship to Mars?']);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    expect(await organizationRows(desk.harness, desk.acme.organizationId)).toEqual(before);
  });

  it('is the organization’s own: another organization’s agent is not found, and its questions are its own', async () => {
    const foreign = await get(gapsUrl(), globex.headers);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ detail: 'Agent not found' });
    const own = await get(`/api/v1/agents/${globexAgentId}/knowledge-gaps`, globex.headers);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual([
      expect.objectContaining({ question: 'How do I reset my password?', count: 1, newest: expect.objectContaining({}) }),
    ]);
    expect((own.json() as Json[])[0]?.newest.ticket.identifier).toMatch(/^GLO-/);
    const missing = await get('/api/v1/agents/00000000-0000-4000-8000-000000000000/knowledge-gaps');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Agent not found' });
  });

  it('is for admins: a member is refused', async () => {
    const response = await get(gapsUrl(), member.headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: 'Access denied' });
  });

  it.each([
    ['?days=0', ['query', 'days'], 'greater_than_equal'],
    ['?days=366', ['query', 'days'], 'less_than_equal'],
    ['?days=week', ['query', 'days'], 'int_type'],
    ['?limit=0', ['query', 'limit'], 'greater_than_equal'],
    ['?limit=101', ['query', 'limit'], 'less_than_equal'],
    ['?cursor=not-a-cursor', ['query', 'cursor'], expect.any(String)],
  ])('refuses %s in the agent studio’s shape', async (query, loc, type) => {
    const response = await get(gapsUrl(query));
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({ detail: [{ loc, msg: expect.any(String), type }] });
  });

  it('keeps the id alone of a newest ticket deleted since', async () => {
    const deleted = tickets.resetAgain as Json;
    await desk.call('DELETE', `/v1/tickets/${deleted.id}`);
    const response = await get(gapsUrl());
    expect((response.json() as Json[])[0]).toMatchObject({
      count: 3,
      newest: { ticket: { id: deleted.id, identifier: null, title: null } },
    });
  });

  it('refuses an agent id that is no UUID', async () => {
    const response = await get('/api/v1/agents/nope/knowledge-gaps');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: [{ loc: ['path', 'agent_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }],
    });
  });
});

describe('the wording of knowledge gaps', () => {
  it('reads back the customer’s words from a ticket run’s input', () => {
    const ticket = { ticketIdentifier: 'DESK-4', title: 'Login "help"' };
    expect(customerQuestionOf(inputOf('ticket.created', { description: 'Where is "reset"?\n\nThanks' }, ticket))).toBe(
      'Where is "reset"?\n\nThanks',
    );
    expect(customerQuestionOf(inputOf('ticket.created', { description: '' }, ticket))).toBe('Login "help"');
    expect(customerQuestionOf(inputOf('comment.created', { content: 'Still broken.' }, ticket))).toBe('Still broken.');
  });

  it('keeps the significant terms, folded, and groups alike wordings apart from others', () => {
    expect(significantTerms('Hi! Où sont mes REFUNDS? Policies, please… the address')).toEqual([
      'ou',
      'sont',
      'mes',
      'refund',
      'policy',
      'address',
    ]);
    const groups = groupByWording(
      ['Password reset link expired', 'How do I reset my password?', 'Shipping to Mars', 'hello?', 'Hello', 'thanks'],
      (question) => question,
    );
    expect(groups.map((group) => group.members)).toEqual([
      ['Password reset link expired', 'How do I reset my password?'],
      ['Shipping to Mars'],
      ['hello?', 'Hello'],
      ['thanks'],
    ]);
  });
});
