import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { startPublicMcpServer, type TestMcpServer } from '../../../test/mcp/mcp-servers.js';
import { rateTicketBySurveyEmail } from '../../../test/satisfaction.js';
import { breachTicketBySlaWorker } from '../../../test/sla.js';
import { startWebhookReceiver, type WebhookReceiver, webhookWorkerOf } from '../../../test/webhook-receiver.js';
import { encodeCursor } from '../../lib/cursors.js';
import { EVENT_TYPES } from '../../shared/event-types.js';
import { sweepGoneChatVisitors, VISITOR_GONE_AFTER_MS } from '../tickets/chat-ticket-visitor.service.js';
import type { WebhookWorker } from './webhook.worker.js';

const SECRET_KEY = '5a'.repeat(32);
const ENV = { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', SECRET_KEY };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let receiver: WebhookReceiver;
  let worker: WebhookWorker;
  let mcp: TestMcpServer;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: ENV });
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia' });
    receiver = await startWebhookReceiver(harness.clock);
    mcp = await startPublicMcpServer();
    worker = webhookWorkerOf(harness);
  });
  afterEach(async () => {
    harness.clock.set(TEST_NOW);
    receiver.reset();
    // Each test's endpoints go with it, so none is retried when a later test moves the clock.
    await harness.db.deleteFrom('webhooks').execute();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await mcp?.close();
    await harness?.close();
  });

  const call = (method: Method, url: string, payload?: object, headers: object = acme.headers) =>
    harness.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });
  /** The body the route answered: the platform's `data`, or the bare object of accounts and the agent studio. */
  async function ok(method: Method, url: string, payload?: object, headers: object = acme.headers) {
    const response = await call(method, url, payload, headers);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    const body = response.json();
    return !url.startsWith('/api/v1') && body && typeof body === 'object' && 'data' in body ? body.data : body;
  }
  const hook = (name: string) => `${receiver.base}/hooks/${name}`;
  async function createHook(name: string, body: object = {}, headers: object = acme.headers) {
    const made = await call('POST', '/v1/webhooks', { url: hook(name), eventTypes: ['contact.created'], ...body }, headers);
    expect(made.statusCode, made.body).toBe(201);
    const webhook = made.json().data;
    receiver.trust(`/hooks/${name}`, { current: webhook.secret });
    return webhook;
  }
  /** Runs worker passes until one finds nothing to do. */
  async function drain(): Promise<void> {
    for (let pass = 0; pass < 50; pass++) {
      if ((await worker.runOnce()) === 0) {
        return;
      }
    }
    throw new Error('the worker never ran out of work');
  }
  let contacts = 0;
  const newContact = (headers: object = acme.headers) =>
    ok('POST', '/v1/accounts/contacts', { firstName: 'Pat', email: `pat${++contacts}@customer.test` }, headers);
  const webhookCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('webhooks')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  async function eventsSince(since: string | null) {
    const events: Record<string, unknown>[] = [];
    let cursor: string | null = since ? encodeCursor([Number(since)]) : null;
    do {
      const page = await call('GET', `/v1/events?order=asc&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.statusCode, page.body).toBe(200);
      events.push(...page.json().data);
      cursor = page.json().nextCursor;
    } while (cursor);
    return events;
  }
  const lastEventId = async (): Promise<string | null> => (await call('GET', '/v1/events?limit=1')).json().data[0]?.id ?? null;

  it('creates a webhook showing its secret once, lists, reads, changes and deletes it', async () => {
    const made = await call('POST', '/v1/webhooks', {
      url: hook('crud'),
      eventTypes: ['ticket.created', 'comment.created', 'ticket.created'],
      description: 'CRM sync',
    });
    expect(made.statusCode, made.body).toBe(201);
    const webhook = made.json().data;
    expect(webhook).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      url: hook('crud'),
      eventTypes: ['ticket.created', 'comment.created'],
      description: 'CRM sync',
      enabled: true,
      ownerId: acme.userId,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      previousSecretExpiresAt: null,
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    expect(Buffer.from(webhook.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const { secret, ...shown } = webhook;
    // Sealed at rest: the stored value is not the secret.
    const stored = await harness.db
      .selectFrom('webhooks')
      .select('secret_encrypted')
      .where('id', '=', webhook.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_encrypted).not.toContain(secret.slice('whsec_'.length, 20));

    // Never shown again.
    expect(await ok('GET', `/v1/webhooks/${webhook.id}`)).toEqual(shown);
    const second = await createHook('crud-2', { description: null });
    const first = await call('GET', '/v1/webhooks?limit=1');
    expect(first.json().data).toEqual([shown]);
    const next = await call('GET', `/v1/webhooks?limit=1&cursor=${first.json().nextCursor}`);
    expect(next.json().data.map((item: { id: string }) => item.id)).toEqual([second.id]);
    expect(next.json().nextCursor).toBeNull();
    expect(JSON.stringify((await call('GET', '/v1/webhooks')).json())).not.toContain('whsec_');

    harness.clock.set('2026-01-15T10:00:00.000Z');
    const changed = await ok('PATCH', `/v1/webhooks/${webhook.id}`, {
      url: hook('crud-moved'),
      eventTypes: ['contact.created'],
      description: null,
    });
    expect(changed).toEqual({
      ...shown,
      url: hook('crud-moved'),
      eventTypes: ['contact.created'],
      description: null,
      updatedAt: '2026-01-15T10:00:00.000Z',
    });
    const off = await ok('PATCH', `/v1/webhooks/${webhook.id}`, { enabled: false });
    expect(off).toMatchObject({ enabled: false, disabledReason: 'manual', disabledAt: '2026-01-15T10:00:00.000Z' });
    // Turning off what is off changes nothing.
    harness.clock.set('2026-01-15T11:00:00.000Z');
    expect(await ok('PATCH', `/v1/webhooks/${webhook.id}`, { enabled: false })).toEqual(off);
    expect(await ok('PATCH', `/v1/webhooks/${webhook.id}`, {})).toEqual(off);
    expect(await ok('PATCH', `/v1/webhooks/${webhook.id}`, { enabled: true })).toMatchObject({
      enabled: true,
      disabledReason: null,
      disabledAt: null,
    });

    const deleted = await ok('DELETE', `/v1/webhooks/${webhook.id}`);
    expect(deleted.id).toBe(webhook.id);
    expect((await call('GET', `/v1/webhooks/${webhook.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/${webhook.id}`)).statusCode).toBe(404);
  });

  it('answers bad input with a 400 naming it, writing nothing', async () => {
    const valid = { url: hook('valid'), eventTypes: ['ticket.created'] };
    const cases: [object, string][] = [
      [{ ...valid, url: 'ftp://hooks.example.com/in' }, 'url must be an http or https URL'],
      [{ ...valid, url: 'not a url' }, 'url must be an absolute http or https URL'],
      [{ ...valid, url: 'http://hooks.example.com/in' }, 'url must use https'],
      [{ ...valid, url: 'https://user:pw@hooks.example.com/in' }, 'url must not contain a user name'],
      [{ ...valid, url: 'https://10.0.0.7/in' }, 'url points to a private or reserved address'],
      [{ ...valid, url: 'https://169.254.169.254/latest' }, 'url points to a private or reserved address'],
      [{ ...valid, url: 'https://[::1]:8443/in' }, 'url points to a private or reserved address'],
      [{ ...valid, url: 'http://127.0.0.2/in' }, 'url must use https'],
      [{ ...valid, url: 'https://127.0.0.2/in' }, 'url points to a private or reserved address'],
      [{ ...valid, url: 'https://localhost:8443/in' }, 'url resolves to a private or reserved address'],
      [{ ...valid, eventTypes: ['ticket.exploded'] }, 'ticket.exploded'],
      [{ ...valid, eventTypes: ['ticket.created', 'webhook.test'] }, 'webhook.test'],
      [{ ...valid, eventTypes: [] }, 'eventTypes'],
      [{ ...valid, eventTypes: 'ticket.created' }, 'eventTypes'],
      [{ eventTypes: ['ticket.created'] }, 'url'],
      [{ url: hook('valid') }, 'eventTypes'],
      [{ ...valid, description: 'x'.repeat(501) }, 'description'],
      [{ ...valid, enabled: 'yes' }, 'enabled'],
      [{ ...valid, colour: 'blue' }, 'colour'],
    ];
    for (const [body, named] of cases) {
      const response = await call('POST', '/v1/webhooks', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(response.json().message, JSON.stringify(body)).toContain(named);
    }
    expect(await webhookCount()).toBe(0);

    const webhook = await createHook('valid');
    const { secret: _, ...before } = webhook;
    const patches: [object, string][] = [
      [{ url: 'https://192.168.1.10/in' }, 'url points to a private or reserved address'],
      [{ url: hook('moved'), eventTypes: ['nope'] }, 'nope'],
      [{ enabled: true, colour: 'blue' }, 'colour'],
      [{ url: null }, 'url'],
    ];
    for (const [body, named] of patches) {
      const response = await call('PATCH', `/v1/webhooks/${webhook.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).toContain(named);
    }
    expect(await ok('GET', `/v1/webhooks/${webhook.id}`)).toEqual(before);
    for (const url of [
      '/v1/webhooks/nope',
      '/v1/webhooks/nope/deliveries',
      `/v1/webhooks/${webhook.id}/deliveries?status=lost`,
    ]) {
      expect((await call('GET', url)).statusCode, url).toBe(400);
    }
    expect((await call('GET', `/v1/webhooks/${webhook.id}/deliveries?cursor=garbage`)).statusCode).toBe(400);
  });

  it("is for organization admins only; another organization's webhook or delivery is a 404 like a missing one", async () => {
    expect((await call('GET', '/v1/webhooks', undefined, member.headers)).statusCode).toBe(403);
    const denied = await call('POST', '/v1/webhooks', { url: hook('x'), eventTypes: ['ticket.created'] }, member.headers);
    expect(denied.statusCode).toBe(403);
    expect(await webhookCount()).toBe(0);

    const webhook = await createHook('mine');
    const other = await createHook('theirs', {}, globex.headers);
    const test = await ok('POST', `/v1/webhooks/${webhook.id}/test`);
    const theirTest = await ok('POST', `/v1/webhooks/${other.id}/test`, undefined, globex.headers);
    const missing = '01KAAAAAAAAAAAAAAAAAAAAAAA';
    const mine = await ok('GET', `/v1/webhooks/${webhook.id}`);

    const notFound = { statusCode: 404, error: 'Not Found', message: 'Webhook not found!' };
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { enabled: false }],
      ['DELETE', '', undefined],
      ['POST', '/rotate-secret', undefined],
      ['POST', '/test', undefined],
      ['GET', '/deliveries', undefined],
      ['POST', `/deliveries/${test.id}/retry`, undefined],
    ] as [Method, string, object | undefined][]) {
      for (const id of [webhook.id, missing]) {
        const response = await call(method, `/v1/webhooks/${id}${path}`, body, globex.headers);
        expect(response.statusCode, `${method} ${path}`).toBe(404);
        expect(response.json(), `${method} ${path}`).toEqual(notFound);
      }
    }
    // A delivery of another webhook (another organization's too) or none at all.
    for (const deliveryId of [theirTest.id, missing]) {
      const response = await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${deliveryId}/retry`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Webhook delivery not found!');
    }
    // Nothing of theirs changed mine.
    expect(await ok('GET', `/v1/webhooks/${webhook.id}`)).toEqual(mine);
    expect((await call('GET', `/v1/webhooks/${webhook.id}/deliveries`)).json().data).toHaveLength(1);
    expect(receiver.at('/hooks/mine')).toHaveLength(1);
  });

  it('delivers every kind of event, signed, exactly as GET /v1/events shows it, and only the types subscribed', async () => {
    await ok('POST', '/v1/tickets', { title: 'Before', requestorEmail: 'early@customer.test', teamId: desk.teamId });
    const since = await lastEventId();
    const all = await createHook('all', { eventTypes: [...EVENT_TYPES] });
    const some = await createHook('some', { eventTypes: ['ticket.created', 'note.created'] });

    // Every kind of change, once at least.
    const ticket = await ok('POST', '/v1/tickets', { title: 'Help', requestorEmail: 'pat@customer.test', teamId: desk.teamId });
    await ok('PATCH', `/v1/tickets/${ticket.id}`, { title: 'Help!', statusName: 'Closed', assignedAgentId: acme.userId });
    await rateTicketBySurveyEmail(harness, acme.headers, ticket.id, 'good');
    await breachTicketBySlaWorker(harness, acme.headers, desk.teamId);
    const comment = await ok('POST', `/v1/tickets/${ticket.id}/comment`, { content: 'Have you tried turning it off?' });
    await ok('PATCH', `/v1/tickets/${ticket.id}/comments/${comment.id}`, { content: 'Have you tried unplugging it?' });
    await ok('DELETE', `/v1/tickets/${ticket.id}`);
    const contact = await newContact();
    await ok('DELETE', `/v1/accounts/contacts/${contact.id}`);
    const account = await ok('POST', '/v1/accounts', { name: 'Initech', primaryDomain: 'initech.example' });
    await ok('POST', '/v1/accounts/notes', { accountId: account.id, content: 'Kick-off went well' });
    const helpCenterId = (await ok('POST', '/help-centers', { name: 'Help' }))._id;
    const collectionId = (await ok('POST', '/collections', { helpCenterId, name: 'General' }))._id;
    const article = await ok('POST', '/articles', { title: 'Resetting a password', collectionId });
    await ok('POST', `/articles/${article._id}/publish`);
    await ok('POST', `/articles/${article._id}/unpublish`);
    await ok('POST', `/articles/${article._id}/publish`);
    await ok('PATCH', `/articles/${article._id}`, { title: 'Resetting your password' });
    await ok('DELETE', `/articles/${article._id}`);
    await ok('PATCH', `/collections/${collectionId}`, { name: 'General help' });
    const spareId = (await ok('POST', '/collections', { helpCenterId, name: 'Spare' }))._id;
    await ok('DELETE', `/collections/${spareId}`);
    await ok('PATCH', `/help-centers/${helpCenterId}`, { name: 'Help desk' });
    const agentId = (await ok('POST', '/api/v1/agents', { name: 'Helper' })).id;
    const thread = await ok('POST', `/api/v1/chat/${agentId}/threads`, { agent_id: agentId, title: 'Refund' });
    await ok('POST', `/api/v1/chat/${agentId}/threads/${thread.id}/messages`, { content: 'Where is my refund?', role: 'user' });
    const servers = `/api/v1/mcp/agents/${agentId}/servers`;
    const server = await ok('POST', servers, { name: 'Docs', url: mcp.url });
    expect((await ok('POST', `${servers}/${server.id}/connect`)).status).toBe('connected');
    await ok('DELETE', `${servers}/${server.id}`);
    // A messenger visitor hands a conversation to a person, types, and leaves.
    const { slug } = await ok('PATCH', `/help-centers/${helpCenterId}`, {
      widget: { enabled: true, agentId, handoffTeamId: desk.teamId },
    });
    const visitor = { authorization: `Bearer ${(await ok('POST', `/widget/${slug}/api/visitors`, undefined, {})).visitorToken}` };
    const chat = (await ok('POST', `/widget/${slug}/api/conversations`, undefined, visitor)).conversation.id;
    await ok('POST', `/widget/${slug}/api/conversations/${chat}/handoff`, {}, visitor);
    expect((await call('POST', `/widget/${slug}/api/conversations/${chat}/typing`, undefined, visitor)).statusCode).toBe(204);
    harness.clock.advance(VISITOR_GONE_AFTER_MS + 1);
    await sweepGoneChatVisitors(harness);
    harness.clock.set(TEST_NOW);

    await drain();
    const events = await eventsSince(since);
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(EVENT_TYPES));
    const got = receiver.at('/hooks/all');
    // In the log's order, each body the event as the log shows it, each verified with the secret.
    expect(got.map((entry) => entry.event)).toEqual(events);
    expect(got.every((entry) => entry.verifiedBy.join() === 'current')).toBe(true);
    expect(got.every((entry) => entry.headers['content-type'] === 'application/json')).toBe(true);
    expect(receiver.at('/hooks/some').map((entry) => entry.event)).toEqual(
      events.filter((event) => event.type === 'ticket.created' || event.type === 'note.created'),
    );

    // Each delivery's id is its webhook-id; all delivered at the first attempt, with a 200.
    const deliveries = await ok('GET', `/v1/webhooks/${all.id}/deliveries?limit=100`);
    expect(deliveries).toHaveLength(events.length);
    expect(new Set(deliveries.map((delivery: { id: string }) => delivery.id))).toEqual(
      new Set(got.map((entry) => entry.headers['webhook-id'])),
    );
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ status: 'delivered', deliveredAt: TEST_NOW, nextAttemptAt: null });
      expect(delivery.attempts).toEqual([
        {
          id: expect.any(String),
          startedAt: TEST_NOW,
          statusCode: 200,
          latencyMs: expect.any(Number),
          responseBody: 'ok',
          responseTruncated: false,
          error: null,
        },
      ]);
    }
    expect(deliveries.map((delivery: { eventId: string }) => delivery.eventId).reverse()).toEqual(
      events.map((event) => event.id),
    );
    // Nothing is sent twice.
    await drain();
    expect(receiver.at('/hooks/all')).toHaveLength(events.length);
    expect(await ok('GET', `/v1/webhooks/${some.id}/deliveries?limit=100`)).toHaveLength(receiver.at('/hooks/some').length);
  });

  it('keeps private tickets and private notes to webhooks whose owner may see them, as the owner is now', async () => {
    const org = await makeOrganization(harness, { name: 'Private' });
    const owner = await makeUser(harness, org.organizationId, { name: 'Olivia', userType: 'ORG_ADMIN' });
    // Olivia's team; the vault is the admin's alone.
    const ops = await makeTeam(
      harness,
      { organizationId: org.organizationId, userId: owner.userId },
      { name: 'Ops', identifier: 'OPS' },
    );
    const vault = await makeTeam(harness, org, { name: 'Vault', identifier: 'VAULT' });
    const types = ['ticket.created', 'comment.created', 'note.created'];
    const adminHook = await createHook('admin', { eventTypes: types }, org.headers);
    const ownerHook = await createHook('owner', { eventTypes: types }, owner.headers);
    expect(ownerHook.ownerId).toBe(owner.userId);
    // Olivia is an organization admin no more: her webhook now sees what a member sees.
    await harness.db.updateTable('users').set({ user_type: 'ORG_MEMBER' }).where('id', '=', owner.userId).execute();

    const ticket = (team: TestTeam, isPrivate: boolean, title: string) =>
      ok('POST', '/v1/tickets', { title, requestorEmail: 'p@customer.test', teamId: team.teamId, isPrivate }, org.headers);
    const secretVault = await ticket(vault, true, 'vault, private');
    await ok('POST', `/v1/tickets/${secretVault.id}/comment`, { content: 'vault secret' }, org.headers);
    await ticket(vault, false, 'vault, public');
    const opsPrivate = await ticket(ops, true, 'ops, private');
    await ok('POST', `/v1/tickets/${opsPrivate.id}/comment`, { content: 'ops secret' }, org.headers);
    const account = await ok('POST', '/v1/accounts', { name: 'Hooli', primaryDomain: 'hooli.example' }, org.headers);
    const note = (content: string, visibility: string, headers: object) =>
      ok('POST', '/v1/accounts/notes', { accountId: account.id, content, visibility }, headers);
    await note("admin's private note", 'private', org.headers);
    await note("Olivia's private note", 'private', owner.headers);
    await note('shared note', 'public', org.headers);

    await drain();
    const summary = (path: string) =>
      receiver.at(path).map((entry) => {
        const data = entry.event.data as { title?: string; content?: string };
        return `${entry.event.type}: ${data.title ?? data.content}`;
      });
    expect(summary('/hooks/admin')).toEqual([
      'ticket.created: vault, private',
      'comment.created: vault secret',
      'ticket.created: vault, public',
      'ticket.created: ops, private',
      'comment.created: ops secret',
      "note.created: admin's private note",
      "note.created: Olivia's private note",
      'note.created: shared note',
    ]);
    expect(summary('/hooks/owner')).toEqual([
      'ticket.created: vault, public',
      'ticket.created: ops, private',
      'comment.created: ops secret',
      "note.created: Olivia's private note",
      'note.created: shared note',
    ]);
    // Nothing hidden waits as a delivery either.
    expect(await ok('GET', `/v1/webhooks/${ownerHook.id}/deliveries?limit=100`, undefined, org.headers)).toHaveLength(5);
    expect(await ok('GET', `/v1/webhooks/${adminHook.id}/deliveries?limit=100`, undefined, org.headers)).toHaveLength(8);
  });

  it('rotates the secret: deliveries verify with the old and the new one for 24 hours, then with the new one only', async () => {
    const webhook = await createHook('rotating');
    const path = '/hooks/rotating';
    receiver.trust(path, { old: webhook.secret });
    await newContact();
    await drain();

    harness.clock.set('2026-01-15T12:00:00.000Z');
    const rotated = await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret, ...shown } = rotated.json().data;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(webhook.secret);
    expect(shown).toMatchObject({ previousSecretExpiresAt: '2026-01-16T12:00:00.000Z', updatedAt: '2026-01-15T12:00:00.000Z' });
    expect(await ok('GET', `/v1/webhooks/${webhook.id}`)).toEqual(shown);
    receiver.trust(path, { new: secret });
    await newContact();
    await drain();
    harness.clock.set('2026-01-16T11:59:59.000Z');
    await newContact();
    await drain();
    harness.clock.set('2026-01-16T12:00:00.000Z');
    await newContact();
    await drain();

    const got = receiver.at(path);
    expect(got.map((entry) => entry.verifiedBy.filter((name) => name !== 'current').sort())).toEqual([
      ['old'],
      ['new', 'old'],
      ['new', 'old'],
      ['new'],
    ]);
    expect(got.map((entry) => String(entry.headers['webhook-signature']).split(' ').length)).toEqual([1, 2, 2, 1]);
    expect(got.map((entry) => entry.headers['webhook-timestamp'])).toEqual(
      ['2026-01-15T09:00:00Z', '2026-01-15T12:00:00Z', '2026-01-16T11:59:59Z', '2026-01-16T12:00:00Z'].map((at) =>
        String(Date.parse(at) / 1000),
      ),
    );
  });

  it('lists deliveries with their attempts (status code, latency, start of the answer), paged', async () => {
    const webhook = await createHook('listed');
    const path = '/hooks/listed';
    let calls = 0;
    receiver.reply(path, () => (++calls === 1 ? { status: 500, body: `${'e'.repeat(5000)}!` } : { status: 204 }));
    const contact = await newContact();
    await newContact();
    await drain();
    harness.clock.advance(5_000);
    await drain();

    const deliveries = await ok('GET', `/v1/webhooks/${webhook.id}/deliveries`);
    expect(deliveries.map((delivery: { status: string }) => delivery.status)).toEqual(['delivered', 'delivered']);
    const [second, first] = deliveries;
    expect(first).toMatchObject({
      webhookId: webhook.id,
      eventType: 'contact.created',
      deliveredAt: '2026-01-15T09:00:05.000Z',
      createdAt: TEST_NOW,
    });
    expect((await eventsSince(null)).find((event) => event.id === first.eventId)?.data).toEqual(contact);
    expect(first.attempts).toEqual([
      {
        id: expect.any(String),
        startedAt: TEST_NOW,
        statusCode: 500,
        latencyMs: expect.any(Number),
        responseBody: 'e'.repeat(4096),
        responseTruncated: true,
        error: 'answered 500',
      },
      {
        id: expect.any(String),
        startedAt: '2026-01-15T09:00:05.000Z',
        statusCode: 204,
        latencyMs: expect.any(Number),
        responseBody: '',
        responseTruncated: false,
        error: null,
      },
    ]);
    expect(first.attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
    // The second event waited for the first (one endpoint, in order).
    expect(second.attempts.map((attempt: { startedAt: string }) => attempt.startedAt)).toEqual(['2026-01-15T09:00:05.000Z']);

    const page = await call('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=1`);
    expect(page.json().data.map((delivery: { id: string }) => delivery.id)).toEqual([second.id]);
    const rest = await call('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=1&cursor=${page.json().nextCursor}`);
    expect(rest.json().data.map((delivery: { id: string }) => delivery.id)).toEqual([first.id]);
    expect(rest.json().nextCursor).toBeNull();
    expect(await ok('GET', `/v1/webhooks/${webhook.id}/deliveries?status=failed`)).toEqual([]);
    expect(await ok('GET', `/v1/webhooks/${webhook.id}/deliveries?status=delivered`)).toHaveLength(2);
  });

  it('retries a delivery by hand, once and out of order, and refuses what is on its way', async () => {
    const webhook = await createHook('manual');
    const path = '/hooks/manual';
    await newContact();
    await drain();
    const [delivered] = await ok('GET', `/v1/webhooks/${webhook.id}/deliveries`);

    // Redelivered: the same webhook-id and body, signed anew.
    harness.clock.set('2026-01-15T09:30:00.000Z');
    const retried = await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivered.id}/retry`);
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json().data).toMatchObject({ id: delivered.id, status: 'pending', nextAttemptAt: '2026-01-15T09:30:00.000Z' });
    const twice = await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivered.id}/retry`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toContain('this delivery is pending');
    await drain();
    const got = receiver.at(path);
    expect(got.map((entry) => entry.headers['webhook-id'])).toEqual([delivered.id, delivered.id]);
    expect(got[1]?.body).toBe(got[0]?.body);
    expect(got[1]?.verifiedBy).toEqual(['current']);
    const [after] = await ok('GET', `/v1/webhooks/${webhook.id}/deliveries`);
    expect(after.status).toBe('delivered');
    expect(after.attempts.map((attempt: { startedAt: string }) => attempt.startedAt)).toEqual([
      TEST_NOW,
      '2026-01-15T09:30:00.000Z',
    ]);

    // A manual retry that fails is not retried again, and does not hold back the next event.
    receiver.reply(path, (request) => (request.headers['webhook-id'] === delivered.id ? { status: 503 } : { status: 200 }));
    await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivered.id}/retry`);
    await newContact();
    await drain();
    harness.clock.advance(3_600_000);
    await drain();
    const [newest, again] = await ok('GET', `/v1/webhooks/${webhook.id}/deliveries`);
    expect(newest.status).toBe('delivered');
    expect(again).toMatchObject({ id: delivered.id, status: 'failed', nextAttemptAt: null });
    expect(again.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([200, 200, 503]);

    // A disabled webhook takes no retries.
    await ok('PATCH', `/v1/webhooks/${webhook.id}`, { enabled: false });
    const disabled = await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${delivered.id}/retry`);
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().message).toContain('disabled');
    expect((await ok('GET', `/v1/webhooks/${webhook.id}/deliveries`))[1].status).toBe('failed');
  });

  it('sends a test event now and answers with its attempt, without counting a failure against the endpoint', async () => {
    const webhook = await createHook('tested');
    const path = '/hooks/tested';
    receiver.reply(path, () => ({ status: 200, body: '{"received":true}' }));
    const tested = await call('POST', `/v1/webhooks/${webhook.id}/test`);
    expect(tested.statusCode, tested.body).toBe(201);
    expect(tested.json().data).toEqual({
      id: expect.any(String),
      webhookId: webhook.id,
      eventId: null,
      eventType: 'webhook.test',
      status: 'delivered',
      attempts: [
        {
          id: expect.any(String),
          startedAt: TEST_NOW,
          statusCode: 200,
          latencyMs: expect.any(Number),
          responseBody: '{"received":true}',
          responseTruncated: false,
          error: null,
        },
      ],
      nextAttemptAt: null,
      deliveredAt: TEST_NOW,
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    const [received] = receiver.at(path);
    expect(received?.verifiedBy).toEqual(['current']);
    expect(received?.headers['webhook-id']).toBe(tested.json().data.id);
    expect(received?.event).toMatchObject({
      id: null,
      type: 'webhook.test',
      organizationId: acme.organizationId,
      occurredAt: TEST_NOW,
      actor: { type: 'user', id: acme.userId },
      data: { webhookId: webhook.id },
    });

    // A failing test is answered as such, not retried, and the endpoint is not marked failing; a
    // disabled endpoint can be tested too.
    await ok('PATCH', `/v1/webhooks/${webhook.id}`, { enabled: false });
    receiver.reply(path, () => ({ status: 503, body: 'down for maintenance' }));
    const failed = (await ok('POST', `/v1/webhooks/${webhook.id}/test`)) as { status: string; attempts: object[] };
    expect(failed.status).toBe('failed');
    expect(failed.attempts).toEqual([
      expect.objectContaining({ statusCode: 503, responseBody: 'down for maintenance', error: 'answered 503' }),
    ]);
    expect((await ok('GET', `/v1/webhooks/${webhook.id}`)).failingSince).toBeNull();
    harness.clock.advance(86_400_000);
    await ok('PATCH', `/v1/webhooks/${webhook.id}`, { enabled: true });
    await drain();
    expect(receiver.at(path)).toHaveLength(2);
  });

  it('does not follow redirects, and keeps the status of an answer cut at 64 kB', async () => {
    const redirecting = await createHook('redirect');
    receiver.reply('/hooks/redirect', () => ({ status: 302, headers: { location: `${receiver.base}/hooks/landed` } }));
    const redirected = await ok('POST', `/v1/webhooks/${redirecting.id}/test`);
    expect(redirected.status).toBe('failed');
    expect(redirected.attempts[0]).toMatchObject({
      statusCode: 302,
      error: `answered 302, a redirect to ${receiver.base}/hooks/landed, which is not followed`,
    });
    expect(receiver.at('/hooks/landed')).toEqual([]);

    const large = await createHook('large');
    receiver.reply('/hooks/large', () => ({ status: 200, body: 'z'.repeat(1024 * 1024) }));
    const answered = await ok('POST', `/v1/webhooks/${large.id}/test`);
    expect(answered.status).toBe('delivered');
    expect(answered.attempts[0]).toMatchObject({ statusCode: 200, responseBody: 'z'.repeat(4096), responseTruncated: true });
  });
});
