import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeTeamPeople, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, TEST_NOW, type TestApp } from '../../../test/harness.js';

/** `POST /v1/teams/{teamId}/routing/reorder`: a team's whole order in one request, applied whole or not at all. */

const UNKNOWN_ID = '01KAAAAAAAAAAAAAAAAAAAAAAA';
const LATER = '2026-01-15T10:00:00.000Z';
const FORBIDDEN = { statusCode: 403, message: 'User does not have access to this resource!', error: 'Forbidden' };
const refusal = (problems: string) => ({
  statusCode: 400,
  message: `ruleIds must name every routing rule of the team exactly once (${problems})`,
  error: 'Bad Request',
});

describe.each(DIALECTS)('reordering routing rules on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let billing: TestTeam;
  let globexTeam: TestTeam;
  let globexRuleId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    billing = await makeTeam(harness, acme, { name: 'Billing' });
    globexTeam = await makeTeam(harness, globex, { name: 'Globex support' });
    globexRuleId = (await createRules(globexTeam.teamId, ['Globex rule'], globex.headers))[0] ?? '';
  });
  afterAll(() => harness.close());
  afterEach(() => harness.clock.set(TEST_NOW));

  const rulesUrl = (teamId: string) => `/v1/teams/${teamId}/routing`;
  const reorder = (teamId: string, payload: unknown, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'POST', url: `${rulesUrl(teamId)}/reorder`, headers, payload: payload as object });
  const list = async (teamId: string, headers: Record<string, string> = acme.headers) => {
    const response = await harness.app.inject({ url: rulesUrl(teamId), headers });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const order = async (teamId: string) => ((await list(teamId)).data as { id: string }[]).map((rule) => rule.id);

  /** Rules named `names`, created in that order, at `evaluationOrders` when given; their ids. */
  async function createRules(
    teamId: string,
    names: string[],
    headers: Record<string, string> = acme.headers,
    evaluationOrders: number[] = [],
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const [index, name] of names.entries()) {
      const evaluationOrder = evaluationOrders[index];
      const response = await harness.app.inject({
        method: 'POST',
        url: rulesUrl(teamId),
        headers,
        payload: { name, resultTeamId: teamId, ...(evaluationOrder !== undefined && { evaluationOrder }) },
      });
      expect(response.statusCode).toBe(201);
      ids.push(response.json().data.id);
    }
    return ids;
  }

  async function teamWithRules(names = ['First', 'Second', 'Third']) {
    const team = await makeTeam(harness, acme);
    return { team, ids: await createRules(team.teamId, names) };
  }

  it("renumbers the rules 0, 1, 2… in the order sent and answers the team's rules like the list", async () => {
    const team = await makeTeam(harness, acme);
    // Gaps in the orders are closed: the rules end at 0..n-1.
    const [a, b, c, d] = await createRules(team.teamId, ['A', 'B', 'C', 'D'], acme.headers, [3, 10, 20, 40]);
    harness.clock.set(LATER);
    const response = await reorder(team.teamId, { ruleIds: [d, b, a, c] });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: true, message: 'Success', timestamp: LATER });
    expect(
      body.data.map((rule: { id: string; name: string; evaluationOrder: number }) => [rule.name, rule.evaluationOrder]),
    ).toEqual([
      ['D', 0],
      ['B', 1],
      ['A', 2],
      ['C', 3],
    ]);
    expect(body.data.every((rule: { updatedAt: string }) => rule.updatedAt === LATER)).toBe(true);
    expect(await list(team.teamId)).toEqual(body);
  });

  it('writes only the rules whose order changes; the same order again writes nothing', async () => {
    const { team, ids } = await teamWithRules();
    const [first, second, third] = ids;
    harness.clock.set(LATER);
    const swapped = await reorder(team.teamId, { ruleIds: [second, first, third] });
    expect(swapped.statusCode).toBe(200);
    expect(swapped.json().data.map((rule: { updatedAt: string }) => rule.updatedAt)).toEqual([LATER, LATER, TEST_NOW]);
    harness.clock.set('2026-01-15T11:00:00.000Z');
    const before = await list(team.teamId);
    const again = await reorder(team.teamId, { ruleIds: [second, first, third] });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(before.data);
  });

  it('answers an empty list for a team without rules', async () => {
    const team = await makeTeam(harness, acme);
    const response = await reorder(team.teamId, { ruleIds: [] });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([]);
  });

  describe('refusals write nothing', () => {
    async function expectRefused(teamId: string, payload: unknown, expected: unknown, headers?: Record<string, string>) {
      const before = await list(teamId);
      const response = await reorder(teamId, payload, headers);
      expect(response.json()).toEqual(expected);
      expect(await list(teamId)).toEqual(before);
    }

    it('400 naming the rules left out', async () => {
      const { team, ids } = await teamWithRules();
      const [first, second, third] = ids;
      await expectRefused(team.teamId, { ruleIds: [third, first] }, refusal(`missing: ${second}`));
      await expectRefused(team.teamId, { ruleIds: [] }, refusal(`missing: ${ids.join(', ')}`));
    });

    it('400 naming unknown ids: none, another team of the organization, another organization', async () => {
      const { team, ids } = await teamWithRules();
      const [billingRule] = await createRules(billing.teamId, ['Billing rule']);
      await expectRefused(team.teamId, { ruleIds: [...ids, UNKNOWN_ID] }, refusal(`unknown: ${UNKNOWN_ID}`));
      await expectRefused(team.teamId, { ruleIds: [...ids, billingRule] }, refusal(`unknown: ${billingRule}`));
      await expectRefused(team.teamId, { ruleIds: [...ids, globexRuleId] }, refusal(`unknown: ${globexRuleId}`));
      // Another team's rule in place of one of the team's: both said at once.
      await expectRefused(
        team.teamId,
        { ruleIds: [ids[0], ids[1], billingRule] },
        refusal(`missing: ${ids[2]}; unknown: ${billingRule}`),
      );
    });

    it('400 naming repeated ids, with whatever else is wrong', async () => {
      const { team, ids } = await teamWithRules();
      const [first, second, third] = ids;
      await expectRefused(team.teamId, { ruleIds: [first, second, third, first] }, refusal(`repeated: ${first}`));
      await expectRefused(team.teamId, { ruleIds: [first, first, second] }, refusal(`missing: ${third}; repeated: ${first}`));
    });

    it('400 for a malformed body or team id, in the platform shape', async () => {
      const { team, ids } = await teamWithRules();
      const bodies: unknown[] = [
        {},
        { ruleIds: ids.join(',') },
        { ruleIds: [...ids.slice(0, 2), 'RR001'] },
        { ruleIds: ids, evaluationOrder: 0 },
        { ruleIds: Array.from({ length: 1001 }, () => ids[0]) },
      ];
      for (const payload of bodies) {
        const before = await list(team.teamId);
        const response = await reorder(team.teamId, payload);
        expect(response.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(400);
        expect(response.json()).toEqual({ statusCode: 400, message: expect.any(String), error: 'Bad Request' });
        expect(await list(team.teamId)).toEqual(before);
      }
      const text = await harness.app.inject({
        method: 'POST',
        url: `${rulesUrl(team.teamId)}/reorder`,
        headers: { ...acme.headers, 'content-type': 'application/json' },
        payload: '{"ruleIds": [',
      });
      expect(text.statusCode).toBe(400);
      const badTeam = await reorder('T88WCYYHPS', { ruleIds: ids });
      expect(badTeam.json()).toEqual({ statusCode: 400, message: 'teamId has an invalid format', error: 'Bad Request' });
    });

    it("404 for another organization's team, an unknown team and an archived one", async () => {
      const before = await list(globexTeam.teamId, globex.headers);
      for (const teamId of [globexTeam.teamId, UNKNOWN_ID]) {
        const response = await reorder(teamId, { ruleIds: [globexRuleId] });
        expect(response.json()).toEqual({ statusCode: 404, message: 'Team not found!', error: 'Not Found' });
      }
      expect(await list(globexTeam.teamId, globex.headers)).toEqual(before);
      const { team, ids } = await teamWithRules(['Only']);
      await harness.db.updateTable('teams').set({ archived_at: TEST_NOW }).where('id', '=', team.teamId).execute();
      expect((await reorder(team.teamId, { ruleIds: ids })).statusCode).toBe(404);
    });

    it("403 for a member of the team who does not manage it and for a member outside it; the team's manager may", async () => {
      const { team, ids } = await teamWithRules();
      const { manager, member, outsider } = await makeTeamPeople(harness, acme.organizationId, team.teamId);
      const reversed = [...ids].reverse();
      for (const caller of [member, outsider]) {
        await expectRefused(team.teamId, { ruleIds: reversed }, FORBIDDEN, caller.headers);
        // Who asks is checked before what they send.
        await expectRefused(team.teamId, { ruleIds: [UNKNOWN_ID] }, FORBIDDEN, caller.headers);
      }
      const response = await reorder(team.teamId, { ruleIds: reversed }, manager.headers);
      expect(response.statusCode).toBe(200);
      expect(await order(team.teamId)).toEqual(reversed);
    });
  });

  describe('concurrency', () => {
    let processes: Awaited<ReturnType<typeof serverProcesses>>;
    beforeAll(async () => {
      processes = await serverProcesses(harness);
    });
    afterAll(() => processes.close());

    // Both answer 200: reorders of a team take turns under its row lock, each applies whole, and the
    // last to run is the order kept; never a mix of the two. One order keeps rules in place that the
    // other moves, so a reorder that read the rules before the other wrote them would mix or collide.
    it('two reorders of the same team at once each apply whole, and the team ends in one of the two orders', async () => {
      const apps = processes.apps;
      for (let round = 0; round < 4; round++) {
        const { team, ids } = await teamWithRules(['R0', 'R1', 'R2', 'R3', 'R4', 'R5']);
        const swapped = [ids[1], ids[0], ...ids.slice(2)] as string[];
        const reversed = [...ids].reverse();
        const orders = round % 2 === 0 ? [swapped, reversed] : [reversed, swapped];
        const responses = await Promise.all(
          orders.map((ruleIds, index) =>
            (apps[index % apps.length] ?? harness.app).inject({
              method: 'POST',
              url: `${rulesUrl(team.teamId)}/reorder`,
              headers: acme.headers,
              payload: { ruleIds },
            }),
          ),
        );
        responses.forEach((response, index) => {
          expect(response.statusCode, response.body).toBe(200);
          // Each answer is its own order, whole.
          expect(response.json().data.map((rule: { id: string }) => rule.id)).toEqual(orders[index]);
        });
        const rules = (await list(team.teamId)).data as { id: string; evaluationOrder: number }[];
        expect([swapped, reversed]).toContainEqual(rules.map((rule) => rule.id));
        expect(rules.map((rule) => rule.evaluationOrder)).toEqual([0, 1, 2, 3, 4, 5]);
      }
    });
  });
});
