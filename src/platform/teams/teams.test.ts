import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { envelopePage, expectCursorPagedList, idsInOrder } from '../../../test/platform-list-pages.js';

describe.each(DIALECTS)('teams on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId, { name: 'Mia Member', email: 'mia@acme.test' });
  });
  afterAll(() => harness.close());

  const post = (url: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const get = (url: string, headers = acme.headers) => harness.app.inject({ url, headers });
  const teamNames = async () => ((await get('/v1/teams')).json().data as { name: string }[]).map((team) => team.name);

  it('creates a team: 201, identifier upper-cased, caller as owner and admin member, default configuration', async () => {
    const response = await post('/v1/teams', { name: 'Wednesday Desk', identifier: 'wed', color: '#1F74DB', icon: 'inbox' });
    expect(response.statusCode).toBe(201);
    const team = response.json().data;
    expect(team).toMatchObject({
      name: 'Wednesday Desk',
      identifier: 'WED',
      color: '#1F74DB',
      icon: 'inbox',
      description: null,
      parentTeamId: null,
      teamOwnerId: acme.userId,
      fallbackSubTeam: null,
      isActive: true,
      isPrivate: false,
      archivedAt: null,
      createdAt: TEST_NOW,
    });
    expect(team.teamId).toBe(team.id);
    const members = (await get(`/v1/teams/${team.id}/members`)).json().data;
    expect(members).toEqual([
      expect.objectContaining({ id: acme.userId, role: 'ADMIN', isOwner: true, teamName: 'Wednesday Desk' }),
    ]);
    expect((await get(`/v1/teams/${team.id}`)).json().data).toEqual(team);
  });

  it('only organization admins create teams: a member gets 403 and no team is made', async () => {
    const refused = await post('/v1/teams', { name: 'Shadow Desk', identifier: 'SHADOW' }, member.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      statusCode: 403,
      message: 'User does not have access to this resource!',
      error: 'Forbidden',
    });
    const sub = await post(
      '/v1/teams',
      { name: 'Shadow Tier', parentTeamId: (await makeTeam(harness, acme)).teamId },
      member.headers,
    );
    expect(sub.statusCode).toBe(403);
    const made = await harness.db.selectFrom('teams').select('id').where('name', 'in', ['Shadow Desk', 'Shadow Tier']).execute();
    expect(made).toEqual([]);
  });

  it('derives a unique identifier from the name when none is given', async () => {
    const first = (await post('/v1/teams', { name: 'Customer Success' })).json().data;
    const second = (await post('/v1/teams', { name: 'customer success' })).json().data;
    expect(first.identifier).toBe('CS');
    expect(second.identifier).toBe('CS2');
  });

  it('concurrent creates of one name derive distinct identifiers instead of failing', async () => {
    const responses = await Promise.all(Array.from({ length: 3 }, () => post('/v1/teams', { name: 'Race Desk' })));
    expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201]);
    const identifiers = responses.map((response) => response.json().data.identifier).sort();
    expect(identifiers).toEqual(['RD', 'RD2', 'RD3']);
  });

  it('an identifier is unique per organization, case-insensitively (409), but free in another organization', async () => {
    await post('/v1/teams', { name: 'Billing', identifier: 'BILL' });
    const clash = await post('/v1/teams', { name: 'Billing again', identifier: 'bill' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ statusCode: 409, message: 'Team with this identifier already exists!', error: 'Conflict' });
    expect((await post('/v1/teams', { name: 'Billing', identifier: 'BILL' }, globex.headers)).statusCode).toBe(201);
  });

  it.each([
    [{}, 'name is required'],
    [{ name: '' }, 'name must be at least 1 characters long'],
    [{ name: 'X', identifier: '9lives' }, 'identifier has an invalid format'],
    [{ name: 'X', color: 'blue' }, 'color has an invalid format'],
    [{ name: 'X', isPrivate: 'yes' }, 'isPrivate must be a boolean'],
    [{ name: 'X', owner: 'me' }, 'owner is not an accepted field'],
    [{ name: 'X', parentTeamId: 'nope' }, 'parentTeamId has an invalid format'],
  ])('rejects %j with a 400 naming the field, writing nothing', async (payload, message) => {
    const before = await teamNames();
    const response = await post('/v1/teams', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    expect(await teamNames()).toEqual(before);
  });

  it('sub-teams: created under a parent, listed by it, one level deep, parent must be ours', async () => {
    const parent = (await post('/v1/teams', { name: 'Support' })).json().data;
    const child = (await post('/v1/teams', { name: 'Tier 2', parentTeamId: parent.id })).json().data;
    expect(child).toMatchObject({ parentTeamId: parent.id, parentTeamName: 'Support' });
    expect((await get(`/v1/teams/${parent.id}/sub-teams`)).json().data.map((team: { id: string }) => team.id)).toEqual([
      child.id,
    ]);

    const grandchild = await post('/v1/teams', { name: 'Tier 3', parentTeamId: child.id });
    expect(grandchild.statusCode).toBe(400);
    expect(grandchild.json().message).toBe('parentTeamId must be a top-level team: sub-teams nest one level');
    const foreignParent = await makeTeam(harness, globex);
    const foreign = await post('/v1/teams', { name: 'Sneaky', parentTeamId: foreignParent.teamId });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('parentTeamId must be an active team of the organization');

    const blocked = await harness.app.inject({ method: 'DELETE', url: `/v1/teams/${parent.id}`, headers: acme.headers });
    expect(blocked.statusCode).toBe(409);
  });

  it('updates a team; members may not, team admins may', async () => {
    const team = (await post('/v1/teams', { name: 'Escalations' })).json().data;
    const patch = (headers: Record<string, string>, payload: object) =>
      harness.app.inject({ method: 'PATCH', url: `/v1/teams/${team.id}`, headers, payload });
    const updated = await patch(acme.headers, {
      name: 'Escalations EU',
      description: 'Europe',
      isPrivate: true,
      identifier: 'esc',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      name: 'Escalations EU',
      description: 'Europe',
      isPrivate: true,
      identifier: 'ESC',
    });

    expect((await patch(member.headers, { name: 'Mine now' })).statusCode).toBe(403);
    await post(`/v1/teams/${team.id}/members`, { userId: member.userId, isAdmin: true });
    expect((await patch(member.headers, { name: 'Run by Mia' })).statusCode).toBe(200);
    expect((await patch(acme.headers, { color: 'red' })).json().message).toBe('color has an invalid format');
  });

  it('private teams are listed only for their members and admins', async () => {
    const hidden = (await post('/v1/teams', { name: 'Secret Desk', isPrivate: true })).json().data;
    expect(await teamNames()).toContain('Secret Desk');
    const asMember = ((await get('/v1/teams', member.headers)).json().data as { id: string }[]).map((team) => team.id);
    expect(asMember).not.toContain(hidden.id);
  });

  it('members: add by email or userId (bare 201), list, search, remove; duplicates and strangers rejected', async () => {
    const team = (await post('/v1/teams', { name: 'Onboarding' })).json().data;
    const other = await makeUser(harness, acme.organizationId, { name: 'Otto', email: 'otto@acme.test' });

    const byEmail = await post(`/v1/teams/${team.id}/members`, { email: 'MIA@acme.test' });
    expect(byEmail.statusCode).toBe(201);
    expect(byEmail.json()).toMatchObject({
      id: member.userId,
      email: 'mia@acme.test',
      role: 'MEMBER',
      isOwner: false,
      teamId: team.id,
    });
    expect(byEmail.json().status).toBeDefined();
    expect((await post(`/v1/teams/${team.id}/members`, { userId: other.userId, isAdmin: true })).json().role).toBe('ADMIN');

    const again = await post(`/v1/teams/${team.id}/members`, { userId: member.userId });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('User is already a member of this team!');
    expect((await post(`/v1/teams/${team.id}/members`, {})).json().message).toBe('email or userId is required');
    const stranger = await post(`/v1/teams/${team.id}/members`, { userId: globex.userId });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe('User not found!');

    const all = (await get(`/v1/teams/${team.id}/members`)).json().data;
    expect(all.map((m: { id: string }) => m.id)).toEqual([acme.userId, member.userId, other.userId]);
    const searched = (await get(`/v1/teams/${team.id}/members?search=ott`)).json().data;
    expect(searched.map((m: { id: string }) => m.id)).toEqual([other.userId]);

    const removed = await harness.app.inject({
      method: 'DELETE',
      url: `/v1/teams/${team.id}/members/${member.userId}`,
      headers: acme.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.id).toBe(member.userId);
    const gone = await harness.app.inject({
      method: 'DELETE',
      url: `/v1/teams/${team.id}/members/${member.userId}`,
      headers: acme.headers,
    });
    expect(gone.statusCode).toBe(404);
    const owner = await harness.app.inject({
      method: 'DELETE',
      url: `/v1/teams/${team.id}/members/${acme.userId}`,
      headers: acme.headers,
    });
    expect(owner.statusCode).toBe(409);
  });

  it("members carry their routing settings: availability, capacity and time zone, as the user's PATCH left them", async () => {
    const team = (await post('/v1/teams', { name: 'Routing Desk' })).json().data;
    const agent = await makeUser(harness, acme.organizationId, { name: 'Ria', email: 'ria@acme.test' });
    const added = (await post(`/v1/teams/${team.id}/members`, { userId: agent.userId })).json();
    expect(added).toMatchObject({ id: agent.userId, capacity: null, timezone: null });
    const changed = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/users/${agent.userId}`,
      headers: acme.headers,
      payload: { status: 'away', capacity: 7, timezone: 'Europe/Paris' },
    });
    expect(changed.statusCode).toBe(200);
    const listed = (await get(`/v1/teams/${team.id}/members`)).json().data as { id: string }[];
    expect(listed.find((row) => row.id === agent.userId)).toMatchObject({
      status: 'away',
      capacity: 7,
      timezone: 'Europe/Paris',
    });
  });

  it('archiving hides the team from reads and keeps its identifier reserved', async () => {
    const team = (await post('/v1/teams', { name: 'Old Desk', identifier: 'OLD' })).json().data;
    const archived = await harness.app.inject({ method: 'DELETE', url: `/v1/teams/${team.id}`, headers: acme.headers });
    expect(archived.statusCode).toBe(200);
    expect(archived.json().data).toMatchObject({ isActive: false, archivedAt: TEST_NOW });
    expect((await get(`/v1/teams/${team.id}`)).statusCode).toBe(404);
    expect(await teamNames()).not.toContain('Old Desk');
    expect((await post('/v1/teams', { name: 'New Desk', identifier: 'OLD' })).statusCode).toBe(409);
  });

  it("another organization's team answers 404 on every team route", async () => {
    const foreign = await makeTeam(harness, globex);
    const routes = [
      { method: 'GET', url: `/v1/teams/${foreign.teamId}` },
      { method: 'PATCH', url: `/v1/teams/${foreign.teamId}`, payload: { name: 'x' } },
      { method: 'DELETE', url: `/v1/teams/${foreign.teamId}` },
      { method: 'GET', url: `/v1/teams/${foreign.teamId}/sub-teams` },
      { method: 'GET', url: `/v1/teams/${foreign.teamId}/members` },
      { method: 'POST', url: `/v1/teams/${foreign.teamId}/members`, payload: { userId: acme.userId } },
      { method: 'DELETE', url: `/v1/teams/${foreign.teamId}/members/${globex.userId}` },
    ] as const;
    for (const route of routes) {
      const response = await harness.app.inject({ ...route, headers: acme.headers });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message: 'Team not found!', error: 'Not Found' });
    }
    expect((await get(`/v1/teams/${foreign.teamId}`, globex.headers)).statusCode).toBe(200);
  });
});

describe.each(DIALECTS)('team list pages on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let initech: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    initech = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  type Headers = Record<string, string>;
  const send = async (method: 'POST' | 'DELETE', url: string, headers: Headers, payload?: object) => {
    const response = await harness.app.inject({ method, url, headers, ...(payload && { payload }) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };
  const team = async (headers: Headers, payload: object) => {
    const created = (await send('POST', '/v1/teams', headers, payload)).data as { id: string; createdAt: string };
    return { id: created.id, at: created.createdAt };
  };
  const tick = (n: number) => {
    if (n % 3 === 0) {
      harness.clock.advance(1);
    }
  };

  it('pages the teams a member sees oldest first by cursor, never another organization’s', async () => {
    const mia = await makeUser(harness, acme.organizationId, { name: 'Mia Member' });
    const visible: { id: string; at: string }[] = [];
    for (let n = 0; n < 25; n++) {
      tick(n);
      const isPrivate = n % 5 === 0;
      const created = await team(acme.headers, { name: `Team ${n}`, isPrivate });
      if (isPrivate) {
        await send('POST', `/v1/teams/${created.id}/members`, acme.headers, { userId: mia.userId });
      }
      visible.push(created);
      await team(acme.headers, { name: `Hidden ${n}`, isPrivate: true });
    }
    const archived = await team(acme.headers, { name: 'Archived' });
    await send('DELETE', `/v1/teams/${archived.id}`, acme.headers);
    const foreign = [await team(globex.headers, { name: 'Globex team' })];

    await expectCursorPagedList({
      app: harness.app,
      url: '/v1/teams?limit=10',
      headers: mia.headers,
      read: envelopePage,
      expected: idsInOrder(visible),
      pageNumbers: false,
      other: { url: '/v1/teams?limit=10', headers: globex.headers, ids: foreign.map((row) => row.id) },
    });
  });

  it("pages a team's sub-teams and its members (searched) by cursor", async () => {
    const parent = await team(initech.headers, { name: 'Parent' });
    const subTeams: { id: string; at: string }[] = [];
    for (let n = 0; n < 25; n++) {
      tick(n);
      subTeams.push(await team(initech.headers, { name: `Sub ${n}`, parentTeamId: parent.id }));
    }
    await team(initech.headers, { name: 'Not a child' });
    const globexParent = await team(globex.headers, { name: 'Globex parent' });
    const globexSub = await team(globex.headers, { name: 'Globex sub', parentTeamId: globexParent.id });
    await expectCursorPagedList({
      app: harness.app,
      url: `/v1/teams/${parent.id}/sub-teams?limit=10`,
      headers: initech.headers,
      read: envelopePage,
      expected: idsInOrder(subTeams),
      pageNumbers: false,
      other: { url: `/v1/teams/${globexParent.id}/sub-teams?limit=10`, headers: globex.headers, ids: [globexSub.id] },
    });

    const members: { id: string; at: string }[] = [];
    for (let n = 0; n < 30; n++) {
      tick(n);
      const user = await makeUser(harness, initech.organizationId, { name: n < 25 ? `Match ${n}` : `Other ${n}` });
      await send('POST', `/v1/teams/${parent.id}/members`, initech.headers, { userId: user.userId });
      if (n < 25) {
        members.push({ id: user.userId, at: harness.clock.now().toISOString() });
      }
    }
    const globexMember = await makeUser(harness, globex.organizationId, { name: 'Match Globex' });
    await send('POST', `/v1/teams/${globexParent.id}/members`, globex.headers, { userId: globexMember.userId });
    await expectCursorPagedList({
      app: harness.app,
      url: `/v1/teams/${parent.id}/members?search=match&limit=10`,
      headers: initech.headers,
      read: envelopePage,
      expected: idsInOrder(members),
      pageNumbers: false,
      other: {
        url: `/v1/teams/${globexParent.id}/members?search=match&limit=10`,
        headers: globex.headers,
        ids: [globexMember.userId],
      },
    });
  });
});
