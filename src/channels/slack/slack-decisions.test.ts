import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { makeSlackChannelRow, makeSlackDecision } from '../../../test/slack-app.js';

describe.each(DIALECTS)('Slack detection decisions and their report on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  /** The decisions of acme, oldest first. */
  const made: Awaited<ReturnType<typeof makeSlackDecision>>[] = [];

  const api = (method: 'GET' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) =>
    harness.app.inject({ method, url: `/v1/integrations/slack${url}`, headers, ...(payload === undefined ? {} : { payload }) });
  const mark = (id: string, value: 'right' | 'wrong' | null, headers = acme.headers) =>
    api('PATCH', `/decisions/${id}`, headers, { mark: value });
  const decisionRows = () => harness.db.selectFrom('slack_requests').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia' });
    await makeSlackChannelRow(harness, acme.organizationId, 'C0CUSTOMER', { name: 'globex-shared', kind: 'customer' });
    const decide = (channel: string, mode: string, isRequest: boolean) =>
      makeSlackDecision(harness, acme.organizationId, {
        channel_id: channel,
        mode,
        is_request: isRequest ? 1 : 0,
        reason: isRequest ? "question mark and keyword 'broken'" : 'no keyword, no question',
      });
    // C0CUSTOMER in rules mode: 3 requests right, 1 wrong; 2 chatter right, 1 wrong; 2 left unmarked.
    for (const isRequest of [true, true, true, true, false, false, false, true, false]) {
      made.push(await decide('C0CUSTOMER', 'rules', isRequest));
    }
    made.push(await decide('C0CUSTOMER', 'ai', false));
    made.push(await decide('C0OTHER', 'all', true));
    await makeSlackDecision(harness, globex.organizationId, { channel_id: 'C0CUSTOMER' });
  });
  beforeEach(() => harness.clock.set(TEST_NOW));
  afterAll(() => harness?.close());

  it('lists the decisions newest first, with their channel, filtered and paged by cursor', async () => {
    const first = await api('GET', '/decisions?limit=4', acme.headers);
    expect(first.statusCode, first.body).toBe(200);
    const newest = made.at(-1);
    expect(first.json().data[0]).toEqual({
      id: newest?.id,
      channelId: 'C0OTHER',
      channelName: null,
      slackUserId: 'U0CUSTOMER',
      text: newest?.text,
      mode: 'all',
      isRequest: true,
      reason: "question mark and keyword 'broken'",
      ticketId: null,
      mark: null,
      markedBy: null,
      markedAt: null,
      createdAt: newest?.created_at,
    });
    const ids: string[] = first.json().data.map((decision: { id: string }) => decision.id);
    let cursor: string | null = first.json().nextCursor;
    while (cursor) {
      const page = await api('GET', `/decisions?limit=4&cursor=${cursor}`, acme.headers);
      ids.push(...page.json().data.map((decision: { id: string }) => decision.id));
      cursor = page.json().nextCursor;
    }
    expect(ids).toEqual(made.map((decision) => decision.id).reverse());

    const chatter = await api('GET', '/decisions?channelId=C0CUSTOMER&isRequest=false', acme.headers);
    expect(chatter.json().data.map((decision: { id: string }) => decision.id)).toEqual(
      made
        .filter((decision) => decision.channel_id === 'C0CUSTOMER' && decision.is_request === 0)
        .map((d) => d.id)
        .reverse(),
    );
    expect(chatter.json().data[0].channelName).toBe('globex-shared');
  });

  it('refuses bad filters and cursors with a 400, and anyone but admins with a 403', async () => {
    for (const query of [
      'mark=maybe',
      'isRequest=perhaps',
      'channelId=general',
      'limit=0',
      'limit=101',
      'cursor=bm9wZQ',
      'x=1',
    ]) {
      const response = await api('GET', `/decisions?${query}`, acme.headers);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
    }
    expect((await api('GET', '/decisions', member.headers)).statusCode).toBe(403);
    expect((await mark(made[0]?.id ?? '', 'right', member.headers)).statusCode).toBe(403);
    expect((await api('GET', '/detection-report', member.headers)).statusCode).toBe(403);
    for (const query of ['from=yesterday', 'from=2026-01-16T00:00:00Z&to=2026-01-15T00:00:00Z', 'channelId=x']) {
      expect((await api('GET', `/detection-report?${query}`, acme.headers)).statusCode, query).toBe(400);
    }
  });

  it('keeps who marked a decision and when; null takes the mark back', async () => {
    const target = made[0]?.id ?? '';
    harness.clock.set('2026-01-20T10:00:00.000Z');
    const marked = await mark(target, 'wrong');
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().data).toMatchObject({
      id: target,
      mark: 'wrong',
      markedBy: acme.userId,
      markedAt: '2026-01-20T10:00:00.000Z',
    });
    const cleared = await mark(target, null);
    expect(cleared.json().data).toMatchObject({ mark: null, markedBy: null, markedAt: null });
  });

  it("refuses a bad mark with a 400 and another organization's decision with a 404, writing nothing", async () => {
    const before = await decisionRows();
    const target = made[0]?.id ?? '';
    for (const body of [{ mark: 'maybe' }, {}, { mark: 'right', extra: 1 }, { mark: true }]) {
      const response = await api('PATCH', `/decisions/${target}`, acme.headers, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const theirs = (await api('GET', '/decisions', globex.headers)).json().data[0].id;
    const foreign = await mark(theirs, 'right');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ statusCode: 404, message: 'Slack decision not found', error: 'Not Found' });
    expect((await mark(target, 'right', globex.headers)).statusCode).toBe(404);
    expect((await mark('01JNOTHING0000000000000000', 'right')).statusCode).toBe(404);
    expect(await decisionRows()).toEqual(before);
  });

  it('answers precision and recall per channel and mode from the hand-marked decisions', async () => {
    const marks: ('right' | 'wrong' | null)[] = ['right', 'right', 'right', 'wrong', 'right', 'right', 'wrong', null, null];
    for (const [index, value] of marks.entries()) {
      if (value) {
        expect((await mark(made[index]?.id ?? '', value)).statusCode).toBe(200);
      }
    }
    expect((await mark(made[9]?.id ?? '', 'right')).statusCode).toBe(200);
    expect((await mark(made[10]?.id ?? '', 'wrong')).statusCode).toBe(200);
    const report = await api('GET', '/detection-report', acme.headers);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().data).toEqual([
      {
        channelId: 'C0CUSTOMER',
        channelName: 'globex-shared',
        mode: 'ai',
        marked: 1,
        unmarked: 0,
        truePositives: 0,
        falsePositives: 0,
        trueNegatives: 1,
        falseNegatives: 0,
        precision: null,
        recall: null,
      },
      {
        channelId: 'C0CUSTOMER',
        channelName: 'globex-shared',
        mode: 'rules',
        marked: 7,
        unmarked: 2,
        truePositives: 3,
        falsePositives: 1,
        trueNegatives: 2,
        falseNegatives: 1,
        precision: 0.75,
        recall: 0.75,
      },
      {
        channelId: 'C0OTHER',
        channelName: null,
        mode: 'all',
        marked: 1,
        unmarked: 0,
        truePositives: 0,
        falsePositives: 1,
        trueNegatives: 0,
        falseNegatives: 0,
        precision: 0,
        recall: null,
      },
    ]);
    const one = await api('GET', '/detection-report?channelId=C0OTHER', acme.headers);
    expect(one.json().data.map((row: { channelId: string }) => row.channelId)).toEqual(['C0OTHER']);
    // The first three decisions only (made a second apart from TEST_NOW): three requests marked right.
    const early = await api('GET', `/detection-report?from=${made[0]?.created_at}&to=${made[3]?.created_at}`, acme.headers);
    expect(early.json().data).toEqual([
      expect.objectContaining({ mode: 'rules', marked: 3, truePositives: 3, precision: 1, recall: 1 }),
    ]);
    const marked = await api('GET', '/decisions?mark=wrong', acme.headers);
    expect(
      marked
        .json()
        .data.map((decision: { id: string }) => decision.id)
        .sort(),
    ).toEqual([made[3]?.id, made[6]?.id, made[10]?.id].sort());
    const unmarked = await api('GET', '/decisions?mark=unmarked', acme.headers);
    expect(
      unmarked
        .json()
        .data.map((decision: { id: string }) => decision.id)
        .sort(),
    ).toEqual([made[7]?.id, made[8]?.id].sort());
    // Another organization sees none of it.
    expect((await api('GET', '/detection-report', globex.headers)).json().data).toEqual([
      expect.objectContaining({ channelId: 'C0CUSTOMER', marked: 0, unmarked: 1, precision: null }),
    ]);
  });
});
