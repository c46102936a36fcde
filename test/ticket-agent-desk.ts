import { pino } from 'pino';
import { expect } from 'vitest';
import { respondToTicket } from '../src/agent-studio/ticket-agents/ticket-agent.service.js';
import { createTicketAgentWorker, type TicketAgentWorker } from '../src/agent-studio/ticket-agents/ticket-agent.worker.js';
import { depsOfApp } from '../src/app.js';
import { type SmtpReceiver, startSmtpReceiver } from '../src/channels/email/smtp-receiver.js';
import type { Dialect } from '../src/db/dialect.js';
import { replyAddressFor } from '../src/delivery/outbound/reply-address.js';
import { decodeSecretKey } from '../src/lib/secret-box.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from './factories.js';
import { buildTestApp, type TestApp } from './harness.js';
import { composeMail, INBOUND_SECRET_KEY, inboundDepsOf, inboundEnv, makeVerifiedMailbox } from './inbound.js';
import { type ModelRequest, startModelServer, type TestModelServer } from './model-server.js';
import { sendRaw } from './smtp-client.js';

// biome-ignore lint/suspicious/noExplicitAny: answers of the API, read field by field in assertions
export type Json = Record<string, any>;

/**
 * A support desk whose team has an AI agent, for the tests of agents on tickets: the app with its
 * built-in SMTP receiver and a verified support mailbox, a loopback language model, a help center
 * with one published article ("Refund policy") and one draft, and the agent on that model.
 */
export interface TicketAgentDesk {
  harness: TestApp;
  acme: TestOrganization;
  desk: TestTeam;
  model: TestModelServer;
  receiver: SmtpReceiver;
  agentId: string;
  support: string;
  /** The API as the organization's admin; fails the test on any status from 300 up. */
  call(method: string, url: string, payload?: object): Promise<Json>;
  workerOf(options?: { app?: TestApp['app']; db?: TestApp['db']; leaseRenewMs?: number }): TicketAgentWorker;
  setMode(mode: 'off' | 'draft' | 'auto'): Promise<Json>;
  /** A customer writes in: a new ticket, or (with `ticket`) a reply to its signed reply address. Answers the ticket. */
  customerWrites(text: string, options?: { ticket?: Json; from?: { name: string; address: string } }): Promise<Json>;
  commentsOf(ticketId: string): Promise<Json[]>;
  jobsOf(ticketId: string): Promise<Json[]>;
  /** The model searches the knowledge base, then answers with what it found (or with `text`). */
  searchThenAnswer(query: string, answer: (found: string) => string): void;
  close(): Promise<void>;
}

/** The content of the last tool message the model was sent: what the tool really returned. */
export function lastToolResult(request: ModelRequest): string {
  const tool = [...request.body.messages].reverse().find((message) => message.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content);
}

/** Every tool result the model was sent in `request`, joined: what the run let it read. */
export function toolResults(request: ModelRequest): string {
  return request.body.messages
    .filter((message) => message.role === 'tool')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
}

export async function openTicketAgentDesk(dialect: Dialect, name: string): Promise<TicketAgentDesk> {
  const data = inboundEnv({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  const harness = await buildTestApp(dialect, { env: data.env });
  const acme = await makeOrganization(harness, { name: 'Acme' });
  const desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
  const support = `${name}-${dialect}@acme.test`;
  let sequence = 0;
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
  // A teammate for routing to hand tickets to.
  const teammate = await makeUser(harness, acme.organizationId, { name: 'Tess Teammate' });
  await call('POST', `/v1/teams/${desk.teamId}/members`, { userId: teammate.userId });
  await makeVerifiedMailbox(harness, acme, { address: support, teamId: desk.teamId, displayName: 'Acme Support' });
  const receiver = await startSmtpReceiver(inboundDepsOf(harness), { port: 0, host: '127.0.0.1' });
  const model = await startModelServer();

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

  return {
    harness,
    acme,
    desk,
    model,
    receiver,
    agentId: agent.id,
    support,
    call,
    workerOf: (options = {}) =>
      createTicketAgentWorker({
        db: options.db ?? harness.db,
        clock: harness.clock,
        ids: harness.ids,
        pollMs: 1000,
        respond: (job, signal) => respondToTicket(depsOfApp(options.app ?? harness.app), job, signal),
        log: pino({ level: 'silent' }),
        ...(options.leaseRenewMs ? { leaseRenewMs: options.leaseRenewMs } : {}),
      }),
    setMode: (mode) => call('PATCH', `/v1/teams/${desk.teamId}/configurations`, { aiAgentId: agent.id, aiAgentMode: mode }),
    async customerWrites(text, options = {}) {
      const from = options.from ?? { name: 'Kim Lee', address: 'kim@customer.test' };
      const ticket = options.ticket;
      const to = ticket
        ? replyAddressFor(support, { id: ticket.id, identifier: ticket.ticketIdentifier }, decodeSecretKey(INBOUND_SECRET_KEY))
        : support;
      const raw = await composeMail({
        from: `${from.name} <${from.address}>`,
        to,
        subject: ticket ? `Re: ${ticket.title}` : `Question ${++sequence}`,
        text,
        messageId: `<${name}-${++sequence}-${dialect}@customer.test>`,
      });
      const answer = await sendRaw(receiver.port, { from: from.address, to: [to] }, raw);
      expect(answer.data?.code, JSON.stringify(answer)).toBe(250);
      if (ticket) {
        return ticket;
      }
      return ((await call('GET', '/v1/tickets?limit=1')).data as Json[])[0] as Json;
    },
    commentsOf: async (ticketId) => (await call('GET', `/v1/tickets/${ticketId}/comments`)).data as Json[],
    jobsOf: (ticketId) =>
      harness.db.selectFrom('ticket_agent_jobs').selectAll().where('ticket_id', '=', ticketId).orderBy('id').execute(),
    searchThenAnswer: (query, answer) =>
      model.script({ toolCalls: [{ name: 'search_knowledge_base', arguments: { query } }] }, (request) => ({
        text: answer(lastToolResult(request)),
      })),
    async close() {
      await receiver.close();
      await model.close();
      await harness.close();
      data.cleanup();
    },
  };
}
