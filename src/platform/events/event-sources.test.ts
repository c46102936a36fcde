import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { startPublicMcpServer, type TestMcpServer } from '../../../test/mcp/mcp-servers.js';
import { encodeCursor } from '../../lib/cursors.js';

interface Event {
  id: string;
  type: string;
  actor: { type: string; id: string | null; name: string | null };
  data: Record<string, unknown>;
}

/** Contacts, accounts, notes, articles, chats and MCP servers write their events with their changes. */
describe.each(DIALECTS)('event log sources on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let desk: TestTeam;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let mcp: TestMcpServer;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    acme = await makeOrganization(harness, { name: 'Acme' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia' });
    mcp = await startPublicMcpServer();
  });
  afterAll(async () => {
    await harness?.close();
    await mcp?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  /** The body the route answered: the platform's and help center's `data`, or the agent studio's bare object. */
  async function ok(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = acme.headers) {
    const response = await call(method, url, payload, headers);
    expect(response.statusCode, response.body).toBeLessThan(300);
    const body = response.json();
    // Accounts and contacts answer the bare object, as their upstream does.
    return !url.startsWith('/api/v1') && body && typeof body === 'object' && 'data' in body ? body.data : body;
  }
  async function eventsSince(since: string | null): Promise<Event[]> {
    const events: Event[] = [];
    let cursor: string | null = since ? encodeCursor([Number(since)]) : null;
    do {
      const page = await call('GET', `/v1/events?order=asc&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.statusCode, page.body).toBe(200);
      events.push(...page.json().data);
      cursor = page.json().nextCursor;
    } while (cursor);
    return events;
  }
  const lastId = async (): Promise<string | null> => (await call('GET', '/v1/events?limit=1')).json().data[0]?.id ?? null;
  const restricted = async (since: string | null) =>
    harness.db
      .selectFrom('events')
      .select(['type', 'private_to_user_id'])
      .where('organization_id', '=', acme.organizationId)
      .where('seq', '>', Number(since ?? 0))
      .orderBy('seq')
      .execute();

  it('writes contact.created and contact.deleted, and contact.created for a contact made by a new ticket', async () => {
    const since = await lastId();
    const contact = await ok('POST', '/v1/accounts/contacts', { firstName: 'Pat', email: 'pat@customer.test' });
    const before = await ok('GET', `/v1/accounts/contacts/${contact.id}`);
    await ok('DELETE', `/v1/accounts/contacts/${contact.id}`);
    const ticket = await ok('POST', '/v1/tickets', { title: 'Help', requestorEmail: 'new@customer.test', teamId: desk.teamId });
    // Known now: no second contact.created.
    await ok('POST', '/v1/tickets', { title: 'Again', requestorEmail: 'new@customer.test', teamId: desk.teamId });
    const events = await eventsSince(since);
    expect(events.map((event) => event.type)).toEqual([
      'contact.created',
      'contact.deleted',
      'contact.created',
      'ticket.created',
      'ticket.created',
    ]);
    expect(events[0]?.data).toEqual(contact);
    expect(events[0]?.actor).toMatchObject({ type: 'user', id: acme.userId });
    expect(events[1]?.data).toEqual(before);
    const made = await ok('GET', `/v1/accounts/contacts/${ticket.customerContactId}`);
    expect(events[2]?.data).toEqual(made);
    expect(events[3]?.data).toEqual(ticket);
  });

  it('writes no contact event when creating or deleting a contact fails', async () => {
    await ok('POST', '/v1/accounts/contacts', { firstName: 'Sam', email: 'sam@customer.test' });
    const since = await lastId();
    expect((await call('POST', '/v1/accounts/contacts', { firstName: 'Sam', email: 'sam@customer.test' })).statusCode).toBe(409);
    expect((await call('DELETE', '/v1/accounts/contacts/01KAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect(await eventsSince(since)).toEqual([]);
  });

  it('writes account.created and note.created, a private note kept to its author', async () => {
    const since = await lastId();
    const account = await ok('POST', '/v1/accounts', { name: 'Initech', primaryDomain: 'initech.example' });
    const note = await ok('POST', '/v1/accounts/notes', { accountId: account.id, content: 'Kick-off went well' });
    const secret = await ok(
      'POST',
      '/v1/accounts/notes',
      { accountId: account.id, content: 'Renewal at risk', visibility: 'private' },
      member.headers,
    );
    expect((await call('POST', '/v1/accounts', { name: 'Again', primaryDomain: 'initech.example' })).statusCode).toBe(409);
    const events = await eventsSince(since);
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['account.created', account],
      ['note.created', note],
      ['note.created', secret],
    ]);
    expect(events[2]?.actor).toEqual({ type: 'user', id: member.userId, name: 'Mia' });
    expect(await restricted(since)).toEqual([
      { type: 'account.created', private_to_user_id: null },
      { type: 'note.created', private_to_user_id: null },
      { type: 'note.created', private_to_user_id: member.userId },
    ]);
  });

  it('writes article.published and article.unpublished, not for a no-op', async () => {
    const helpCenterId = (await ok('POST', '/help-centers', { name: 'Help' }))._id;
    const collectionId = (await ok('POST', '/collections', { helpCenterId, name: 'General' }))._id;
    const article = await ok('POST', '/articles', { title: 'Resetting a password', collectionId });
    const since = await lastId();
    const published = await ok('POST', `/articles/${article._id}/publish`);
    await ok('POST', `/articles/${article._id}/publish`);
    const unpublished = await ok('POST', `/articles/${article._id}/unpublish`);
    await ok('POST', `/articles/${article._id}/unpublish`);
    const events = await eventsSince(since);
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['article.published', published],
      ['article.unpublished', unpublished],
    ]);
  });

  it('writes the changes the public site shows: article.updated and article.deleted, collection and help center changes', async () => {
    const helpCenterId = (await ok('POST', '/help-centers', { name: 'Site' }))._id;
    const since = await lastId();
    const collection = await ok('POST', '/collections', { helpCenterId, name: 'Guides' });
    const other = await ok('POST', '/collections', { helpCenterId, name: 'Other' });
    const article = await ok('POST', '/articles', { title: 'Exporting data', collectionId: collection._id });
    // A draft's edits are nobody's business but its authors'.
    await ok('PATCH', `/articles/${article._id}`, { title: 'Exporting your data' });
    const published = await ok('POST', `/articles/${article._id}/publish`);
    // A published article's body waits for the next publish; its address and placement are live.
    await ok('PATCH', `/articles/${article._id}`, { contentHtml: '<p>Soon.</p>' });
    const renamed = await ok('PATCH', `/articles/${article._id}`, { title: 'Exporting everything' });
    const placed = await ok('PATCH', `/articles/${article._id}`, { addToCollections: [other._id] });
    const updatedCollection = await ok('PATCH', `/collections/${collection._id}`, { name: 'How-to guides' });
    const helpCenter = await ok('PATCH', `/help-centers/${helpCenterId}`, { name: 'Site help' });
    const deletedArticle = await ok('DELETE', `/articles/${article._id}`);
    const deletedCollection = await ok('DELETE', `/collections/${other._id}`);
    const events = await eventsSince(since);
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['collection.created', collection],
      ['collection.created', other],
      ['article.published', published],
      ['article.updated', renamed],
      ['article.updated', placed],
      ['collection.updated', updatedCollection],
      ['help_center.updated', helpCenter],
      ['article.deleted', deletedArticle],
      ['collection.deleted', deletedCollection],
    ]);
    expect(events.every((event) => event.actor.type === 'user' && event.actor.id === acme.userId)).toBe(true);
  });

  it('writes nothing for a refused change of the site', async () => {
    const helpCenterId = (await ok('POST', '/help-centers', { name: 'Refusals' }))._id;
    const taken = (await ok('POST', '/help-centers', { name: 'Taken' })).slug;
    const since = await lastId();
    expect((await call('PATCH', `/help-centers/${helpCenterId}`, { slug: taken })).statusCode).toBe(409);
    expect((await call('PATCH', `/help-centers/${helpCenterId}`, { name: '  ' })).statusCode).toBe(400);
    expect((await call('POST', '/collections', { helpCenterId, name: '' })).statusCode).toBe(400);
    expect((await call('DELETE', '/collections/0123456789abcdef01234567')).statusCode).toBe(404);
    expect(await eventsSince(since)).toEqual([]);
  });

  it("writes chat.message.created, kept to the thread's owner", async () => {
    const agentId = (await ok('POST', '/api/v1/agents', { name: 'Helper' })).id;
    const thread = await ok('POST', `/api/v1/chat/${agentId}/threads`, { agent_id: agentId, title: 'Refund' }, member.headers);
    const since = await lastId();
    const message = await ok(
      'POST',
      `/api/v1/chat/${agentId}/threads/${thread.id}/messages`,
      { content: 'Where is my refund?', role: 'user' },
      member.headers,
    );
    const events = await eventsSince(since);
    expect(events.map((event) => [event.type, event.data])).toEqual([['chat.message.created', message]]);
    expect(await restricted(since)).toEqual([{ type: 'chat.message.created', private_to_user_id: member.userId }]);
  });

  it('writes mcp_server.connected when a server connects and mcp_server.disconnected when it stops being connected', async () => {
    const agentId = (await ok('POST', '/api/v1/agents', { name: 'Tools' })).id;
    const servers = `/api/v1/mcp/agents/${agentId}/servers`;
    const server = await ok('POST', servers, { name: 'Docs', url: mcp.url });
    const since = await lastId();
    expect((await ok('POST', `${servers}/${server.id}/connect`)).status).toBe('connected');
    const connected = await ok('GET', `${servers}/${server.id}`);
    // Connecting again is no new crossing.
    await ok('POST', `${servers}/${server.id}/connect`);
    const moved = await ok('PUT', `${servers}/${server.id}`, { url: `${mcp.url}?moved=1` });
    await ok('POST', `${servers}/${server.id}/connect`);
    const before = await ok('GET', `${servers}/${server.id}`);
    await ok('DELETE', `${servers}/${server.id}`);
    const events = await eventsSince(since);
    expect(events.map((event) => event.type)).toEqual([
      'mcp_server.connected',
      'mcp_server.disconnected',
      'mcp_server.connected',
      'mcp_server.disconnected',
    ]);
    expect(events[0]?.data).toEqual(connected);
    expect(events[1]?.data).toEqual(moved);
    expect(events[3]?.data).toEqual(before);
  });
});
