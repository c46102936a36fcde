import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeTeamPeople, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_ID = '01KAAAAAAAAAAAAAAAAAAAAAAA';

describe.each(DIALECTS)('team tags on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let support: TestTeam;
  let billing: TestTeam;
  let globexTeam: TestTeam;
  let globexTagId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    support = await makeTeam(harness, acme, { name: 'Support' });
    billing = await makeTeam(harness, acme, { name: 'Billing' });
    globexTeam = await makeTeam(harness, globex, { name: 'Globex support' });
    const created = await harness.app.inject({
      method: 'POST',
      url: `/v1/teams/${globexTeam.teamId}/tags`,
      headers: globex.headers,
      payload: { name: 'Globex only' },
    });
    globexTagId = created.json().data.items[0].id;
  });
  afterAll(() => harness.close());

  const tagsUrl = (teamId: string) => `/v1/teams/${teamId}/tags`;
  const tagUrl = (teamId: string, tagId: string) => `/v1/teams/${teamId}/tags/${tagId}`;
  const create = (teamId: string, payload: unknown, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url: tagsUrl(teamId), headers, payload: payload as object });
  const update = (teamId: string, tagId: string, payload: unknown, headers = acme.headers) =>
    harness.app.inject({ method: 'PUT', url: tagUrl(teamId, tagId), headers, payload: payload as object });
  const remove = (teamId: string, tagId: string, headers = acme.headers) =>
    harness.app.inject({ method: 'DELETE', url: tagUrl(teamId, tagId), headers });
  const list = async (teamId: string) => {
    const response = await harness.app.inject({ url: tagsUrl(teamId), headers: acme.headers });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  /** A fresh team, so that a test's tags do not depend on another test's. */
  const freshTeam = () => makeTeam(harness, acme);

  describe('POST /v1/teams/{teamUuid}/tags', () => {
    it('creates a tag with defaults and answers 201 with the team id and every tag of the team', async () => {
      const team = await freshTeam();
      const response = await create(team.teamId, { name: 'Urgent' });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toEqual({
        status: true,
        message: 'Success',
        timestamp: TEST_NOW,
        teamUuid: team.teamId,
        data: {
          count: 1,
          items: [
            {
              id: expect.stringMatching(ULID),
              name: 'Urgent',
              color: null,
              type: 'ticket',
              description: null,
              teamId: team.teamId,
              createdAt: TEST_NOW,
              updatedAt: TEST_NOW,
            },
          ],
        },
      });
      expect(Object.keys(body)).toEqual(['status', 'message', 'timestamp', 'teamUuid', 'data']);
    });

    it('keeps every field sent, lists tags oldest first and trims the name', async () => {
      const team = await freshTeam();
      await create(team.teamId, { name: 'Urgent' });
      harness.clock.advance(1000);
      const response = await create(team.teamId, {
        name: '  Spanish  ',
        color: '#FF00aa',
        type: 'skills',
        description: 'Speaks Spanish',
      });
      harness.clock.set(TEST_NOW);
      expect(response.statusCode).toBe(201);
      const { data } = response.json();
      expect(data.count).toBe(2);
      expect(data.items.map((tag: { name: string }) => tag.name)).toEqual(['Urgent', 'Spanish']);
      expect(data.items[1]).toMatchObject({
        name: 'Spanish',
        color: '#FF00aa',
        type: 'skills',
        description: 'Speaks Spanish',
        createdAt: '2026-01-15T09:00:01.000Z',
      });
      expect(await list(team.teamId)).toEqual({ ...response.json(), timestamp: TEST_NOW });
    });

    it('accepts null for color and description', async () => {
      const team = await freshTeam();
      const response = await create(team.teamId, { name: 'Plain', color: null, description: null });
      expect(response.statusCode).toBe(201);
      expect(response.json().data.items[0]).toMatchObject({ color: null, description: null });
    });

    it('refuses a name already used in the team, ignoring case, with 409 and writes nothing', async () => {
      const team = await freshTeam();
      await create(team.teamId, { name: 'Urgent' });
      const before = await list(team.teamId);
      const response = await create(team.teamId, { name: 'uRGENT' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        statusCode: 409,
        message: 'Tag with this name already exists in the team!',
        error: 'Conflict',
      });
      expect(await list(team.teamId)).toEqual(before);
    });

    it('allows the same name in another team', async () => {
      const first = await freshTeam();
      const second = await freshTeam();
      expect((await create(first.teamId, { name: 'VIP' })).statusCode).toBe(201);
      expect((await create(second.teamId, { name: 'vip' })).statusCode).toBe(201);
    });

    const invalidBodies: [string, unknown, RegExp][] = [
      ['a missing name', { color: '#FF0000' }, /^name is required$/],
      ['an empty name', { name: '' }, /^name must be at least 1 characters long$/],
      ['a blank name', { name: '   ' }, /^name must not be blank$/],
      ['a null name', { name: null }, /^name must be a string$/],
      ['a name over 50 characters', { name: 'x'.repeat(51) }, /^name must be at most 50 characters long$/],
      ['a colour that is not hex', { name: 'A', color: 'red' }, /^color has an invalid format$/],
      ['a short hex colour', { name: 'A', color: '#FFF' }, /^color has an invalid format$/],
      ['an unknown type', { name: 'A', type: 'priority' }, /^type must be one of: ticket, skills$/],
      ['a description over 255 characters', { name: 'A', description: 'd'.repeat(256) }, /^description must be at most 255/],
      ['an unknown field', { name: 'A', tagType: 'ticket' }, /^tagType is not an accepted field$/],
      ['a body that is not an object', ['A'], /^body must be an object$/],
    ];

    it.each(invalidBodies)('answers 400 naming the field for %s and writes nothing', async (_, payload, message) => {
      const before = await list(support.teamId);
      const response = await create(support.teamId, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, message: expect.stringMatching(message), error: 'Bad Request' });
      expect(await list(support.teamId)).toEqual(before);
    });
  });

  describe('GET /v1/teams/{teamUuid}/tags', () => {
    it('lists no tags for a new team', async () => {
      const team = await freshTeam();
      expect(await list(team.teamId)).toEqual({
        status: true,
        message: 'Success',
        timestamp: TEST_NOW,
        teamUuid: team.teamId,
        data: { count: 0, items: [] },
      });
    });
  });

  describe('PUT /v1/teams/{teamUuid}/tags/{tagUuid}', () => {
    it('changes only the fields sent and answers with every tag of the team', async () => {
      const team = await freshTeam();
      await create(team.teamId, { name: 'Urgent', color: '#FF0000', description: 'Now' });
      const created = await create(team.teamId, { name: 'Later' });
      const tagId = created.json().data.items[1].id;
      harness.clock.advance(60_000);
      const response = await update(team.teamId, tagId, { color: '#00FF00', type: 'skills' });
      harness.clock.set(TEST_NOW);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ status: true, message: 'Success', teamUuid: team.teamId, data: { count: 2 } });
      expect(body.data.items[1]).toEqual({
        id: tagId,
        name: 'Later',
        color: '#00FF00',
        type: 'skills',
        description: null,
        teamId: team.teamId,
        createdAt: TEST_NOW,
        updatedAt: '2026-01-15T09:01:00.000Z',
      });
      expect(body.data.items[0]).toMatchObject({ name: 'Urgent', color: '#FF0000', description: 'Now', updatedAt: TEST_NOW });
    });

    it('clears color and description with null', async () => {
      const team = await freshTeam();
      const created = await create(team.teamId, { name: 'Urgent', color: '#FF0000', description: 'Now' });
      const tagId = created.json().data.items[0].id;
      const response = await update(team.teamId, tagId, { color: null, description: null });
      expect(response.json().data.items[0]).toMatchObject({ name: 'Urgent', color: null, description: null });
    });

    it('renames a tag, also to its own name in another case', async () => {
      const team = await freshTeam();
      const tagId = (await create(team.teamId, { name: 'Urgent' })).json().data.items[0].id;
      const recased = await update(team.teamId, tagId, { name: 'URGENT' });
      expect(recased.statusCode).toBe(200);
      expect(recased.json().data.items[0].name).toBe('URGENT');
      const renamed = await update(team.teamId, tagId, { name: 'Critical' });
      expect(renamed.json().data.items[0].name).toBe('Critical');
    });

    it('answers 200 with the list unchanged for an empty body', async () => {
      const team = await freshTeam();
      const tagId = (await create(team.teamId, { name: 'Urgent' })).json().data.items[0].id;
      const before = await list(team.teamId);
      const response = await update(team.teamId, tagId, {});
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(before);
    });

    it('refuses to rename onto another tag of the team with 409 and writes nothing', async () => {
      const team = await freshTeam();
      await create(team.teamId, { name: 'Urgent' });
      const tagId = (await create(team.teamId, { name: 'Later' })).json().data.items[1].id;
      const before = await list(team.teamId);
      const response = await update(team.teamId, tagId, { name: 'urgent', color: '#000000' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        statusCode: 409,
        message: 'Tag with this name already exists in the team!',
        error: 'Conflict',
      });
      expect(await list(team.teamId)).toEqual(before);
    });

    const invalidBodies: [string, unknown, RegExp][] = [
      ['a null name', { name: null }, /^name must be a string$/],
      ['an empty name', { name: '' }, /^name must be at least 1 characters long$/],
      ['a blank name', { name: ' ' }, /^name must not be blank$/],
      ['a name over 50 characters', { name: 'x'.repeat(51) }, /^name must be at most 50 characters long$/],
      ['a colour that is not hex', { color: '#GGGGGG' }, /^color has an invalid format$/],
      ['an unknown type', { type: 'other' }, /^type must be one of: ticket, skills$/],
      ['a null type', { type: null }, /^type must be/],
      ['a description over 255 characters', { description: 'd'.repeat(256) }, /^description must be at most 255/],
      ['an unknown field', { id: UNKNOWN_ID }, /^id is not an accepted field$/],
    ];

    it.each(invalidBodies)('answers 400 naming the field for %s and writes nothing', async (_, payload, message) => {
      const team = await freshTeam();
      const tagId = (await create(team.teamId, { name: 'Urgent', color: '#FF0000' })).json().data.items[0].id;
      const before = await list(team.teamId);
      const response = await update(team.teamId, tagId, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, message: expect.stringMatching(message), error: 'Bad Request' });
      expect(await list(team.teamId)).toEqual(before);
    });

    it('answers 404 for an unknown tag', async () => {
      const response = await update(support.teamId, UNKNOWN_ID, { name: 'X' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message: 'Tag not found!', error: 'Not Found' });
    });
  });

  describe('DELETE /v1/teams/{teamUuid}/tags/{tagUuid}', () => {
    it("deletes the tag and answers with the team's remaining tags; a second delete is 404", async () => {
      const team = await freshTeam();
      await create(team.teamId, { name: 'Urgent' });
      const tagId = (await create(team.teamId, { name: 'Later' })).json().data.items[1].id;
      const response = await remove(team.teamId, tagId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        status: true,
        teamUuid: team.teamId,
        data: { count: 1, items: [{ name: 'Urgent' }] },
      });
      expect((await list(team.teamId)).data.count).toBe(1);
      const again = await remove(team.teamId, tagId);
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe('Tag not found!');
    });

    it('frees the name for a new tag', async () => {
      const team = await freshTeam();
      const tagId = (await create(team.teamId, { name: 'Urgent' })).json().data.items[0].id;
      await remove(team.teamId, tagId);
      expect((await create(team.teamId, { name: 'urgent' })).statusCode).toBe(201);
    });
  });

  describe('who may change them', () => {
    const FORBIDDEN = { statusCode: 403, message: 'User does not have access to this resource!', error: 'Forbidden' };

    it('refuses a member outside the team, and a member who does not manage it, every write (403); nothing is written', async () => {
      const team = await freshTeam();
      const { member, outsider } = await makeTeamPeople(harness, acme.organizationId, team.teamId);
      const tagId = (await create(team.teamId, { name: 'Kept' })).json().data.items[0].id as string;
      const before = await list(team.teamId);
      for (const caller of [outsider, member]) {
        for (const response of [
          await create(team.teamId, { name: 'Theirs' }, caller.headers),
          await update(team.teamId, tagId, { name: 'Renamed' }, caller.headers),
          await remove(team.teamId, tagId, caller.headers),
        ]) {
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual(FORBIDDEN);
        }
      }
      expect(await list(team.teamId)).toEqual(before);
    });

    it("lets the team's manager and an organization admin create, change and delete them", async () => {
      const team = await freshTeam();
      const { manager } = await makeTeamPeople(harness, acme.organizationId, team.teamId);
      const created = await create(team.teamId, { name: 'By manager' }, manager.headers);
      expect(created.statusCode).toBe(201);
      const tagId = created.json().data.items[0].id as string;
      expect((await update(team.teamId, tagId, { name: 'Renamed by manager' }, manager.headers)).statusCode).toBe(200);
      expect((await update(team.teamId, tagId, { color: '#00AA00' })).statusCode).toBe(200);
      expect((await list(team.teamId)).data.items).toMatchObject([{ name: 'Renamed by manager', color: '#00AA00' }]);
      expect((await remove(team.teamId, tagId, manager.headers)).statusCode).toBe(200);
      expect((await list(team.teamId)).data.count).toBe(0);
    });
  });

  describe('isolation and identifiers', () => {
    it("answers 404 Team not found! on every route for another organization's team", async () => {
      const responses = [
        await create(globexTeam.teamId, { name: 'Sneaky' }),
        await harness.app.inject({ url: tagsUrl(globexTeam.teamId), headers: acme.headers }),
        await update(globexTeam.teamId, globexTagId, { name: 'Sneaky' }),
        await remove(globexTeam.teamId, globexTagId),
      ];
      for (const response of responses) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Team not found!', error: 'Not Found' });
      }
      const globexTags = await harness.app.inject({ url: tagsUrl(globexTeam.teamId), headers: globex.headers });
      expect(globexTags.json().data.items).toEqual([expect.objectContaining({ id: globexTagId, name: 'Globex only' })]);
    });

    it("answers 404 Tag not found! for another organization's tag or another team's tag", async () => {
      const billingTagId = (await create(billing.teamId, { name: 'Refunds' })).json().data.items[0].id;
      const responses = [
        await update(support.teamId, globexTagId, { name: 'Sneaky' }),
        await remove(support.teamId, globexTagId),
        await update(support.teamId, billingTagId, { name: 'Sneaky' }),
        await remove(support.teamId, billingTagId),
      ];
      for (const response of responses) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Tag not found!', error: 'Not Found' });
      }
      expect((await list(billing.teamId)).data.items).toEqual([expect.objectContaining({ id: billingTagId, name: 'Refunds' })]);
    });

    it('answers 404 for an archived team', async () => {
      const team = await freshTeam();
      await harness.db.updateTable('teams').set({ archived_at: TEST_NOW }).where('id', '=', team.teamId).execute();
      const response = await create(team.teamId, { name: 'Late' });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Team not found!');
    });

    it('answers 400 naming the parameter for malformed ids on every route', async () => {
      const cases = [
        [await create('not-a-ulid', { name: 'X' }), 'teamUuid'],
        [await harness.app.inject({ url: tagsUrl('not-a-ulid'), headers: acme.headers }), 'teamUuid'],
        [await update('not-a-ulid', UNKNOWN_ID, { name: 'X' }), 'teamUuid'],
        [await update(support.teamId, 'nope', { name: 'X' }), 'tagUuid'],
        [await remove('not-a-ulid', UNKNOWN_ID), 'teamUuid'],
        [await remove(support.teamId, UNKNOWN_ID.toLowerCase()), 'tagUuid'],
      ] as const;
      for (const [response, parameter] of cases) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          statusCode: 400,
          message: `${parameter} has an invalid format`,
          error: 'Bad Request',
        });
      }
    });
  });
});
