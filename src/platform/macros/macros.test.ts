import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { envelopePage, expectCursorPagedList } from '../../../test/platform-list-pages.js';
import { insertTeamMember } from '../teams/team.repository.js';

type Headers = { 'x-api-key': string };

describe.each(DIALECTS)('macros on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let billing: TestTeam;
  let mia: Awaited<ReturnType<typeof makeUser>>;
  let olaf: Awaited<ReturnType<typeof makeUser>>;
  let deskStatuses: { id: string; name: string }[];
  let billingStatuses: { id: string; name: string }[];

  const send = (method: 'POST' | 'GET' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    harness.app.inject({ method, url, headers, ...(payload && { payload }) });
  const createMacro = (headers: Headers, payload: object) => send('POST', '/v1/macros', headers, payload);
  const ticket = async (payload: object = {}, headers: Headers = acme.headers) => {
    const response = await send('POST', '/v1/tickets', headers, {
      title: 'Printer on fire',
      requestorEmail: 'Pat@customer.test',
      teamId: desk.teamId,
      ...payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; ticketIdentifier: string; teamId: string };
  };
  const apply = (ticketId: string, macroId: string, headers: Headers, payload?: object) =>
    send('POST', `/v1/tickets/${ticketId}/macros/${macroId}/apply`, headers, payload);
  const comments = async (ticketId: string) =>
    (await send('GET', `/v1/tickets/${ticketId}/comments`, acme.headers)).json().data as { id: string }[];

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'WED' });
    billing = await makeTeam(harness, acme, { name: 'Billing', identifier: 'BILL' });
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia Member', email: 'mia@acme.test' });
    olaf = await makeUser(harness, acme.organizationId, { name: 'Olaf Outsider', email: 'olaf@acme.test' });
    await insertTeamMember(harness.db, {
      team_id: desk.teamId,
      user_id: mia.userId,
      organization_id: acme.organizationId,
      is_admin: false,
      invited_by_id: null,
      joined_at: TEST_NOW,
    });
    const statuses = async (teamId: string) =>
      (await send('GET', `/v1/tickets/statuses?teamId=${teamId}`, acme.headers)).json().data;
    deskStatuses = await statuses(desk.teamId);
    billingStatuses = await statuses(billing.teamId);
  });
  afterAll(() => harness.close());

  it('creates a personal macro that only its owner sees, and reads, lists, changes and deletes it', async () => {
    const created = await createMacro(mia.headers, {
      name: '  Greeting ',
      content: 'Hi {{ requestor.firstName }}, about {{ticket.identifier}}.',
    });
    expect(created.statusCode, created.body).toBe(201);
    const macro = created.json().data;
    expect(macro).toMatchObject({
      name: 'Greeting',
      commentVisibility: 'public',
      shouldSendEmail: false,
      actions: {},
      teamId: null,
      ownerId: mia.userId,
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    expect((await send('GET', `/v1/macros/${macro.id}`, mia.headers)).json().data).toEqual(macro);
    for (const headers of [olaf.headers, acme.headers, globex.headers]) {
      expect((await send('GET', `/v1/macros/${macro.id}`, headers)).statusCode).toBe(404);
      expect((await send('PATCH', `/v1/macros/${macro.id}`, headers, { name: 'Mine now' })).statusCode).toBe(404);
      expect((await send('DELETE', `/v1/macros/${macro.id}`, headers)).statusCode).toBe(404);
      const listed = (await send('GET', '/v1/macros', headers)).json().data as { id: string }[];
      expect(listed.map((row) => row.id)).not.toContain(macro.id);
    }
    const changed = await send('PATCH', `/v1/macros/${macro.id}`, mia.headers, {
      content: 'Hello {{requestor.name}}',
      commentVisibility: 'private',
      actions: { assignedAgentId: 'me' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({
      name: 'Greeting',
      content: 'Hello {{requestor.name}}',
      commentVisibility: 'private',
      actions: { assignedAgentId: 'me' },
    });
    const deleted = await send('DELETE', `/v1/macros/${macro.id}`, mia.headers);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.id).toBe(macro.id);
    expect((await send('GET', `/v1/macros/${macro.id}`, mia.headers)).statusCode).toBe(404);
  });

  it('refuses an unknown placeholder with a 400 naming it and the field, and writes nothing', async () => {
    const before = (await send('GET', '/v1/macros', mia.headers)).json().data.length;
    const response = await createMacro(mia.headers, { name: 'Bad', content: 'Hi {{requestor.first_name}} and {{ticket.title}}' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.json().message).toContain('content');
    expect(response.json().message).toContain('{{requestor.first_name}}');
    expect(response.json().message).toContain('{{requestor.firstName}}');
    const good = (await createMacro(mia.headers, { name: 'Good', content: 'Hi' })).json().data;
    const patched = await send('PATCH', `/v1/macros/${good.id}`, mia.headers, { content: '{{agent.phone}}' });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().message).toContain('{{agent.phone}}');
    expect((await send('GET', `/v1/macros/${good.id}`, mia.headers)).json().data.content).toBe('Hi');
    expect((await send('GET', '/v1/macros', mia.headers)).json().data.length).toBe(before + 1);
  });

  it('validates every field and action: 400 naming it, another organization team 404', async () => {
    const globexTeam = await makeTeam(harness, globex, { identifier: 'GLO' });
    const globexTag = await send('POST', `/v1/teams/${globexTeam.teamId}/tags`, globex.headers, { name: 'vip' });
    const skillTag = (
      await send('POST', `/v1/teams/${desk.teamId}/tags`, acme.headers, { name: 'french', type: 'skills' })
    ).json().data.items[0];
    const billingTag = (await send('POST', `/v1/teams/${billing.teamId}/tags`, acme.headers, { name: 'refund' })).json().data
      .items[0];
    const cases: [object, number, string][] = [
      [{ name: 'x', content: 'y', teamId: globexTeam.teamId }, 404, 'Team not found!'],
      [{ name: 'x', content: 'y', unknown: 1 }, 400, 'unknown'],
      [{ name: '', content: 'y' }, 400, 'name'],
      [{ name: '   ', content: 'y' }, 400, 'name'],
      [{ name: 'x', content: '  ' }, 400, 'content'],
      [{ name: 'x', content: 'y', commentVisibility: 'secret' }, 400, 'commentVisibility'],
      [{ name: 'x', content: 'y', teamId: desk.teamId, actions: { statusId: billingStatuses[0]?.id } }, 400, 'actions.statusId'],
      [{ name: 'x', content: 'y', actions: { statusId: acme.userId } }, 400, 'actions.statusId'],
      [{ name: 'x', content: 'y', actions: { statusName: 'Pending forever' } }, 400, 'actions.statusName'],
      [{ name: 'x', content: 'y', teamId: desk.teamId, actions: { priorityName: 'Meh' } }, 400, 'actions.priorityName'],
      [{ name: 'x', content: 'y', actions: { assignedAgentId: globex.userId } }, 400, 'actions.assignedAgentId'],
      [{ name: 'x', content: 'y', actions: { assignedAgentId: 'you' } }, 400, 'assignedAgentId'],
      [{ name: 'x', content: 'y', actions: { addTagIds: [globexTag.json().data.items[0].id] } }, 400, 'actions.addTagIds[0]'],
      [{ name: 'x', content: 'y', actions: { addTagIds: [skillTag.id] } }, 400, 'actions.addTagIds[0]'],
      [{ name: 'x', content: 'y', teamId: desk.teamId, actions: { addTagIds: [billingTag.id] } }, 400, 'actions.addTagIds[0]'],
      [{ name: 'x', content: 'y', actions: { setPriority: 'High' } }, 400, 'setPriority'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await createMacro(acme.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().message, JSON.stringify(payload)).toContain(message);
    }
    // A personal macro may name a tag or status of any team of the organization.
    const personal = await createMacro(acme.headers, {
      name: 'Refund',
      content: 'Refunded.',
      actions: { addTagIds: [billingTag.id], statusId: billingStatuses[0]?.id },
    });
    expect(personal.statusCode, personal.body).toBe(201);
    const foreign = await send('GET', `/v1/macros/${personal.json().data.id}`, globex.headers);
    expect(foreign.statusCode).toBe(404);
    const applied = await apply((await ticket()).id, personal.json().data.id, globex.headers);
    expect(applied.statusCode).toBe(404);
  });

  it('names a status and priority of a team that has had no ticket yet (its options are seeded then)', async () => {
    const fresh = await makeTeam(harness, acme, { name: 'Fresh', identifier: 'FRESH' });
    const created = await createMacro(acme.headers, {
      name: 'Close it',
      content: 'Done.',
      teamId: fresh.teamId,
      actions: { statusName: 'Closed', priorityName: 'low' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.actions).toEqual({ statusName: 'Closed', priorityName: 'low' });
  });

  it('shares a macro with a team: its members see and apply it, only admins manage it', async () => {
    const byMember = await createMacro(mia.headers, { name: 'Shared', content: 'Hi', teamId: desk.teamId });
    expect(byMember.statusCode).toBe(403);
    const created = await createMacro(acme.headers, {
      name: 'Desk: take it',
      content: 'On it, {{requestor.firstName}}.',
      teamId: desk.teamId,
      actions: { assignedAgentId: 'me', statusName: 'In progress' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const macro = created.json().data;
    expect((await send('GET', `/v1/macros/${macro.id}`, mia.headers)).statusCode).toBe(200);
    expect(
      (await send('GET', `/v1/macros?teamId=${desk.teamId}`, mia.headers)).json().data.map((m: { id: string }) => m.id),
    ).toEqual([macro.id]);
    expect((await send('GET', `/v1/macros/${macro.id}`, olaf.headers)).statusCode).toBe(404);
    expect((await send('PATCH', `/v1/macros/${macro.id}`, mia.headers, { name: 'Mine' })).statusCode).toBe(403);
    expect((await send('DELETE', `/v1/macros/${macro.id}`, mia.headers)).statusCode).toBe(403);
    // Mia applies it: the ticket is hers now, and in progress.
    const target = await ticket();
    const applied = await apply(target.id, macro.id, mia.headers);
    expect(applied.statusCode, applied.body).toBe(201);
    expect(applied.json().data.ticket).toMatchObject({ assignedAgentId: mia.userId, status: 'In progress' });
    expect(applied.json().data.comment).toMatchObject({ content: 'On it, Pat.', authorId: mia.userId });
    // Moving it back to personal takes the admin's rights on the team; it is then the owner's alone.
    const moved = await send('PATCH', `/v1/macros/${macro.id}`, acme.headers, { teamId: null });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await send('GET', `/v1/macros/${macro.id}`, mia.headers)).statusCode).toBe(404);
  });

  it('applies a macro: placeholders escaped as text, the reply posted and every action applied', async () => {
    const target = await ticket({ title: '[click](https://evil.example) **now** <img src=x onerror=alert(1)>' });
    const escalated = (await send('POST', `/v1/teams/${desk.teamId}/tags`, acme.headers, { name: 'escalated' }))
      .json()
      .data.items.find((tag: { name: string }) => tag.name === 'escalated');
    const temporary = (await send('POST', `/v1/teams/${desk.teamId}/tags`, acme.headers, { name: 'temporary' }))
      .json()
      .data.items.find((tag: { name: string }) => tag.name === 'temporary');
    const macro = (
      await createMacro(acme.headers, {
        name: 'Escalate',
        content:
          'Hi {{requestor.firstName}},\n\nWe are on **{{ticket.title}}** ({{ticket.identifier}}, {{ticket.status}}).\n\n— {{agent.name}} <{{requestor.email}}>',
        actions: {
          statusName: 'on hold',
          priorityName: 'Urgent',
          assignedAgentId: mia.userId,
          addTagIds: [escalated.id, temporary.id],
        },
      })
    ).json().data;
    // A tag deleted since the macro was saved is passed over.
    await send('DELETE', `/v1/teams/${desk.teamId}/tags/${temporary.id}`, acme.headers);
    const response = await apply(target.id, macro.id, acme.headers);
    expect(response.statusCode, response.body).toBe(201);
    const { comment, ticket: after } = response.json().data;
    expect(after).toMatchObject({
      id: target.id,
      status: 'On hold',
      priority: 'Urgent',
      assignedAgentId: mia.userId,
      tags: [{ id: escalated.id, name: 'escalated' }],
    });
    // Assigned by the macro: Mia is told, as a PATCH would tell her.
    const toMia = await harness.db
      .selectFrom('email_outbox')
      .select(['subject'])
      .where('to_address', '=', 'mia@acme.test')
      .execute();
    expect(toMia.some((email) => email.subject.includes(target.ticketIdentifier))).toBe(true);
    // The timeline records each change, by the agent who applied the macro.
    const activities = (await send('GET', `/v1/tickets/${target.id}/activities`, acme.headers)).json().data as {
      field: string;
      actor: { type: string; id: string };
    }[];
    expect(activities.map((entry) => entry.field).sort()).toEqual(['assignee', 'created', 'priority', 'status', 'tags']);
    expect(activities.filter((entry) => entry.field !== 'created').every((entry) => entry.actor.id === acme.userId)).toBe(true);
    expect(comment).toMatchObject({
      ticketId: target.id,
      commentVisibility: 'public',
      commentType: 'comment',
      metadata: { macroId: macro.id, macroName: 'Escalate' },
    });
    expect(comment.contentHtml).toContain('<strong>');
    expect(comment.contentHtml).not.toMatch(/<a |<img/);
    expect(comment.contentHtml).toContain('[click](https://evil.example) **now** &lt;img src=x onerror=alert(1)&gt;');
    expect(comment.content).toContain('We are on [click](https://evil.example) **now** <img src=x onerror=alert(1)>');
    expect(comment.content).toContain(`(${target.ticketIdentifier}, Open)`);
    expect(comment.content).toContain('Hi Pat,');
    expect(comment.content).toContain('<Pat@customer.test>');
    expect((await comments(target.id)).map((row) => row.id)).toEqual([comment.id]);
    const fetched = (await send('GET', `/v1/tickets/${target.id}`, acme.headers)).json().data;
    expect(fetched).toEqual(after);
  });

  it('posts a private macro as an internal note, and queues the email of a public one on request', async () => {
    const note = (
      await createMacro(acme.headers, { name: 'Note', content: 'Checked logs.', commentVisibility: 'private' })
    ).json().data;
    const target = await ticket();
    const posted = (await apply(target.id, note.id, acme.headers, { shouldSendEmail: true })).json().data.comment;
    expect(posted).toMatchObject({ commentVisibility: 'private', commentType: 'note', emailDelivery: null });
    const reply = (
      await createMacro(acme.headers, { name: 'Reply', content: 'Fixed, {{requestor.firstName}}.', shouldSendEmail: true })
    ).json().data;
    const emailed = await apply(target.id, reply.id, acme.headers);
    expect(emailed.statusCode, emailed.body).toBe(201);
    const emailedComment = emailed.json().data.comment;
    expect(emailedComment.emailDelivery).toMatchObject({ status: 'pending' });
    const queued = await harness.db
      .selectFrom('email_outbox')
      .select(['to_address', 'text_body'])
      .where('dedupe_key', '=', `comment:${emailedComment.id}`)
      .executeTakeFirstOrThrow();
    expect(queued.to_address).toBe('Pat@customer.test');
    expect(queued.text_body).toContain('Fixed, Pat.');
    const silent = await apply(target.id, reply.id, acme.headers, { shouldSendEmail: false });
    expect(silent.json().data.comment.emailDelivery).toBeNull();
  });

  it('is all or nothing: an action that cannot apply to the ticket leaves no comment and no change', async () => {
    const target = await ticket({ priorityName: 'Low' });
    const billingTag = (await send('POST', `/v1/teams/${billing.teamId}/tags`, acme.headers, { name: 'chargeback' }))
      .json()
      .data.items.find((tag: { name: string }) => tag.name === 'chargeback');
    const cases: [object, string][] = [
      [{ priorityName: 'High', statusId: billingStatuses[1]?.id }, 'actions.statusId'],
      [{ priorityName: 'High', addTagIds: [billingTag.id] }, 'actions.addTagIds'],
    ];
    for (const [actions, field] of cases) {
      const macro = (await createMacro(acme.headers, { name: `Broken ${field}`, content: 'Done.', actions })).json().data;
      const response = await apply(target.id, macro.id, acme.headers, { shouldSendEmail: true });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toContain('cannot be applied to this ticket');
      expect(await comments(target.id)).toEqual([]);
      const unchanged = (await send('GET', `/v1/tickets/${target.id}`, acme.headers)).json().data;
      expect(unchanged).toMatchObject({ priority: 'Low', status: 'Open', tags: [] });
      const activities = (await send('GET', `/v1/tickets/${target.id}/activities`, acme.headers)).json().data;
      expect(activities.map((entry: { field: string }) => entry.field)).toEqual(['created']);
    }
    // An agent deleted since the macro was saved: also a 400, nothing written.
    const leaver = await makeUser(harness, acme.organizationId);
    const macro = (
      await createMacro(acme.headers, { name: 'To leaver', content: 'Passing on.', actions: { assignedAgentId: leaver.userId } })
    ).json().data;
    await harness.db.updateTable('users').set({ deleted_at: TEST_NOW }).where('id', '=', leaver.userId).execute();
    const response = await apply(target.id, macro.id, acme.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('assignedAgentId');
    expect(await comments(target.id)).toEqual([]);
    // The same ticket with a status of its own team: applied.
    const fine = (
      await createMacro(acme.headers, { name: 'Fine', content: 'Done.', actions: { statusId: deskStatuses[3]?.id } })
    ).json().data;
    const closed = await apply(target.id, fine.id, acme.headers);
    expect(closed.statusCode, closed.body).toBe(201);
    expect(closed.json().data.ticket).toMatchObject({ status: 'Closed', isClosed: true, closedAt: TEST_NOW });
  });

  it('applies once per deDuplicationKey: a replay changes nothing; the key of another comment is a 409', async () => {
    const target = await ticket();
    const macro = (
      await createMacro(acme.headers, {
        name: 'Pending',
        content: 'Status: {{ticket.status}}',
        actions: { statusName: 'On hold' },
      })
    ).json().data;
    const first = await apply(target.id, macro.id, acme.headers, { deDuplicationKey: 'k1' });
    expect(first.statusCode, first.body).toBe(201);
    await send('PATCH', `/v1/tickets/${target.id}`, acme.headers, { statusName: 'Open' });
    const replay = await apply(target.id, macro.id, acme.headers, { deDuplicationKey: 'k1' });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().data.comment.id).toBe(first.json().data.comment.id);
    expect(replay.json().data.comment.content).toBe('Status: Open');
    expect(replay.json().data.ticket.status).toBe('Open');
    expect(await comments(target.id)).toHaveLength(1);
    await send('POST', `/v1/tickets/${target.id}/comment`, acme.headers, { content: 'Manual', deDuplicationKey: 'k2' });
    const clash = await apply(target.id, macro.id, acme.headers, { deDuplicationKey: 'k2' });
    expect(clash.statusCode).toBe(409);
    expect(await comments(target.id)).toHaveLength(2);
    // Concurrent applications with one key: one reply, one change.
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => apply(target.id, macro.id, acme.headers, { deDuplicationKey: 'k3' })),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(await comments(target.id)).toHaveLength(3);
  });

  it('answers 404 for a ticket the caller cannot see, another organization ticket, or an unknown macro', async () => {
    const macro = (await createMacro(olaf.headers, { name: 'Olaf', content: 'Hi' })).json().data;
    const hidden = await ticket({ isPrivate: true });
    const response = await apply(hidden.id, macro.id, olaf.headers);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Ticket not found!');
    const globexDesk = await makeTeam(harness, globex, { identifier: 'GLD' });
    const foreign = await ticket({ teamId: globexDesk.teamId }, globex.headers);
    expect((await apply(foreign.id, macro.id, olaf.headers)).statusCode).toBe(404);
    const missing = await apply((await ticket()).id, '01J00000000000000000000000', olaf.headers);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Macro not found!');
    expect((await apply((await ticket()).id, 'not-a-ulid', olaf.headers)).statusCode).toBe(400);
  });

  it('lists the caller macros by name, cursor-paged', async () => {
    const lister = await makeUser(harness, acme.organizationId);
    const ids: { id: string; name: string }[] = [];
    for (let index = 0; index < 25; index += 1) {
      const name = `Macro ${String((index * 7) % 25).padStart(2, '0')}`;
      ids.push({ id: (await createMacro(lister.headers, { name, content: 'x' })).json().data.id, name });
    }
    const globexIds: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      globexIds.push((await createMacro(globex.headers, { name: `G${index}`, content: 'x' })).json().data.id);
    }
    await expectCursorPagedList({
      app: harness.app,
      url: '/v1/macros?limit=10',
      headers: lister.headers,
      read: envelopePage,
      expected: [...ids].sort((a, b) => (a.name < b.name ? -1 : 1)).map((row) => row.id),
      pageNumbers: false,
      other: { url: '/v1/macros?limit=10', headers: globex.headers, ids: globexIds },
    });
  });

  it('finds the caller macros whose name holds a text, in any case, its wildcards taken as text', async () => {
    const finder = await makeUser(harness, acme.organizationId);
    const named = async (name: string) => (await createMacro(finder.headers, { name, content: 'x' })).json().data.id as string;
    const refund = await named('Refund issued');
    const partial = await named('Partial REFUND');
    const percent = await named('100% off');
    await named('Greeting');
    await createMacro(globex.headers, { name: 'Refund (Globex)', content: 'x' });
    const found = async (text: string) =>
      (await send('GET', `/v1/macros?nameContains=${encodeURIComponent(text)}`, finder.headers))
        .json()
        .data.map((macro: { id: string }) => macro.id);
    expect(await found('refund')).toEqual([partial, refund]);
    expect(await found('0%')).toEqual([percent]);
    expect(await found('_')).toEqual([]);
    const page = await send('GET', '/v1/macros?nameContains=refund&limit=1', finder.headers);
    expect(page.json().data.map((macro: { id: string }) => macro.id)).toEqual([partial]);
    const next = await send('GET', `/v1/macros?nameContains=refund&limit=1&cursor=${page.json().nextCursor}`, finder.headers);
    expect(next.json()).toMatchObject({ data: [{ id: refund }], nextCursor: null });
    const blank = await send('GET', '/v1/macros?nameContains=', finder.headers);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toMatch(/^nameContains /);
  });

  it('keeps a description of the macro: trimmed, a blank one as none, at most 500 characters, cleared with null', async () => {
    const writer = await makeUser(harness, acme.organizationId);
    const created = await createMacro(writer.headers, {
      name: 'Refund',
      content: 'x',
      description: '  For refunds already issued ',
    });
    expect(created.statusCode, created.body).toBe(201);
    const macro = created.json().data;
    expect(macro.description).toBe('For refunds already issued');
    expect((await createMacro(writer.headers, { name: 'Plain', content: 'x' })).json().data.description).toBeNull();
    expect(
      (await createMacro(writer.headers, { name: 'Blank', content: 'x', description: '  ' })).json().data.description,
    ).toBeNull();

    const tooLong = await send('PATCH', `/v1/macros/${macro.id}`, writer.headers, { description: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toMatch(/^description /);
    expect((await send('GET', `/v1/macros/${macro.id}`, writer.headers)).json().data.description).toBe(
      'For refunds already issued',
    );
    const cleared = await send('PATCH', `/v1/macros/${macro.id}`, writer.headers, { description: null });
    expect(cleared.json().data).toMatchObject({ description: null, name: 'Refund' });
  });
});
