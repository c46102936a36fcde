import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

const condition = (field: string, operator: string, value?: unknown) => JSON.stringify({ field, operator, value });

describe.each(DIALECTS)('ticket tags on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let other: TestTeam;
  const tag: Record<string, { id: string; name: string; color: string | null }> = {};

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    desk = await makeTeam(harness, acme, { name: 'Desk', identifier: 'DESK' });
    other = await makeTeam(harness, acme, { name: 'Other', identifier: 'OTH' });
    const globexTeam = await makeTeam(harness, globex, { name: 'Globex desk' });
    const made = async (key: string, teamId: string, body: object, headers = acme.headers) => {
      const response = await harness.app.inject({ method: 'POST', url: `/v1/teams/${teamId}/tags`, headers, payload: body });
      expect(response.statusCode, response.body).toBe(201);
      const items = response.json().data.items as { id: string; name: string; color: string | null }[];
      const found = items.find((item) => item.name === (body as { name: string }).name);
      if (!found) {
        throw new Error('tag not made');
      }
      tag[key] = { id: found.id, name: found.name, color: found.color };
    };
    await made('vip', desk.teamId, { name: 'VIP', color: '#FF0000' });
    await made('refund', desk.teamId, { name: 'refund' });
    await made('skill', desk.teamId, { name: 'French', type: 'skills' });
    await made('otherVip', other.teamId, { name: 'vip' });
    await made('otherOnly', other.teamId, { name: 'Elsewhere' });
    await made('globex', globexTeam.teamId, { name: 'Globex' }, globex.headers);
  });
  afterAll(() => harness.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method, url, headers, payload });
  const create = (extra: object = {}) =>
    call('POST', '/v1/tickets', { title: 'Tagged', requestorEmail: 'pat@customer.test', teamId: desk.teamId, ...extra });
  const created = async (extra: object = {}) => {
    const response = await create(extra);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const view = (key: string) => tag[key];
  const counts = async () => ({
    tickets: Number(
      (
        await harness.db
          .selectFrom('tickets')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    tags: Number(
      (
        await harness.db
          .selectFrom('ticket_tags')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  it('sets tags on create by id or by name (ignoring case), answers them by name with colours, on get and list too', async () => {
    const ticket = await created({ tagIds: [view('vip')?.id, 'REFUND', view('vip')?.id] });
    expect(ticket.tags).toEqual([view('refund'), { id: view('vip')?.id, name: 'VIP', color: '#FF0000' }]);
    expect((await call('GET', `/v1/tickets/${ticket.id}`)).json().data.tags).toEqual(ticket.tags);
    const plain = await created();
    expect(plain.tags).toEqual([]);
    const listed = (await call('GET', `/v1/tickets?teamId=${desk.teamId}&limit=100`)).json().data as {
      id: string;
      tags: unknown[];
    }[];
    expect(listed.find((item) => item.id === ticket.id)?.tags).toEqual(ticket.tags);
    expect(listed.find((item) => item.id === plain.id)?.tags).toEqual([]);
  });

  it.each([
    ['a tag of another team', () => view('otherOnly')?.id, 'another team'],
    ['a skills tag', () => view('skill')?.id, 'not a ticket tag'],
    ["another organization's tag", () => view('globex')?.id, 'neither a tag id'],
    ['an unknown name', () => 'no such tag', 'neither a tag id'],
  ])('refuses %s on create with a 400 naming tagIds[1], writing nothing', async (_, ref, words) => {
    const before = await counts();
    const response = await create({ tagIds: [view('vip')?.id, ref()] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.json().message).toContain('tagIds[1]');
    expect(response.json().message).toContain(words);
    expect(await counts()).toEqual(before);
  });

  it('refuses tagIds that is not a list of short strings', async () => {
    for (const tagIds of ['VIP', [''], [42], Array.from({ length: 101 }, (_, i) => `t${i}`)]) {
      const response = await create({ tagIds });
      expect(response.statusCode, JSON.stringify(tagIds)).toBe(400);
      expect(response.json().message).toContain('tagIds');
    }
  });

  it('PATCH tagIds replaces the set, [] clears it; a bad tag changes nothing', async () => {
    const ticket = await created({ tagIds: ['vip'] });
    const replaced = await call('PATCH', `/v1/tickets/${ticket.id}`, { tagIds: ['refund'] });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data.tags).toEqual([view('refund')]);
    const bad = await call('PATCH', `/v1/tickets/${ticket.id}`, { tagIds: ['vip', view('otherVip')?.id], title: 'Renamed' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('tagIds[1]');
    const unchanged = (await call('GET', `/v1/tickets/${ticket.id}`)).json().data;
    expect(unchanged).toMatchObject({ title: 'Tagged', tags: [view('refund')] });
    const cleared = await call('PATCH', `/v1/tickets/${ticket.id}`, { tagIds: [] });
    expect(cleared.json().data.tags).toEqual([]);
  });

  it('POST /tags adds (keeping what is there), DELETE /tags?tagIds= removes (ignoring tags it does not have)', async () => {
    const ticket = await created({ tagIds: ['refund'] });
    const added = await call('POST', `/v1/tickets/${ticket.id}/tags`, { tagIds: ['vip', 'refund'] });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data.tags.map((item: { name: string }) => item.name)).toEqual(['refund', 'VIP']);
    const removed = await call('DELETE', `/v1/tickets/${ticket.id}/tags?tagIds=${view('vip')?.id}&tagIds=refund`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.tags).toEqual([]);
    const again = await call('DELETE', `/v1/tickets/${ticket.id}/tags?tagIds=vip`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.tags).toEqual([]);
  });

  it('answers 400 for bad tag route input and 404 for a ticket of another organization, writing nothing', async () => {
    const ticket = await created({ tagIds: ['refund'] });
    const before = await counts();
    const cases: [string, string, object | undefined, number, string][] = [
      ['POST', `/v1/tickets/${ticket.id}/tags`, {}, 400, 'tagIds'],
      ['POST', `/v1/tickets/${ticket.id}/tags`, { tagIds: ['vip'], extra: 1 }, 400, 'extra'],
      ['POST', `/v1/tickets/${ticket.id}/tags`, { tagIds: [view('skill')?.id] }, 400, 'tagIds[0]'],
      ['DELETE', `/v1/tickets/${ticket.id}/tags`, undefined, 400, 'tagIds'],
      ['DELETE', `/v1/tickets/${ticket.id}/tags?tagIds=${view('globex')?.id}`, undefined, 400, 'tagIds[0]'],
      ['DELETE', `/v1/tickets/${ticket.id}/tags?tagIds=vip&color=red`, undefined, 400, 'color'],
    ];
    for (const [method, url, payload, status, words] of cases) {
      const response = await call(method as 'POST', url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(status);
      expect(response.json().message, `${method} ${url}`).toContain(words);
    }
    for (const [method, url] of [
      ['POST', `/v1/tickets/${ticket.id}/tags`],
      ['DELETE', `/v1/tickets/${ticket.id}/tags?tagIds=refund`],
    ] as const) {
      const response = await call(method, url, method === 'POST' ? { tagIds: ['vip'] } : undefined, globex.headers);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message: 'Ticket not found!', error: 'Not Found' });
    }
    const unknown = await call('POST', '/v1/tickets/01KAAAAAAAAAAAAAAAAAAAAAAA/tags', { tagIds: ['vip'] });
    expect(unknown.statusCode).toBe(404);
    expect(await counts()).toEqual(before);
    expect((await call('GET', `/v1/tickets/${ticket.id}`)).json().data.tags).toEqual([view('refund')]);
  });

  it('deleting a team tag takes it off its tickets; turning it into a skills tag too', async () => {
    const team = await makeTeam(harness, acme, { identifier: 'GONE' });
    const tags = (
      await call('POST', `/v1/teams/${team.teamId}/tags`, { name: 'doomed' }).then(async () =>
        call('POST', `/v1/teams/${team.teamId}/tags`, { name: 'skillful' }),
      )
    ).json().data.items as { id: string; name: string }[];
    const doomed = tags.find((item) => item.name === 'doomed')?.id as string;
    const skillful = tags.find((item) => item.name === 'skillful')?.id as string;
    const ticket = (
      await call('POST', '/v1/tickets', {
        title: 'x',
        requestorEmail: 'pat@customer.test',
        teamId: team.teamId,
        tagIds: [doomed, skillful],
      })
    ).json().data;
    expect(ticket.tags).toHaveLength(2);
    expect((await call('DELETE', `/v1/teams/${team.teamId}/tags/${doomed}`)).statusCode).toBe(200);
    expect((await call('GET', `/v1/tickets/${ticket.id}`)).json().data.tags.map((item: { id: string }) => item.id)).toEqual([
      skillful,
    ]);
    expect((await call('PUT', `/v1/teams/${team.teamId}/tags/${skillful}`, { type: 'skills' })).statusCode).toBe(200);
    expect((await call('GET', `/v1/tickets/${ticket.id}`)).json().data.tags).toEqual([]);
    const left = await harness.db.selectFrom('ticket_tags').select('tag_id').where('ticket_id', '=', ticket.id).execute();
    expect(left).toEqual([]);
    const timeline = (await call('GET', `/v1/tickets/${ticket.id}/activities`)).json().data;
    expect(timeline.slice(0, 2)).toMatchObject([
      { field: 'tags', oldValue: [{ id: skillful, name: 'skillful' }], newValue: [], actor: { type: 'user', id: acme.userId } },
      {
        field: 'tags',
        oldValue: [
          { id: doomed, name: 'doomed' },
          { id: skillful, name: 'skillful' },
        ],
        newValue: [{ id: skillful, name: 'skillful' }],
      },
    ]);
  });

  it('routing rules test tags (contains / not_contains); a ticket routed to another team takes its tags of the same names', async () => {
    const front = await makeTeam(harness, acme, { identifier: 'FRT' });
    const vipTeam = await makeTeam(harness, acme, { identifier: 'VIPT' });
    const frontTags = async (name: string) =>
      (await call('POST', `/v1/teams/${front.teamId}/tags`, { name }))
        .json()
        .data.items.find((item: { name: string }) => item.name === name).id as string;
    const frontVip = await frontTags('vip');
    await frontTags('angry');
    await frontTags('calm');
    const landed = (await call('POST', `/v1/teams/${vipTeam.teamId}/tags`, { name: 'VIP' })).json().data.items[0];
    const rule = await call('POST', `/v1/teams/${front.teamId}/routing`, {
      name: 'VIPs not calm',
      resultTeamId: vipTeam.teamId,
      andRules: [condition('tags', 'contains', 'vip'), condition('tags', 'not_contains', 'calm')],
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const base = { title: 'Help', requestorEmail: 'pat@customer.test', teamId: front.teamId };
    const stays = (await call('POST', '/v1/tickets', { ...base, tagIds: ['vip', 'calm'] })).json().data;
    expect(stays.teamId).toBe(front.teamId);
    expect(stays.tags.map((item: { name: string }) => item.name)).toEqual(['calm', 'vip']);
    const moved = (await call('POST', '/v1/tickets', { ...base, tagIds: [frontVip, 'angry'] })).json().data;
    expect(moved.teamId).toBe(vipTeam.teamId);
    // `vip` has a counterpart in the new team, `angry` has none and is dropped.
    expect(moved.tags).toEqual([{ id: landed.id, name: 'VIP', color: null }]);
    const simulated = await call('POST', `/v1/teams/${front.teamId}/routing/simulate`, { tagIds: ['vip'] });
    expect(simulated.json().data.teamId).toBe(vipTeam.teamId);
    const timeline = (await call('GET', `/v1/tickets/${moved.id}/activities`)).json().data as {
      field: string;
      actor: { type: string };
      oldValue: unknown;
      newValue: unknown;
    }[];
    expect(timeline.find((entry) => entry.field === 'tags')).toMatchObject({
      actor: { type: 'routing' },
      oldValue: [
        { id: expect.any(String), name: 'angry' },
        { id: frontVip, name: 'vip' },
      ],
      newValue: [{ id: landed.id, name: 'VIP' }],
    });
  });

  it('rerouting to another team maps the tags by name and drops the rest', async () => {
    const start = await makeTeam(harness, acme, { identifier: 'STA' });
    const target = await makeTeam(harness, acme, { identifier: 'TGT' });
    const names = async (teamId: string, list: string[]) => {
      for (const name of list) {
        await call('POST', `/v1/teams/${teamId}/tags`, { name });
      }
    };
    await names(start.teamId, ['Billing', 'Legacy']);
    await names(target.teamId, ['billing']);
    const ticket = (
      await call('POST', '/v1/tickets', {
        title: 'Move me',
        requestorEmail: 'pat@customer.test',
        teamId: start.teamId,
        tagIds: ['billing', 'legacy'],
      })
    ).json().data;
    await call('POST', `/v1/teams/${start.teamId}/routing`, { name: 'all', resultTeamId: target.teamId });
    const rerouted = await call('POST', `/v1/tickets/${ticket.id}/route`);
    expect(rerouted.statusCode, rerouted.body).toBe(200);
    expect(rerouted.json().data.ticket.tags.map((item: { name: string }) => item.name)).toEqual(['billing']);
  });
});
