import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

type Headers = { 'x-api-key': string };
type Thread = { id: string; title: string | null; messages: { content: string }[] };

describe.each(DIALECTS)('chat history search (endpoint 17, q) on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let agentId: string;

  const request = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const createThread = async (headers: Headers, title: string | null, messages: string[] = []) => {
    const thread = (await request('POST', `/chat/${agentId}/threads`, headers, { title })).json();
    for (const content of messages) {
      harness.clock.advance(1000);
      const added = await request('POST', `/chat/${agentId}/threads/${thread.id}/messages`, headers, {
        content,
        role: 'assistant',
      });
      expect(added.statusCode, added.body).toBe(200);
    }
    harness.clock.advance(1000);
    return thread.id as string;
  };
  const search = async (headers: Headers, q: string, extra = '') => {
    const response = await request('GET', `/chat/history?q=${encodeURIComponent(q)}${extra}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { items: Thread[]; next_cursor: string | null };
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    agentId = (await request('POST', '/agents', acme.headers, { name: 'Helper' })).json().id;
  });
  afterAll(() => harness.close());

  it("finds the caller's threads by title or by a message's text, case-insensitively, with all their messages", async () => {
    const user = await makeUser(harness, acme.organizationId);
    const refund = await createThread(user.headers, 'Refund for order 17', ['Sure, I can help.']);
    const shipping = await createThread(user.headers, 'Shipping', ['Parcels to MARS take a REFUND-free week.', 'Anything else?']);
    const unrelated = await createThread(user.headers, null, ['Hello there']);
    // Another user's thread that matches is never found.
    const other = await makeUser(harness, acme.organizationId);
    await createThread(other.headers, 'Refund too');

    const found = await search(user.headers, 'refund');
    expect(found.items.map((thread) => thread.id)).toEqual([shipping, refund]);
    // The thread comes whole: every message, not only the matching one.
    expect(found.items[0]?.messages.map((message) => message.content)).toEqual([
      'Parcels to MARS take a REFUND-free week.',
      'Anything else?',
    ]);
    expect((await search(user.headers, 'mars')).items.map((thread) => thread.id)).toEqual([shipping]);
    expect((await search(user.headers, 'order 17')).items.map((thread) => thread.id)).toEqual([refund]);
    expect((await search(user.headers, 'nothing like this')).items).toEqual([]);
    // Blank: every thread, as without q.
    expect((await search(user.headers, '  ')).items.map((thread) => thread.id)).toEqual([unrelated, shipping, refund]);
    // Another organization's user finds nothing of Acme's.
    expect((await search(globex.headers, 'refund')).items).toEqual([]);
  });

  it('takes % and _ literally, and pages the matches by cursor', async () => {
    const user = await makeUser(harness, acme.organizationId);
    const percent = await createThread(user.headers, 'Discount of 50% off');
    await createThread(user.headers, 'Discount of 50 dollars');
    await createThread(user.headers, 'snake_case names');
    await createThread(user.headers, 'snakeXcase names');
    expect((await search(user.headers, '50%')).items.map((thread) => thread.id)).toEqual([percent]);
    expect((await search(user.headers, 'snake_case')).items.map((thread) => thread.title)).toEqual(['snake_case names']);

    const first = await search(user.headers, 'discount', '&limit=1');
    expect(first.items.map((thread) => thread.title)).toEqual(['Discount of 50 dollars']);
    expect(first.next_cursor).not.toBeNull();
    const second = await search(user.headers, 'discount', `&limit=1&cursor=${first.next_cursor}`);
    expect(second.items.map((thread) => thread.title)).toEqual(['Discount of 50% off']);
    expect(second.next_cursor).toBeNull();
  });

  it('refuses a search longer than 200 characters with a 422 naming q', async () => {
    const response = await request('GET', `/chat/history?q=${'a'.repeat(201)}`, acme.headers);
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(response.json().detail)).toContain('q');
  });
});
