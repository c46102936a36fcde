import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import {
  makeOrganization,
  makeTeam,
  makeTeamPeople,
  makeUser,
  type TestOrganization,
  type TestTeam,
} from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { type Condition, matchesCondition, matchesRule, parseCondition, type RoutingTicket } from './routing-rule.conditions.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_ID = '01KAAAAAAAAAAAAAAAAAAAAAAA';
const condition = (value: Record<string, unknown>) => JSON.stringify(value);

describe.each(DIALECTS)('routing rules on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let rita: { userId: string; headers: { 'x-api-key': string } };
  let support: TestTeam;
  let billing: TestTeam;
  let escalations: TestTeam;
  let archived: TestTeam;
  let globexTeam: TestTeam;
  let globexRuleId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    rita = await makeUser(harness, acme.organizationId, { name: 'Rita Router' });
    support = await makeTeam(harness, acme, { name: 'Support' });
    billing = await makeTeam(harness, acme, { name: 'Billing' });
    escalations = await makeTeam(harness, acme, { name: 'Escalations' });
    archived = await makeTeam(harness, acme, { name: 'Old' });
    await harness.db.updateTable('teams').set({ archived_at: TEST_NOW }).where('id', '=', archived.teamId).execute();
    globexTeam = await makeTeam(harness, globex, { name: 'Globex support' });
    const created = await harness.app.inject({
      method: 'POST',
      url: `/v1/teams/${globexTeam.teamId}/routing`,
      headers: globex.headers,
      payload: { name: 'Globex rule', resultTeamId: globexTeam.teamId },
    });
    globexRuleId = created.json().data.id;
  });
  afterAll(() => harness.close());

  const rulesUrl = (teamId: string) => `/v1/teams/${teamId}/routing`;
  const ruleUrl = (teamId: string, ruleId: string) => `/v1/teams/${teamId}/routing/${ruleId}`;
  const create = (teamId: string, payload: unknown, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'POST', url: rulesUrl(teamId), headers, payload: payload as object });
  const patch = (teamId: string, ruleId: string, payload: unknown, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url: ruleUrl(teamId, ruleId), headers, payload: payload as object });
  const remove = (teamId: string, ruleId: string, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'DELETE', url: ruleUrl(teamId, ruleId), headers });
  const list = async (teamId: string) => {
    const response = await harness.app.inject({ url: rulesUrl(teamId), headers: acme.headers });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const freshTeam = () => makeTeam(harness, acme);
  const createId = async (teamId: string, payload: Record<string, unknown>) => {
    const response = await create(teamId, { name: 'Rule', resultTeamId: billing.teamId, ...payload });
    expect(response.statusCode).toBe(201);
    return response.json().data.id as string;
  };

  describe('POST /v1/teams/{teamId}/routing', () => {
    it('creates a rule with defaults and answers 201 with it in the envelope', async () => {
      // Rita manages the team (she made it), so she may set its rules.
      const team = await makeTeam(harness, { organizationId: acme.organizationId, userId: rita.userId });
      const response = await create(team.teamId, { name: 'Billing questions', resultTeamId: billing.teamId }, rita.headers);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        status: true,
        message: 'Success',
        timestamp: TEST_NOW,
        data: {
          id: expect.stringMatching(ULID),
          name: 'Billing questions',
          description: null,
          teamId: team.teamId,
          evaluationOrder: 0,
          resultTeamId: billing.teamId,
          fallbackTeamId: null,
          andRules: [],
          orRules: [],
          createdBy: 'Rita Router',
          createdById: rita.userId,
          createdAt: TEST_NOW,
          updatedAt: TEST_NOW,
        },
      });
    });

    it('keeps every field sent, conditions exactly as written (upstream operator case included)', async () => {
      const team = await freshTeam();
      const andRules = [
        condition({ field: 'priority', operator: 'EQUALS', value: 'High', precedence: 1 }),
        condition({ field: 'customField.01KCUSTOMFIELDAAAAAAAAAAAA', operator: 'in', value: ['gold', 'platinum'] }),
      ];
      const orRules = [
        condition({ field: 'title', operator: 'contains', value: 'invoice' }),
        condition({ field: 'requestorEmail', operator: 'is_not_empty' }),
      ];
      const response = await create(team.teamId, {
        name: 'VIP billing',
        description: 'High-priority billing for top accounts',
        evaluationOrder: 7,
        resultTeamId: billing.teamId,
        fallbackTeamId: escalations.teamId,
        andRules,
        orRules,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().data).toMatchObject({
        name: 'VIP billing',
        description: 'High-priority billing for top accounts',
        evaluationOrder: 7,
        resultTeamId: billing.teamId,
        fallbackTeamId: escalations.teamId,
        andRules,
        orRules,
        createdById: acme.userId,
      });
      expect((await list(team.teamId)).data).toEqual([response.json().data]);
    });

    it("defaults evaluationOrder to one more than the team's highest and lists rules in that order", async () => {
      const team = await freshTeam();
      await createId(team.teamId, { name: 'first' });
      await createId(team.teamId, { name: 'second' });
      await createId(team.teamId, { name: 'tenth', evaluationOrder: 10 });
      await createId(team.teamId, { name: 'fifth', evaluationOrder: 5 });
      await createId(team.teamId, { name: 'after tenth' });
      const { data } = await list(team.teamId);
      expect(data.map((rule: { name: string; evaluationOrder: number }) => [rule.name, rule.evaluationOrder])).toEqual([
        ['first', 0],
        ['second', 1],
        ['fifth', 5],
        ['tenth', 10],
        ['after tenth', 11],
      ]);
    });

    it('accepts the team itself as result and null for the optional fields', async () => {
      const team = await freshTeam();
      const response = await create(team.teamId, {
        name: 'Stay',
        resultTeamId: team.teamId,
        description: null,
        fallbackTeamId: null,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().data).toMatchObject({ resultTeamId: team.teamId, description: null, fallbackTeamId: null });
    });

    it('refuses an evaluation order the team already uses with 409 and writes nothing', async () => {
      const team = await freshTeam();
      await createId(team.teamId, { evaluationOrder: 3 });
      const before = await list(team.teamId);
      const response = await create(team.teamId, { name: 'Clash', resultTeamId: billing.teamId, evaluationOrder: 3 });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        statusCode: 409,
        message: 'A routing rule with this evaluation order already exists for the team!',
        error: 'Conflict',
      });
      expect(await list(team.teamId)).toEqual(before);
    });

    it('allows the same evaluation order in another team', async () => {
      const first = await freshTeam();
      const second = await freshTeam();
      await createId(first.teamId, { evaluationOrder: 0 });
      await createId(second.teamId, { evaluationOrder: 0 });
    });

    const valid = () => ({ name: 'Rule', resultTeamId: billing.teamId });
    const invalidBodies: [string, () => unknown, string | RegExp][] = [
      ['a missing name', () => ({ resultTeamId: billing.teamId }), 'name is required'],
      ['an empty name', () => ({ ...valid(), name: '' }), 'name must be at least 1 characters long'],
      ['a null name', () => ({ ...valid(), name: null }), 'name must be a string'],
      ['a name over 255 characters', () => ({ ...valid(), name: 'n'.repeat(256) }), 'name must be at most 255 characters long'],
      ['a missing resultTeamId', () => ({ name: 'Rule' }), 'resultTeamId is required'],
      ['a malformed resultTeamId', () => ({ ...valid(), resultTeamId: 'T88WCYYHPS' }), 'resultTeamId has an invalid format'],
      ['a malformed fallbackTeamId', () => ({ ...valid(), fallbackTeamId: 'nope' }), /^fallbackTeamId/],
      ['a negative evaluationOrder', () => ({ ...valid(), evaluationOrder: -1 }), 'evaluationOrder must be at least 0'],
      ['a fractional evaluationOrder', () => ({ ...valid(), evaluationOrder: 1.5 }), 'evaluationOrder must be a whole number'],
      ['a textual evaluationOrder', () => ({ ...valid(), evaluationOrder: '1' }), 'evaluationOrder must be a whole number'],
      ['a huge evaluationOrder', () => ({ ...valid(), evaluationOrder: 2 ** 31 }), 'evaluationOrder must be at most 2147483647'],
      [
        'a description over 1000 characters',
        () => ({ ...valid(), description: 'd'.repeat(1001) }),
        /^description must be at most/,
      ],
      ['andRules that are not an array', () => ({ ...valid(), andRules: 'priority = high' }), 'andRules must be an array'],
      [
        'a condition that is an object, not a string',
        () => ({ ...valid(), orRules: [{ field: 'title' }] }),
        'orRules.0 must be a string',
      ],
      ['an unknown field', () => ({ ...valid(), conditions: [] }), 'conditions is not an accepted field'],
      [
        'a result team of another organization',
        () => ({ ...valid(), resultTeamId: globexTeam.teamId }),
        'resultTeamId must be an active team of the organization',
      ],
      [
        'an unknown result team',
        () => ({ ...valid(), resultTeamId: UNKNOWN_ID }),
        'resultTeamId must be an active team of the organization',
      ],
      [
        'an archived fallback team',
        () => ({ ...valid(), fallbackTeamId: archived.teamId }),
        'fallbackTeamId must be an active team of the organization',
      ],
      [
        'a condition that is not JSON',
        () => ({ ...valid(), andRules: [condition({ field: 'title', operator: 'equals', value: 'x' }), 'priority = high'] }),
        'andRules[1] is not valid JSON',
      ],
      ['a condition that is a JSON array', () => ({ ...valid(), andRules: ['["title"]'] }), 'andRules[0] is not a JSON object'],
      [
        'an unknown operator',
        () => ({
          ...valid(),
          andRules: [
            condition({ field: 'priority', operator: 'equals', value: 'high' }),
            condition({ field: 'priority', operator: 'BETWEEN', value: 'low' }),
          ],
        }),
        'andRules[1] has an unknown operator "BETWEEN"',
      ],
      [
        'an unknown condition field',
        () => ({ ...valid(), orRules: [condition({ field: 'mood', operator: 'equals', value: 'angry' })] }),
        'orRules[0] has an unknown field "mood"',
      ],
      [
        'a condition without field',
        () => ({ ...valid(), orRules: [condition({ operator: 'equals', value: 'x' })] }),
        'orRules[0] has no field',
      ],
      [
        'a condition without operator',
        () => ({ ...valid(), orRules: [condition({ field: 'status', value: 'open' })] }),
        'orRules[0] has no operator',
      ],
      [
        'a condition without value',
        () => ({ ...valid(), andRules: [condition({ field: 'status', operator: 'equals' })] }),
        'andRules[0] has no value for "equals"',
      ],
      [
        'an "in" condition without a list',
        () => ({ ...valid(), andRules: [condition({ field: 'status', operator: 'in', value: 'open' })] }),
        'andRules[0] needs a non-empty array value for "in"',
      ],
      [
        'an "is_empty" condition with a value',
        () => ({ ...valid(), andRules: [condition({ field: 'accountId', operator: 'is_empty', value: 'x' })] }),
        'andRules[0] has a value, which "is_empty" does not take',
      ],
      [
        'a condition with an unknown key',
        () => ({ ...valid(), andRules: [condition({ field: 'status', operator: 'equals', value: 'open', weight: 2 })] }),
        'andRules[0] has an unknown key "weight"',
      ],
      [
        'a condition with a textual precedence',
        () => ({ ...valid(), andRules: [condition({ field: 'status', operator: 'equals', value: 'open', precedence: 'high' })] }),
        'andRules[0] has a precedence that is not a number',
      ],
    ];

    it.each(invalidBodies)('answers 400 naming the field for %s and writes nothing', async (_, payload, message) => {
      const before = await list(support.teamId);
      const response = await create(support.teamId, payload());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        statusCode: 400,
        message: typeof message === 'string' ? message : expect.stringMatching(message),
        error: 'Bad Request',
      });
      expect(await list(support.teamId)).toEqual(before);
    });
  });

  describe('PATCH /v1/teams/{teamId}/routing/{ruleId}', () => {
    it('changes only the fields sent and answers with the rule', async () => {
      const team = await freshTeam();
      const ruleId = await createId(team.teamId, {
        description: 'Before',
        fallbackTeamId: escalations.teamId,
        andRules: [condition({ field: 'status', operator: 'equals', value: 'open' })],
      });
      harness.clock.advance(60_000);
      const orRules = [condition({ field: 'source', operator: 'starts_with', value: 'mail' })];
      const response = await patch(team.teamId, ruleId, {
        name: 'Renamed',
        evaluationOrder: 4,
        resultTeamId: escalations.teamId,
        orRules,
      });
      harness.clock.set(TEST_NOW);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: true,
        message: 'Success',
        timestamp: '2026-01-15T09:01:00.000Z',
        data: {
          id: ruleId,
          name: 'Renamed',
          description: 'Before',
          teamId: team.teamId,
          evaluationOrder: 4,
          resultTeamId: escalations.teamId,
          fallbackTeamId: escalations.teamId,
          andRules: [condition({ field: 'status', operator: 'equals', value: 'open' })],
          orRules,
          createdBy: expect.any(String),
          createdById: acme.userId,
          createdAt: TEST_NOW,
          updatedAt: '2026-01-15T09:01:00.000Z',
        },
      });
      expect((await list(team.teamId)).data).toEqual([response.json().data]);
    });

    it('clears description, fallbackTeamId and conditions', async () => {
      const team = await freshTeam();
      const ruleId = await createId(team.teamId, {
        description: 'Before',
        fallbackTeamId: escalations.teamId,
        andRules: [condition({ field: 'status', operator: 'equals', value: 'open' })],
      });
      const response = await patch(team.teamId, ruleId, { description: null, fallbackTeamId: null, andRules: [] });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ description: null, fallbackTeamId: null, andRules: [] });
    });

    it('keeps its own evaluation order and answers 200 for an empty body', async () => {
      const team = await freshTeam();
      const ruleId = await createId(team.teamId, { evaluationOrder: 2 });
      const [before] = (await list(team.teamId)).data;
      const same = await patch(team.teamId, ruleId, { evaluationOrder: 2 });
      expect(same.statusCode).toBe(200);
      const empty = await patch(team.teamId, ruleId, {});
      expect(empty.statusCode).toBe(200);
      expect(empty.json().data).toEqual(before);
    });

    it("refuses another rule's evaluation order with 409 and writes nothing", async () => {
      const team = await freshTeam();
      await createId(team.teamId, { evaluationOrder: 0 });
      const ruleId = await createId(team.teamId, { evaluationOrder: 1 });
      const before = await list(team.teamId);
      const response = await patch(team.teamId, ruleId, { name: 'Moved', evaluationOrder: 0 });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        statusCode: 409,
        message: 'A routing rule with this evaluation order already exists for the team!',
        error: 'Conflict',
      });
      expect(await list(team.teamId)).toEqual(before);
    });

    const invalidBodies: [string, () => unknown, string][] = [
      ['a null name', () => ({ name: null }), 'name must be a string'],
      ['an empty name', () => ({ name: '' }), 'name must be at least 1 characters long'],
      ['a null resultTeamId', () => ({ resultTeamId: null }), 'resultTeamId must be a string'],
      ['a null evaluationOrder', () => ({ evaluationOrder: null }), 'evaluationOrder must be a whole number'],
      ['null andRules', () => ({ andRules: null }), 'andRules must be an array'],
      ['an unknown field', () => ({ teamId: UNKNOWN_ID }), 'teamId is not an accepted field'],
      [
        'a result team of another organization',
        () => ({ resultTeamId: globexTeam.teamId }),
        'resultTeamId must be an active team of the organization',
      ],
      [
        'an archived fallback team',
        () => ({ fallbackTeamId: archived.teamId }),
        'fallbackTeamId must be an active team of the organization',
      ],
      [
        'a bad condition after good changes',
        () => ({ name: 'Changed', orRules: [condition({ field: 'title', operator: 'like', value: 'x' })] }),
        'orRules[0] has an unknown operator "like"',
      ],
    ];

    it.each(invalidBodies)('answers 400 naming the field for %s and writes nothing', async (_, payload, message) => {
      const team = await freshTeam();
      const ruleId = await createId(team.teamId, { description: 'Kept' });
      const before = await list(team.teamId);
      const response = await patch(team.teamId, ruleId, payload());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
      expect(await list(team.teamId)).toEqual(before);
    });

    it('answers 404 for an unknown rule', async () => {
      const response = await patch(support.teamId, UNKNOWN_ID, { name: 'X' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message: 'Routing rule not found!', error: 'Not Found' });
    });
  });

  describe('DELETE /v1/teams/{teamId}/routing/{ruleId}', () => {
    it('deletes the rule and answers with it; a second delete is 404', async () => {
      const team = await freshTeam();
      const keptId = await createId(team.teamId, { name: 'Kept' });
      const ruleId = await createId(team.teamId, { name: 'Gone' });
      const [, gone] = (await list(team.teamId)).data;
      const response = await remove(team.teamId, ruleId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: true, message: 'Success', timestamp: TEST_NOW, data: gone });
      expect((await list(team.teamId)).data.map((rule: { id: string }) => rule.id)).toEqual([keptId]);
      const again = await remove(team.teamId, ruleId);
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe('Routing rule not found!');
    });

    it('frees the evaluation order', async () => {
      const team = await freshTeam();
      const ruleId = await createId(team.teamId, { evaluationOrder: 0 });
      await remove(team.teamId, ruleId);
      await createId(team.teamId, { evaluationOrder: 0 });
    });
  });

  describe('GET /v1/teams/{teamId}/routing', () => {
    it('lists no rules for a new team', async () => {
      const team = await freshTeam();
      expect(await list(team.teamId)).toEqual({ status: true, message: 'Success', timestamp: TEST_NOW, data: [] });
    });
  });

  describe('isolation and identifiers', () => {
    it("answers 404 Team not found! on every route for another organization's team", async () => {
      const responses = [
        await harness.app.inject({ url: rulesUrl(globexTeam.teamId), headers: acme.headers }),
        await create(globexTeam.teamId, { name: 'Sneaky', resultTeamId: billing.teamId }),
        await patch(globexTeam.teamId, globexRuleId, { name: 'Sneaky' }),
        await remove(globexTeam.teamId, globexRuleId),
      ];
      for (const response of responses) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Team not found!', error: 'Not Found' });
      }
      const globexRules = await harness.app.inject({ url: rulesUrl(globexTeam.teamId), headers: globex.headers });
      expect(globexRules.json().data).toEqual([expect.objectContaining({ id: globexRuleId, name: 'Globex rule' })]);
    });

    it("answers 404 Routing rule not found! for another organization's rule or another team's rule", async () => {
      const billingRuleId = await createId(billing.teamId, { name: 'Billing rule', resultTeamId: support.teamId });
      const responses = [
        await patch(support.teamId, globexRuleId, { name: 'Sneaky' }),
        await remove(support.teamId, globexRuleId),
        await patch(support.teamId, billingRuleId, { name: 'Sneaky' }),
        await remove(support.teamId, billingRuleId),
      ];
      for (const response of responses) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Routing rule not found!', error: 'Not Found' });
      }
      expect((await list(billing.teamId)).data).toEqual([expect.objectContaining({ id: billingRuleId, name: 'Billing rule' })]);
    });

    it('answers 404 for an archived team', async () => {
      const response = await harness.app.inject({ url: rulesUrl(archived.teamId), headers: acme.headers });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Team not found!');
    });

    it('answers 400 naming the parameter for malformed ids on every route', async () => {
      const cases = [
        [await harness.app.inject({ url: rulesUrl('T88WCYYHPS'), headers: acme.headers }), 'teamId'],
        [await create('T88WCYYHPS', { name: 'X', resultTeamId: billing.teamId }), 'teamId'],
        [await patch('T88WCYYHPS', UNKNOWN_ID, { name: 'X' }), 'teamId'],
        [await patch(support.teamId, 'RR001', { name: 'X' }), 'ruleId'],
        [await remove('T88WCYYHPS', UNKNOWN_ID), 'teamId'],
        [await remove(support.teamId, 'RR001'), 'ruleId'],
      ] as const;
      for (const [response, parameter] of cases) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ statusCode: 400, message: `${parameter} has an invalid format`, error: 'Bad Request' });
      }
    });
  });

  describe('who may change them', () => {
    const FORBIDDEN = { statusCode: 403, message: 'User does not have access to this resource!', error: 'Forbidden' };

    it('refuses a member outside the team, and a member who does not manage it, every write (403); nothing is written', async () => {
      const team = await freshTeam();
      const { member, outsider } = await makeTeamPeople(harness, acme.organizationId, team.teamId);
      const ruleId = await createId(team.teamId, { name: 'Kept' });
      const before = await list(team.teamId);
      for (const caller of [outsider, member]) {
        for (const response of [
          await create(team.teamId, { name: 'Theirs', resultTeamId: billing.teamId }, caller.headers),
          await patch(team.teamId, ruleId, { resultTeamId: escalations.teamId }, caller.headers),
          await remove(team.teamId, ruleId, caller.headers),
        ]) {
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual(FORBIDDEN);
        }
      }
      expect(await list(team.teamId)).toEqual(before);
      // Reading the rules and trying them out stay open to every member.
      expect((await harness.app.inject({ url: rulesUrl(team.teamId), headers: outsider.headers })).statusCode).toBe(200);
    });

    it("lets the team's manager and an organization admin create, change and delete them", async () => {
      const team = await freshTeam();
      const { manager } = await makeTeamPeople(harness, acme.organizationId, team.teamId);
      const created = await create(team.teamId, { name: 'By manager', resultTeamId: billing.teamId }, manager.headers);
      expect(created.statusCode).toBe(201);
      const ruleId = created.json().data.id as string;
      expect((await patch(team.teamId, ruleId, { name: 'Changed by manager' }, manager.headers)).statusCode).toBe(200);
      expect((await patch(team.teamId, ruleId, { resultTeamId: escalations.teamId })).statusCode).toBe(200);
      expect((await list(team.teamId)).data).toMatchObject([{ name: 'Changed by manager', resultTeamId: escalations.teamId }]);
      expect((await remove(team.teamId, ruleId, manager.headers)).statusCode).toBe(200);
      expect((await list(team.teamId)).data).toEqual([]);
    });
  });

  it('concurrent creates without an evaluationOrder each get their own place', async () => {
    const team = await makeTeam(harness, acme, { name: 'Racing' });
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        harness.app.inject({
          method: 'POST',
          url: `/v1/teams/${team.teamId}/routing`,
          headers: acme.headers,
          payload: { name: `race ${i}`, resultTeamId: billing.teamId },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201, 201]);
    const orders = responses.map((response) => response.json().data.evaluationOrder).sort();
    expect(orders).toEqual([0, 1, 2, 3]);
  });
});

describe('routing rule conditions', () => {
  const ticket = (overrides: Partial<RoutingTicket> = {}): RoutingTicket => ({
    title: 'Invoice #42 is wrong',
    description: null,
    priority: 'High',
    status: 'open',
    source: 'email',
    requestorEmail: 'Jane@Example.com',
    accountId: '',
    type: 'Billing',
    tags: [],
    customFields: { PLAN: 'Gold', REGIONS: ['EU', 'US'], SEATS: 25, EMPTY: [] },
    ...overrides,
  });
  const parse = (value: Record<string, unknown>): Condition => {
    const parsed = parseCondition(JSON.stringify(value));
    if (!parsed.ok) {
      throw new Error(parsed.problem);
    }
    return parsed.condition;
  };
  const matches = (value: Record<string, unknown>, subject = ticket()) => matchesCondition(parse(value), subject);

  it('parses upstream-style conditions into canonical names and keeps precedence', () => {
    expect(parseCondition('{"field":"Priority","operator":"EQUALS","value":"High","precedence":2}')).toEqual({
      ok: true,
      condition: { field: 'priority', operator: 'equals', value: 'High', precedence: 2 },
    });
    expect(parse({ field: 'CUSTOMFIELD.PLAN', operator: 'is_empty' })).toEqual({
      field: 'customField.PLAN',
      operator: 'is_empty',
    });
    expect(parse({ field: 'requestoremail', operator: 'in', value: ['a@b.c', 3] })).toEqual({
      field: 'requestorEmail',
      operator: 'in',
      value: ['a@b.c', 3],
    });
  });

  it('tests tags as whole names or ids: contains means having the tag', () => {
    const tagged = ticket({ tags: ['VIP', '01KTAGAAAAAAAAAAAAAAAAAAAA', 'refund-late', '01KTAGBBBBBBBBBBBBBBBBBBBB'] });
    expect(matches({ field: 'tags', operator: 'contains', value: 'vip' }, tagged)).toBe(true);
    expect(matches({ field: 'Tags', operator: 'CONTAINS', value: '01ktagaaaaaaaaaaaaaaaaaaaa' }, tagged)).toBe(true);
    expect(matches({ field: 'tags', operator: 'contains', value: 'refund' }, tagged)).toBe(false);
    expect(matches({ field: 'tags', operator: 'not_contains', value: 'refund' }, tagged)).toBe(true);
    expect(matches({ field: 'tags', operator: 'not_contains', value: 'VIP' }, tagged)).toBe(false);
    expect(matches({ field: 'tags', operator: 'not_contains', value: 'vip' }, ticket())).toBe(true);
    expect(matches({ field: 'tags', operator: 'is_empty' }, ticket())).toBe(true);
  });

  it('names what is wrong with a malformed condition', () => {
    const problem = (text: string) => {
      const parsed = parseCondition(text);
      return parsed.ok ? null : parsed.problem;
    };
    expect(problem('nope')).toBe('is not valid JSON');
    expect(problem('null')).toBe('is not a JSON object');
    expect(problem('{"field":"customField.","operator":"equals","value":"x"}')).toBe(
      'has a custom field without an id "customField."',
    );
    expect(problem('{"field":"title","operator":"equals","value":""}')).toBe(
      'needs a non-empty string or a number value for "equals"',
    );
    expect(problem('{"field":"title","operator":"equals","value":true}')).toBe(
      'needs a non-empty string or a number value for "equals"',
    );
    expect(problem('{"field":"title","operator":"in","value":[]}')).toBe('needs a non-empty array value for "in"');
    expect(problem('{"field":"title","operator":"in","value":[null]}')).toBe(
      'has an "in" value whose items are not all non-empty strings or numbers',
    );
    expect(problem('{"field":5,"operator":"equals","value":"x"}')).toBe('has a field that is not a string');
    expect(problem('{"field":"title","operator":1,"value":"x"}')).toBe('has an operator that is not a string');
  });

  it('equals, ignoring case, numbers as text, any value of a list', () => {
    expect(matches({ field: 'priority', operator: 'EQUALS', value: 'high' })).toBe(true);
    expect(matches({ field: 'priority', operator: 'equals', value: 'low' })).toBe(false);
    expect(matches({ field: 'customField.SEATS', operator: 'equals', value: 25 })).toBe(true);
    expect(matches({ field: 'customField.SEATS', operator: 'equals', value: '25' })).toBe(true);
    expect(matches({ field: 'customField.REGIONS', operator: 'equals', value: 'us' })).toBe(true);
    expect(matches({ field: 'description', operator: 'equals', value: 'x' })).toBe(false);
  });

  it('not_equals is the opposite of equals, also on an empty field', () => {
    expect(matches({ field: 'status', operator: 'not_equals', value: 'OPEN' })).toBe(false);
    expect(matches({ field: 'status', operator: 'not_equals', value: 'closed' })).toBe(true);
    expect(matches({ field: 'description', operator: 'not_equals', value: 'x' })).toBe(true);
    expect(matches({ field: 'customField.REGIONS', operator: 'not_equals', value: 'eu' })).toBe(false);
  });

  it('contains and not_contains', () => {
    expect(matches({ field: 'title', operator: 'contains', value: 'INVOICE' })).toBe(true);
    expect(matches({ field: 'title', operator: 'contains', value: 'refund' })).toBe(false);
    expect(matches({ field: 'requestorEmail', operator: 'contains', value: '@example.com' })).toBe(true);
    expect(matches({ field: 'title', operator: 'not_contains', value: 'invoice' })).toBe(false);
    expect(matches({ field: 'title', operator: 'not_contains', value: 'refund' })).toBe(true);
    expect(matches({ field: 'description', operator: 'not_contains', value: 'x' })).toBe(true);
  });

  it('starts_with', () => {
    expect(matches({ field: 'title', operator: 'starts_with', value: 'invoice #' })).toBe(true);
    expect(matches({ field: 'title', operator: 'starts_with', value: 'wrong' })).toBe(false);
    expect(matches({ field: 'customField.REGIONS', operator: 'starts_with', value: 'u' })).toBe(true);
    expect(matches({ field: 'description', operator: 'starts_with', value: 'a' })).toBe(false);
  });

  it('in', () => {
    expect(matches({ field: 'type', operator: 'in', value: ['billing', 'sales'] })).toBe(true);
    expect(matches({ field: 'type', operator: 'in', value: ['sales'] })).toBe(false);
    expect(matches({ field: 'customField.SEATS', operator: 'in', value: [10, 25] })).toBe(true);
    expect(matches({ field: 'customField.REGIONS', operator: 'in', value: ['APAC', 'eu'] })).toBe(true);
    expect(matches({ field: 'customField.MISSING', operator: 'in', value: ['x'] })).toBe(false);
  });

  it('is_empty and is_not_empty: null, missing, blank text and empty lists are empty', () => {
    for (const field of ['description', 'accountId', 'customField.EMPTY', 'customField.MISSING']) {
      expect(matches({ field, operator: 'is_empty' }), field).toBe(true);
      expect(matches({ field, operator: 'is_not_empty' }), field).toBe(false);
    }
    expect(matches({ field: 'title', operator: 'is_empty' }, ticket({ title: '   ' }))).toBe(true);
    for (const field of ['title', 'customField.PLAN', 'customField.REGIONS', 'customField.SEATS']) {
      expect(matches({ field, operator: 'IS_NOT_EMPTY' }), field).toBe(true);
      expect(matches({ field, operator: 'is_empty' }), field).toBe(false);
    }
  });

  it('a rule needs every and-condition and, when there are any, one or-condition', () => {
    const high = parse({ field: 'priority', operator: 'equals', value: 'high' });
    const low = parse({ field: 'priority', operator: 'equals', value: 'low' });
    const email = parse({ field: 'source', operator: 'equals', value: 'email' });
    expect(matchesRule({ andRules: [], orRules: [] }, ticket())).toBe(true);
    expect(matchesRule({ andRules: [high, email], orRules: [] }, ticket())).toBe(true);
    expect(matchesRule({ andRules: [high, low], orRules: [] }, ticket())).toBe(false);
    expect(matchesRule({ andRules: [high], orRules: [low, email] }, ticket())).toBe(true);
    expect(matchesRule({ andRules: [high], orRules: [low] }, ticket())).toBe(false);
  });
});
