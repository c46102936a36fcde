import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { startSmtp } from '../../../test/smtp.js';
import { buildApp } from '../../app.js';
import { connectPostgres } from '../../db/connect.js';
import { createOutboxWorker } from '../../delivery/outbox/outbox.worker.js';

describe.each(DIALECTS)('ticket comments on %s', (dialect) => {
  let harness: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let ticketId: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    harness = await buildTestApp(dialect, {
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Acme Support <help@acme.test>' },
    });
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness);
    desk = await makeTeam(harness, acme, { identifier: 'WED' });
    const created = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: acme.headers,
      payload: { title: 'Printer on fire', requestorEmail: 'pat@customer.test', teamId: desk.teamId },
    });
    ticketId = created.json().data.id;
  });
  afterAll(async () => {
    await harness.close();
    await smtp.close();
  });

  const comment = (payload: object, id = ticketId, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url: `/v1/tickets/${id}/comment`, headers, payload });
  const commentCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('ticket_comments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const outboxCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('email_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('adds a comment: 201 with the full comment object, author from the key', async () => {
    const response = await comment({
      content: 'Have you tried turning it off?',
      threadName: 'triage',
      metadata: { mentions: [] },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ status: true, message: 'Success', timestamp: TEST_NOW });
    expect(response.json().data).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      content: 'Have you tried turning it off?',
      contentHtml: '<p>Have you tried turning it off?</p>',
      contentJson: null,
      contentMarkdown: 'Have you tried turning it off?',
      isEdited: false,
      threadName: 'triage',
      commentVisibility: 'public',
      commentType: 'comment',
      isPinned: false,
      sourceEmailId: null,
      metadata: { mentions: [] },
      parentCommentId: null,
      ticketId,
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
      deletedAt: null,
      author: expect.any(String),
      authorId: acme.userId,
      authorUserType: 'ORG_ADMIN',
      authorAvatarUrl: null,
      customerContactId: null,
      customerContactEmail: null,
      customerContactFirstName: null,
      customerContactLastName: null,
      customerContactAvatarUrl: null,
      impersonatedUserEmail: null,
      impersonatedUserName: null,
      impersonatedUserAvatar: null,
      attachments: [],
      emailDelivery: null,
      slackDelivery: null,
    });
  });

  it('sanitises HTML and derives text and markdown from it', async () => {
    const data = (
      await comment({
        contentHtml:
          '<p onclick="steal()">Use <b>safe</b> mode<script>alert(1)</script> <a href="javascript:alert(1)">here</a> <a href="https://docs.test">docs</a></p>',
      })
    ).json().data;
    expect(data.contentHtml).not.toMatch(/script|onclick|javascript:/);
    expect(data.contentHtml).toContain('<b>safe</b>');
    expect(data.contentHtml).toContain('href="https://docs.test"');
    expect(data.content).toContain('Use safe mode');
    expect(data.contentMarkdown).toContain('**safe**');
    expect(data.contentMarkdown).toContain('[docs](https://docs.test)');
  });

  it('keeps contentJson as given and derives text from it', async () => {
    const doc = JSON.stringify({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'From the editor' }] }],
    });
    const data = (await comment({ contentJson: doc })).json().data;
    expect(data.contentJson).toBe(doc);
    expect(data.content).toBe('From the editor');
    const broken = await comment({ contentJson: '{not json' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe('contentJson must be an editor document serialised as a JSON string');
  });

  it.each([
    [{}, 'content, contentHtml or contentJson is required'],
    [{ content: '   ' }, 'content, contentHtml or contentJson is required'],
    [{ content: 'x', commentVisibility: 'internal' }, 'commentVisibility must be one of: public, private'],
    [{ content: 'x', commentType: 'chat' }, 'commentType must be one of: comment, note, reply'],
    [{ content: 'x', commentType: 'reply' }, 'commentType reply needs a parentCommentId'],
    [{ content: 'x', deDuplicationKey: 'k'.repeat(256) }, 'deDuplicationKey must be at most 255 characters long'],
    [{ content: 'x', shouldSendEmail: 'yes' }, 'shouldSendEmail must be a boolean'],
    [{ content: 'x', parentCommentId: '01KAAAAAAAAAAAAAAAAAAAAAAA' }, 'parentCommentId does not name a comment of this ticket'],
    [
      { content: 'x', attachmentIds: ['01KAAAAAAAAAAAAAAAAAAAAAAA'] },
      'attachmentIds contains unknown attachment ids: 01KAAAAAAAAAAAAAAAAAAAAAAA',
    ],
    [{ content: 'x', customerEmail: 'not-an-email' }, 'customerEmail must be a valid email'],
    [{ content: 'x', pinned: true }, 'pinned is not an accepted field'],
  ])('rejects %j with a 400 naming the problem, writing nothing', async (payload, message) => {
    const before = await commentCount();
    const response = await comment(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    expect(await commentCount()).toBe(before);
  });

  it('answers the contract errors for a missing or unknown ticket id', async () => {
    for (const url of ['/v1/tickets//comment', '/v1/tickets/%20/comment']) {
      const missing = await harness.app.inject({ method: 'POST', url, headers: acme.headers, payload: { content: 'x' } });
      expect(missing.statusCode, url).toBe(400);
      expect(missing.json()).toEqual({ statusCode: 400, message: 'Ticket ID is required!', error: 'Bad Request' });
    }
    for (const id of ['01KAAAAAAAAAAAAAAAAAAAAAAA', 'SY7BWX0K10YKRDE5FAHNBHFBS986H']) {
      const unknown = await comment({ content: 'x' }, id);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ statusCode: 404, message: 'Ticket not found!', error: 'Not Found' });
    }
  });

  it('threads one level deep; a public reply under a private comment is rejected', async () => {
    const root = (await comment({ content: 'root' })).json().data;
    const reply = (await comment({ content: 'reply', parentCommentId: root.id })).json().data;
    expect(reply).toMatchObject({ parentCommentId: root.id, commentType: 'reply', commentVisibility: 'public' });
    const nested = await comment({ content: 'deeper', parentCommentId: reply.id });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().message).toBe('parentCommentId must name a top-level comment: replies nest one level');

    const note = (await comment({ content: 'internal', commentType: 'note' })).json().data;
    expect(note.commentVisibility).toBe('private');
    const publicUnderPrivate = await comment({ content: 'leak', parentCommentId: note.id, commentVisibility: 'public' });
    expect(publicUnderPrivate.statusCode).toBe(400);
    expect(publicUnderPrivate.json().message).toBe('A public reply cannot be posted under a private comment');
    expect((await comment({ content: 'ok', parentCommentId: note.id, commentVisibility: 'private' })).statusCode).toBe(201);

    const otherTicket = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/tickets',
        headers: acme.headers,
        payload: { title: 'Other', requestorEmail: 'x@customer.test', teamId: desk.teamId },
      })
    ).json().data;
    const crossTicket = await comment({ content: 'x', parentCommentId: root.id }, otherTicket.id);
    expect(crossTicket.json().message).toBe('parentCommentId does not name a comment of this ticket');
  });

  it('a customerEmail comment comes from that contact; impersonation fields are kept', async () => {
    const data = (
      await comment({
        content: 'It is still smoking',
        customerEmail: 'sam@customer.test',
        impersonatedUserEmail: 'bot@acme.test',
        impersonatedUserName: 'Acme Bot',
        impersonatedUserAvatar: 'https://img.test/bot.png',
      })
    ).json().data;
    expect(data).toMatchObject({
      author: 'sam',
      authorUserType: 'CUSTOMER',
      customerContactEmail: 'sam@customer.test',
      customerContactFirstName: 'sam',
      impersonatedUserEmail: 'bot@acme.test',
      impersonatedUserName: 'Acme Bot',
      impersonatedUserAvatar: 'https://img.test/bot.png',
    });
    expect(data.customerContactId).toBe(data.authorId);
  });

  it('links uploaded attachments of the organization', async () => {
    const boundary = '----switchboard';
    const payload = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="log.txt"',
      'Content-Type: text/plain',
      '',
      'log line',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const upload = await harness.app.inject({
      method: 'POST',
      url: '/v1/attachments',
      headers: { ...acme.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(upload.statusCode).toBe(201);
    const attachmentId = upload.json().data.id;
    const data = (await comment({ content: 'see log', attachmentIds: [attachmentId] })).json().data;
    expect(data.attachments).toEqual([attachmentId]);
    const foreign = await comment({ content: 'theirs', attachmentIds: [attachmentId] }, ticketId, globex.headers);
    expect(foreign.statusCode).toBe(404);
  });

  it('a replayed deDuplicationKey returns the first comment (200); a different body is a 409', async () => {
    const first = await comment({ content: 'once', deDuplicationKey: 'ext-1', shouldSendEmail: true });
    expect(first.statusCode).toBe(201);
    const before = await commentCount();
    const outboxBefore = await outboxCount();
    const replay = await comment({ content: 'once', deDuplicationKey: 'ext-1', shouldSendEmail: true });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data.id).toBe(first.json().data.id);
    const different = await comment({ content: 'twice', deDuplicationKey: 'ext-1' });
    expect(different.statusCode).toBe(409);
    expect(different.json()).toEqual({
      statusCode: 409,
      message: 'deDuplicationKey "ext-1" was already used for a different comment on this ticket',
      error: 'Conflict',
    });
    expect(await commentCount()).toBe(before);
    expect(await outboxCount()).toBe(outboxBefore);
  });

  it('a replay is recognised whatever the key order of its JSON and with defaults spelled out', async () => {
    const first = await comment({ content: 'ordered', metadata: { a: 1, b: { c: 2, d: 3 } }, deDuplicationKey: 'order-1' });
    expect(first.statusCode).toBe(201);
    const reordered = await comment({
      deDuplicationKey: 'order-1',
      metadata: { b: { d: 3, c: 2 }, a: 1 },
      content: 'ordered',
      shouldSendEmail: false,
      commentVisibility: 'public',
    });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json().data.id).toBe(first.json().data.id);
  });

  it('50 concurrent requests with one key create exactly one comment and one email', async () => {
    const before = await commentCount();
    const outboxBefore = await outboxCount();
    const payload = { content: 'Your refund is on its way', deDuplicationKey: 'burst-1', shouldSendEmail: true };
    const responses = await Promise.all(Array.from({ length: 50 }, () => comment(payload)));
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.filter((code) => code === 200)).toHaveLength(49);
    expect(new Set(responses.map((response) => response.json().data.id)).size).toBe(1);
    expect(await commentCount()).toBe(before + 1);
    expect(await outboxCount()).toBe(outboxBefore + 1);
  });

  it.runIf(dialect === 'postgres')('the key holds across two server processes on one PostgreSQL', async () => {
    const handle = connectPostgres(harness.url as string, 5);
    const second = await buildApp({
      config: harness.config,
      db: handle.db,
      clock: harness.clock,
      log: pino({ level: 'silent' }),
    });
    try {
      const before = await commentCount();
      const payload = { content: 'from two processes', deDuplicationKey: 'multi-process', shouldSendEmail: true };
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? harness.app : second).inject({
            method: 'POST',
            url: `/v1/tickets/${ticketId}/comment`,
            headers: acme.headers,
            payload,
          }),
        ),
      );
      expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
      expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(19);
      expect(await commentCount()).toBe(before + 1);
    } finally {
      await second.close();
      await handle.close();
    }
  });

  it('emails the requestor about a public comment through SMTP, once', async () => {
    const data = (await comment({ content: 'We replaced the printer.', shouldSendEmail: true })).json().data;
    const privateNote = await comment({ content: 'internal only', commentVisibility: 'private', shouldSendEmail: true });
    expect(privateNote.statusCode).toBe(201);
    const worker = createOutboxWorker({
      db: harness.db,
      clock: harness.clock,
      config: harness.config,
      log: pino({ level: 'silent' }),
    });
    smtp.messages.length = 0;
    for (let pass = 0; pass < 20 && (await worker.runOnce()) > 0; pass++) {
      // Earlier tests queued messages too; drain them all.
    }
    const mails = smtp.messages.filter((mail) => mail.raw.includes('We replaced the printer.'));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual(['pat@customer.test']);
    // Tagged once; `Re: ` when an earlier test's email to the requestor started the ticket's thread.
    expect(mails[0]?.raw).toMatch(/^Subject: (Re: )?\[WED-1\] Printer on fire\r$/m);
    expect(smtp.messages.some((mail) => mail.raw.includes('internal only'))).toBe(false);
    const row = await harness.db
      .selectFrom('email_outbox')
      .select(['status'])
      .where('dedupe_key', '=', `comment:${data.id}`)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
  });

  it('lists threads in order, edits mark isEdited, deletes are soft', async () => {
    const ticket = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/tickets',
        headers: acme.headers,
        payload: { title: 'Threads', requestorEmail: 't@customer.test', teamId: desk.teamId },
      })
    ).json().data;
    const first = (await comment({ content: 'first' }, ticket.id)).json().data;
    harness.clock.advance(1000);
    const second = (await comment({ content: 'second' }, ticket.id)).json().data;
    harness.clock.advance(1000);
    const reply = (await comment({ content: 'reply to first', parentCommentId: first.id }, ticket.id)).json().data;
    const list = async (query = '') =>
      (await harness.app.inject({ url: `/v1/tickets/${ticket.id}/comments${query}`, headers: acme.headers }))
        .json()
        .data.map((c: { id: string }) => c.id);
    expect(await list()).toEqual([first.id, reply.id, second.id]);
    expect(await list('?page=1&limit=1')).toEqual([second.id]);

    const edited = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${ticket.id}/comments/${first.id}`,
      headers: acme.headers,
      payload: { content: 'first, corrected' },
    });
    expect(edited.json().data).toMatchObject({ content: 'first, corrected', isEdited: true });
    const member = await makeUser(harness, acme.organizationId);
    const notTheirs = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${ticket.id}/comments/${first.id}`,
      headers: member.headers,
      payload: { content: 'hijack' },
    });
    expect(notTheirs.statusCode).toBe(403);

    const removed = await harness.app.inject({
      method: 'DELETE',
      url: `/v1/tickets/${ticket.id}/comments/${second.id}`,
      headers: acme.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.deletedAt).not.toBeNull();
    expect(await list()).toEqual([first.id, reply.id]);
    const gone = await harness.app.inject({
      method: 'DELETE',
      url: `/v1/tickets/${ticket.id}/comments/${second.id}`,
      headers: acme.headers,
    });
    expect(gone.statusCode).toBe(404);
  });

  it("shows a comment's author and admins how its email is doing, and other members nothing", async () => {
    /** The outbox message a comment's email was queued as (keyed by the comment). */
    const outboxIdOf = async (commentId: string) =>
      (
        await harness.db
          .selectFrom('email_outbox')
          .select('id')
          .where('dedupe_key', '=', `comment:${commentId}`)
          .executeTakeFirstOrThrow()
      ).id;
    const author = await makeUser(harness, acme.organizationId);
    const colleague = await makeUser(harness, acme.organizationId);
    const ticket = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/tickets',
        headers: acme.headers,
        payload: { title: 'Delivery', requestorEmail: 'dee@customer.test', teamId: desk.teamId },
      })
    ).json().data;
    const queuedAt = harness.clock.now().toISOString();
    const posted = await comment({ content: 'Your order shipped.', shouldSendEmail: true }, ticket.id, author.headers);
    expect(posted.statusCode).toBe(201);
    const outboxId = await outboxIdOf(posted.json().data.id);
    expect(posted.json().data.emailDelivery).toEqual({
      outboxId,
      status: 'pending',
      attempts: 0,
      lastError: null,
      sentAt: null,
      updatedAt: queuedAt,
    });
    const quiet = await comment({ content: 'No email for this one' }, ticket.id, author.headers);
    expect(quiet.json().data.emailDelivery).toBeNull();

    const drain = async (smtpUrl: string | undefined) => {
      const worker = createOutboxWorker({
        db: harness.db,
        clock: harness.clock,
        config: { ...harness.config, SMTP_URL: smtpUrl },
        log: pino({ level: 'silent' }),
      });
      for (let pass = 0; pass < 20 && (await worker.runOnce()) > 0; pass++) {
        // Earlier tests queued messages too; drain them all.
      }
      await worker.stop();
    };
    const listed = async (headers: { 'x-api-key': string }) => {
      const response = await harness.app.inject({ url: `/v1/tickets/${ticket.id}/comments`, headers });
      expect(response.statusCode).toBe(200);
      return response.json().data as { id: string; emailDelivery?: unknown }[];
    };
    const deliverySeenBy = async (headers: { 'x-api-key': string }) =>
      (await listed(headers)).find((item) => item.id === posted.json().data.id)?.emailDelivery;

    harness.clock.advance(1000);
    const givenUpAt = harness.clock.now().toISOString();
    await drain(undefined);
    const undeliverable = {
      outboxId,
      status: 'undeliverable',
      attempts: 1,
      lastError: 'SMTP_URL is not configured',
      sentAt: null,
      updatedAt: givenUpAt,
    };
    expect(await deliverySeenBy(author.headers)).toEqual(undeliverable);
    expect(await deliverySeenBy(acme.headers)).toEqual(undeliverable);
    const seenByColleague = await listed(colleague.headers);
    expect(seenByColleague).toHaveLength(2);
    for (const item of seenByColleague) {
      expect(item).not.toHaveProperty('emailDelivery');
    }

    // The admin sends it again once mail works; the author sees it delivered.
    harness.clock.advance(1000);
    expect(
      (await harness.app.inject({ method: 'POST', url: `/v1/outbox/${outboxId}/retry`, headers: acme.headers })).statusCode,
    ).toBe(200);
    smtp.messages.length = 0;
    await drain(harness.config.SMTP_URL);
    expect(smtp.messages.filter((mail) => mail.raw.includes('Your order shipped.'))).toHaveLength(1);
    const sentAt = harness.clock.now().toISOString();
    const delivered = { outboxId, status: 'sent', attempts: 1, lastError: null, sentAt, updatedAt: sentAt };
    expect(await deliverySeenBy(author.headers)).toEqual(delivered);
    const pinned = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${ticket.id}/comments/${posted.json().data.id}`,
      headers: author.headers,
      payload: { isPinned: true },
    });
    expect(pinned.json().data.emailDelivery).toEqual(delivered);

    // A reply's email is read in the same page statement as its thread's.
    const reply = await comment(
      { content: 'And it arrives tomorrow.', shouldSendEmail: true, parentCommentId: posted.json().data.id },
      ticket.id,
      author.headers,
    );
    expect(reply.statusCode).toBe(201);
    const replyOutboxId = await outboxIdOf(reply.json().data.id);
    const listedReply = (await listed(author.headers)).find((item) => item.id === reply.json().data.id);
    expect(listedReply?.emailDelivery).toEqual({
      outboxId: replyOutboxId,
      status: 'pending',
      attempts: 0,
      lastError: null,
      sentAt: null,
      updatedAt: harness.clock.now().toISOString(),
    });
  });
});
