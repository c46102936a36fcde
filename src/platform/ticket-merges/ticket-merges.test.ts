import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

describe.each(DIALECTS)('ticket merges on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let globexTicket: { id: string };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    const globexTeam = await makeTeam(harness, globex, { identifier: 'GLX' });
    globexTicket = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/tickets',
        headers: globex.headers,
        payload: { title: 'Theirs', requestorEmail: 'g@customer.test', teamId: globexTeam.teamId },
      })
    ).json().data;
  });
  afterAll(() => harness.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, payload });
  const make = async (title: string) => {
    const response = await call('POST', '/v1/tickets', { title, requestorEmail: 'pat@customer.test', teamId: desk.teamId });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const comment = async (ticketId: string, content: string, dedupeKey?: string) => {
    const response = await call('POST', `/v1/tickets/${ticketId}/comment`, {
      content,
      commentVisibility: 'private',
      commentType: 'note',
      ...(dedupeKey ? { deDuplicationKey: dedupeKey } : {}),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  };
  const commentsOf = async (ticketId: string) =>
    harness.db
      .selectFrom('ticket_comments')
      .select(['id', 'content', 'comment_type'])
      .where('ticket_id', '=', ticketId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  const merge = (id: string, targetTicketId: string, headers = acme.headers) =>
    call('POST', `/v1/tickets/${id}/merge`, { targetTicketId }, headers);
  const timeline = async (id: string) =>
    (await call('GET', `/v1/tickets/${id}/activities?limit=100`)).json().data as {
      field: string;
      oldValue: unknown;
      newValue: unknown;
    }[];
  const snapshot = async () => ({
    tickets: await harness.db.selectFrom('tickets').selectAll().orderBy('id').execute(),
    comments: await harness.db.selectFrom('ticket_comments').selectAll().orderBy('id').execute(),
    activities: await harness.db.selectFrom('ticket_activities').select(['id']).orderBy('id').execute(),
  });

  it('moves the comments, closes the source with a link, notes both, records both timelines', async () => {
    const source = await make('Duplicate');
    const target = await make('Original');
    const first = await comment(source.id, 'From the duplicate');
    await comment(target.id, 'On the original');
    const response = await merge(source.id, target.id);
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data.movedComments).toBe(1);
    expect(data.source).toMatchObject({
      id: source.id,
      status: 'Closed',
      isClosed: true,
      metadata: { mergedInto: { ticketId: target.id, ticketIdentifier: target.ticketIdentifier } },
    });
    expect(data.target).toMatchObject({ id: target.id, status: 'Open' });
    const moved = await commentsOf(target.id);
    expect(moved.map((row) => row.content)).toEqual([
      'From the duplicate',
      'On the original',
      `${source.ticketIdentifier} was merged into this ticket (1 comment moved here).`,
    ]);
    expect(moved[0]?.id).toBe(first.id);
    expect(await commentsOf(source.id)).toEqual([
      expect.objectContaining({
        comment_type: 'note',
        content: `Merged into ${target.ticketIdentifier}: its comments are there now.`,
      }),
    ]);
    const [merged, closed] = await timeline(source.id);
    expect(merged).toMatchObject({
      field: 'merged',
      newValue: { into: { id: target.id, ticketIdentifier: target.ticketIdentifier } },
    });
    expect(closed).toMatchObject({ field: 'status', oldValue: { name: 'Open' }, newValue: { name: 'Closed' } });
    expect((await timeline(target.id))[0]).toMatchObject({
      field: 'merged',
      newValue: { from: { id: source.id, ticketIdentifier: source.ticketIdentifier }, movedComments: 1 },
    });
  });

  it('keeps the comments of both when they share a dedupe key', async () => {
    const source = await make('Twin A');
    const target = await make('Twin B');
    await comment(source.id, 'same key on the source', 'mail-1');
    await comment(target.id, 'same key on the target', 'mail-1');
    expect((await merge(source.id, target.id)).statusCode).toBe(200);
    const contents = (await commentsOf(target.id)).map((row) => row.content);
    expect(contents).toEqual(expect.arrayContaining(['same key on the source', 'same key on the target']));
  });

  it('refuses a merge into itself (400), twice (409), into a merged or closed ticket (409), across organizations (404), writing nothing', async () => {
    const source = await make('Source');
    const target = await make('Target');
    const closed = await make('Closed one');
    await call('PATCH', `/v1/tickets/${closed.id}`, { statusName: 'Closed' });
    const before = await snapshot();
    const cases: [() => Promise<{ statusCode: number; json(): { message: string } }>, number, string][] = [
      [() => merge(source.id, source.id), 400, 'targetTicketId'],
      [() => merge(source.id, closed.id), 409, 'closed'],
      [() => merge(source.id, globexTicket.id), 404, 'Target ticket not found!'],
      [() => merge(globexTicket.id, source.id), 404, 'Ticket not found!'],
      [() => merge(source.id, target.id, globex.headers), 404, 'Ticket not found!'],
      [() => merge(source.id, '01KAAAAAAAAAAAAAAAAAAAAAAA'), 404, 'Target ticket not found!'],
      [() => call('POST', `/v1/tickets/${source.id}/merge`, {}), 400, 'targetTicketId'],
      [() => call('POST', `/v1/tickets/${source.id}/merge`, { targetTicketId: target.id, note: 'x' }), 400, 'note'],
    ];
    for (const [run, status, words] of cases) {
      const response = await run();
      expect(response.statusCode, words).toBe(status);
      expect(response.json().message).toContain(words);
    }
    expect(await snapshot()).toEqual(before);
    expect((await merge(source.id, target.id)).statusCode).toBe(200);
    const again = await merge(source.id, target.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain(`already merged into ${target.ticketIdentifier}`);
    const other = await make('Another');
    // The source is closed now: merging into it is refused as closed, and the timeline knows it was merged.
    await call('PATCH', `/v1/tickets/${source.id}`, { statusName: 'Open' });
    const intoMerged = await merge(other.id, source.id);
    expect(intoMerged.statusCode).toBe(409);
    expect(intoMerged.json().message).toContain(`merged into ${target.ticketIdentifier}`);
  });
});
