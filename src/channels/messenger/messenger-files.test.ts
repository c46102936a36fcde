import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeTeam, makeUser } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { makeSiteFixture, type SiteFixture } from '../../../test/help-center-site.js';
import { openSse } from '../../../test/sse.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart/form-data body with one file part. */
function multipartBody(field: string, file: { name: string; type: string; data: Buffer }) {
  const boundary = `----switchboard${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe.each(DIALECTS)('files in messenger conversations on %s', (dialect) => {
  let harness: TestApp;
  let site: SiteFixture;
  let agentPerson: { headers: { 'x-api-key': string } };
  let base: string;

  const api = (
    method: 'GET' | 'POST',
    path: string,
    token: string,
    extra: { payload?: object | Buffer; headers?: object } = {},
  ) =>
    harness.app.inject({
      method,
      url: `/widget/${site.slug}/api${path}`,
      headers: { authorization: `Bearer ${token}`, ...extra.headers },
      ...(extra.payload ? { payload: extra.payload } : {}),
    });
  const newConversation = async () => {
    const token = (await harness.app.inject({ method: 'POST', url: `/widget/${site.slug}/api/visitors` })).json()
      .visitorToken as string;
    const conversationId = (await api('POST', '/conversations', token)).json().conversation.id as string;
    return { token, conversationId };
  };
  const send = (token: string, conversationId: string, file: { name: string; type: string; data: Buffer }) => {
    const body = multipartBody('file', file);
    return api('POST', `/conversations/${conversationId}/files`, token, body);
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect, {
      env: { ATTACHMENT_MAX_BYTES: '2048', MESSENGER_MESSAGES_PER_ADDRESS: '0', EVENT_WATCH_INTERVAL_MS: '20' },
    });
    base = await harness.app.listen({ host: '127.0.0.1', port: 0 });
    site = await makeSiteFixture(harness, 'Messenger Files');
    const team = await makeTeam(harness, site.acme, { name: 'Files desk', identifier: 'FILE' });
    agentPerson = await makeUser(harness, site.acme.organizationId, { name: 'Robin Reyes' });
    const agent = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/agents',
      headers: site.acme.headers,
      payload: { name: 'Answers' },
    });
    const patched = await site.call('PATCH', `/help-centers/${site.helpCenterId}`, {
      widget: { enabled: true, agentId: agent.json().id, handoffTeamId: team.teamId },
    });
    expect(patched.statusCode, patched.body).toBe(200);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("sends the visitor's file to the person, on the ticket, and both sides' public files download; nothing else does", async () => {
    const { token, conversationId } = await newConversation();
    const early = await send(token, conversationId, { name: 'screen.png', type: 'image/png', data: PNG });
    expect(early.statusCode, early.body).toBe(409);
    expect((await api('POST', `/conversations/${conversationId}/handoff`, token, { payload: {} })).statusCode).toBe(201);

    const sent = await send(token, conversationId, { name: 'screen.png', type: 'image/png', data: PNG });
    expect(sent.statusCode, sent.body).toBe(201);
    const message = sent.json().message;
    expect(message).toMatchObject({
      author: 'visitor',
      attachments: [{ name: 'screen.png', contentType: 'image/png', size: PNG.length }],
    });
    const fileId = message.attachments[0].id as string;
    const { ticket_id: ticketId } = await harness.db
      .selectFrom('messenger_handoffs')
      .select('ticket_id')
      .where('thread_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    const comments = (
      await harness.app.inject({ url: `/v1/tickets/${ticketId}/comments?limit=50`, headers: site.acme.headers })
    ).json().data as { attachments: string[]; authorUserType: string }[];
    expect(comments.at(-1)).toMatchObject({ authorUserType: 'CUSTOMER', attachments: [fileId] });

    // The live stream names the file too (its event names it by id only).
    const live = await openSse(`${base}/widget/${site.slug}/api/conversations/${conversationId}/events`, {
      authorization: `Bearer ${token}`,
    });
    await live.until((client) => client.comments.some((comment) => comment.includes('connected')), 'connected');
    expect((await send(token, conversationId, { name: 'again.png', type: 'image/png', data: PNG })).statusCode).toBe(201);
    await live.until((client) => client.events.some((event) => event.event === 'message'), 'the live file message');
    const liveMessage = JSON.parse(live.events.find((event) => event.event === 'message')?.data ?? '{}').message;
    expect(liveMessage.attachments).toEqual([expect.objectContaining({ name: 'again.png', size: PNG.length })]);
    live.close();

    const image = await api('GET', `/conversations/${conversationId}/files/${fileId}`, token);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(PNG)).toBe(true);

    // A person's file on a public reply downloads; one on an internal note does not.
    const upload = async (name: string) => {
      const body = multipartBody('file', { name, type: 'text/html', data: Buffer.from('<p>hi</p>') });
      const response = await harness.app.inject({
        method: 'POST',
        url: '/v1/attachments',
        headers: { ...agentPerson.headers, ...body.headers },
        payload: body.payload,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.id as string;
    };
    const publicFile = await upload('steps.html');
    const noteFile = await upload('internal.html');
    for (const [attachmentId, extra] of [
      [publicFile, {}],
      [noteFile, { commentVisibility: 'private', commentType: 'note' }],
    ] as const) {
      const made = await harness.app.inject({
        method: 'POST',
        url: `/v1/tickets/${ticketId}/comment`,
        headers: agentPerson.headers,
        payload: { content: 'See the file', attachmentIds: [attachmentId], ...extra },
      });
      expect(made.statusCode, made.body).toBe(201);
    }
    const messages = (await api('GET', `/conversations/${conversationId}/messages`, token)).json().messages;
    expect(messages.at(-1)).toMatchObject({ author: 'agent', attachments: [{ id: publicFile, name: 'steps.html' }] });
    const download = await api('GET', `/conversations/${conversationId}/files/${publicFile}`, token);
    expect(download.statusCode).toBe(200);
    // Never served as HTML from the messenger's origin.
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toContain('attachment');
    expect((await api('GET', `/conversations/${conversationId}/files/${noteFile}`, token)).statusCode).toBe(404);
    const stranger = await newConversation();
    expect((await api('GET', `/conversations/${conversationId}/files/${fileId}`, stranger.token)).statusCode).toBe(404);
    expect((await api('GET', `/conversations/${stranger.conversationId}/files/${fileId}`, stranger.token)).statusCode).toBe(404);
  });

  it('refuses a file over the limit, a body without one, and writes nothing', async () => {
    const { token, conversationId } = await newConversation();
    await api('POST', `/conversations/${conversationId}/handoff`, token, { payload: {} });
    const before = await harness.db
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const big = await send(token, conversationId, {
      name: 'big.bin',
      type: 'application/octet-stream',
      data: Buffer.alloc(4096, 1),
    });
    expect(big.statusCode, big.body).toBe(413);
    expect(big.json().error.code).toBe('payload_too_large');
    const wrongField = await api(
      'POST',
      `/conversations/${conversationId}/files`,
      token,
      multipartBody('other', {
        name: 'a.txt',
        type: 'text/plain',
        data: Buffer.from('x'),
      }),
    );
    expect(wrongField.statusCode).toBe(400);
    const json = await api('POST', `/conversations/${conversationId}/files`, token, { payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    const after = await harness.db
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
