import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const UNKNOWN_ID = '01KAAAAAAAAAAAAAAAAAAAAAAA';
const condition = (value: Record<string, unknown>) => JSON.stringify(value);

describe.each(DIALECTS)('SLA policies on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: { userId: string; headers: { 'x-api-key': string } };
  let globexPolicyId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia Member' });
    const created = await create({ name: 'Globex SLA', targets: { high: { firstReply: 30 } } }, globex.headers);
    globexPolicyId = created.json().data.id;
  });
  afterAll(() => harness.close());

  const create = (payload: unknown, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'POST', url: '/v1/sla-policies', headers, payload: payload as object });
  const patch = (id: string, payload: unknown, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url: `/v1/sla-policies/${id}`, headers, payload: payload as object });
  const reorder = (policyIds: string[], headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'POST', url: '/v1/sla-policies/reorder', headers, payload: { policyIds } });
  const list = async () => {
    const response = await harness.app.inject({ url: '/v1/sla-policies', headers: acme.headers });
    expect(response.statusCode).toBe(200);
    return response.json().data as { id: string; name: string; position: number }[];
  };
  const rowCount = async () =>
    Number(
      (
        await harness.db
          .selectFrom('sla_policies')
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );
  const removeAll = async () => {
    for (const policy of await list()) {
      await harness.app.inject({ method: 'DELETE', url: `/v1/sla-policies/${policy.id}`, headers: acme.headers });
    }
  };

  it('creates a policy with defaults, answers it, lists it and reads it back', async () => {
    await removeAll();
    const response = await create({ name: 'Standard', targets: { high: { firstReply: 60, resolution: 480 } } });
    expect(response.statusCode).toBe(201);
    const policy = response.json().data;
    expect(policy).toEqual({
      id: expect.stringMatching(ULID),
      name: 'Standard',
      description: null,
      position: 0,
      andRules: [],
      orRules: [],
      targets: { high: { firstReply: 60, resolution: 480 } },
      businessHours: true,
      aiRepliesCount: false,
      warningShare: 0.75,
      createdById: acme.userId,
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    const one = await harness.app.inject({ url: `/v1/sla-policies/${policy.id}`, headers: acme.headers });
    expect(one.json().data).toEqual(policy);
    expect(await list()).toEqual([policy]);
  });

  it('keeps every field sent, and the next policy goes last', async () => {
    await removeAll();
    await create({ name: 'First', targets: { low: { resolution: 60 } } });
    const andRules = [
      condition({ field: 'teamId', operator: 'equals', value: UNKNOWN_ID }),
      condition({ field: 'tags', operator: 'contains', value: 'vip' }),
    ];
    const orRules = [condition({ field: 'customField.01KCUSTOMFIELDAAAAAAAAAAAA', operator: 'is_not_empty' })];
    const response = await create({
      name: 'VIP',
      description: 'Top accounts',
      andRules,
      orRules,
      targets: { urgent: { firstReply: 15, nextReply: 30, periodicUpdate: 60, resolution: 240 } },
      businessHours: false,
      aiRepliesCount: true,
      warningShare: 0.5,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      description: 'Top accounts',
      position: 1,
      andRules,
      orRules,
      businessHours: false,
      aiRepliesCount: true,
      warningShare: 0.5,
    });
  });

  it.each([
    ['a zero target', { targets: { high: { firstReply: 0 } } }, 'firstReply'],
    ['a negative target', { targets: { high: { resolution: -5 } } }, 'resolution'],
    ['a fractional target', { targets: { high: { nextReply: 1.5 } } }, 'nextReply'],
    ['a target as text', { targets: { high: { nextReply: '60' } } }, 'nextReply'],
    ['an unknown metric', { targets: { high: { replyTime: 60 } } }, 'replyTime'],
    ['a priority without targets', { targets: { high: {} } }, 'high'],
    ['a priority name that is not a key', { targets: { 'Very high!': { firstReply: 60 } } }, 'targets'],
    ['a warning share of 0', { warningShare: 0 }, 'warningShare'],
    ['a warning share of 1', { warningShare: 1 }, 'warningShare'],
    ['a warning share above 1', { warningShare: 1.5 }, 'warningShare'],
    ['an empty name', { name: '' }, 'name'],
    ['an unknown property', { colour: 'red' }, 'colour'],
    ['a negative position', { position: -1 }, 'position'],
  ])('refuses %s with a 400 naming it, writing nothing', async (_, change, named) => {
    const before = await rowCount();
    const response = await create({ name: 'Bad', targets: { high: { firstReply: 60 } }, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(named);
    expect(await rowCount()).toBe(before);
  });

  it('refuses targets out of order: a reply target longer than resolution', async () => {
    const before = await rowCount();
    for (const metric of ['firstReply', 'nextReply', 'periodicUpdate']) {
      const response = await create({ name: 'Bad', targets: { high: { resolution: 60, [metric]: 61 } } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(`targets.high.${metric} (61) must not exceed targets.high.resolution (60)`);
    }
    const equal = await create({ name: 'Equal', targets: { high: { resolution: 60, firstReply: 60 } } });
    expect(equal.statusCode).toBe(201);
    expect(await rowCount()).toBe(before + 1);
  });

  it('refuses a condition on an unknown field, or one that is not a condition', async () => {
    const before = await rowCount();
    const unknown = await create({
      name: 'Bad',
      targets: { high: { firstReply: 60 } },
      andRules: [condition({ field: 'mood', operator: 'equals', value: 'angry' })],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('andRules[0] has an unknown field "mood"');
    const broken = await create({ name: 'Bad', targets: { high: { firstReply: 60 } }, orRules: ['{not json'] });
    expect(broken.json().message).toBe('orRules[0] is not valid JSON');
    expect(await rowCount()).toBe(before);
  });

  it('changes only the fields sent, and checks them as a create does', async () => {
    const id = (await create({ name: 'To change', targets: { low: { resolution: 600 } } })).json().data.id;
    const response = await patch(id, { description: 'Changed', warningShare: 0.9, targets: { low: { resolution: 300 } } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ name: 'To change', description: 'Changed', warningShare: 0.9 });
    expect(response.json().data.targets).toEqual({ low: { resolution: 300 } });
    const bad = await patch(id, { targets: { low: { resolution: 30, firstReply: 45 } }, name: 'Never' });
    expect(bad.statusCode).toBe(400);
    const read = await harness.app.inject({ url: `/v1/sla-policies/${id}`, headers: acme.headers });
    expect(read.json().data.name).toBe('To change');
    const cleared = await patch(id, { description: null });
    expect(cleared.json().data.description).toBeNull();
  });

  it('answers 409 for a position already taken, on create and on change', async () => {
    await removeAll();
    await create({ name: 'At 0', position: 0, targets: { low: { resolution: 60 } } });
    const other = (await create({ name: 'At 5', position: 5, targets: { low: { resolution: 60 } } })).json().data.id;
    expect((await create({ name: 'Clash', position: 0, targets: { low: { resolution: 60 } } })).statusCode).toBe(409);
    expect((await patch(other, { position: 0 })).statusCode).toBe(409);
    expect((await patch(other, { position: 5 })).statusCode).toBe(200);
  });

  it('reorders every policy at once, and refuses a list that is not every policy once', async () => {
    await removeAll();
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      ids.push((await create({ name, targets: { low: { resolution: 60 } } })).json().data.id);
    }
    const [a, b, c] = ids as [string, string, string];
    const response = await reorder([c, a, b]);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((policy: { name: string; position: number }) => [policy.name, policy.position])).toEqual([
      ['C', 0],
      ['A', 1],
      ['B', 2],
    ]);
    const missing = await reorder([c, a]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain(`missing: ${b}`);
    const foreign = await reorder([c, a, b, globexPolicyId]);
    expect(foreign.json().message).toContain(`unknown: ${globexPolicyId}`);
    const repeated = await reorder([c, a, b, a]);
    expect(repeated.json().message).toContain(`repeated: ${a}`);
    expect((await list()).map((policy) => policy.name)).toEqual(['C', 'A', 'B']);
  });

  it("answers 404 for another organization's policy on every route, changing nothing", async () => {
    const url = `/v1/sla-policies/${globexPolicyId}`;
    expect((await harness.app.inject({ url, headers: acme.headers })).statusCode).toBe(404);
    expect((await patch(globexPolicyId, { name: 'Taken' })).statusCode).toBe(404);
    expect((await harness.app.inject({ method: 'DELETE', url, headers: acme.headers })).statusCode).toBe(404);
    expect((await harness.app.inject({ url: `/v1/sla-policies/${UNKNOWN_ID}`, headers: acme.headers })).statusCode).toBe(404);
    const theirs = await harness.app.inject({ url, headers: globex.headers });
    expect(theirs.json().data.name).toBe('Globex SLA');
  });

  it('lets members read but not write', async () => {
    const id = (await create({ name: 'Readable', targets: { low: { resolution: 60 } } })).json().data.id;
    const before = await rowCount();
    expect((await harness.app.inject({ url: `/v1/sla-policies/${id}`, headers: member.headers })).statusCode).toBe(200);
    expect((await create({ name: 'Nope', targets: { low: { resolution: 60 } } }, member.headers)).statusCode).toBe(403);
    expect((await patch(id, { name: 'Nope' }, member.headers)).statusCode).toBe(403);
    expect((await reorder([id], member.headers)).statusCode).toBe(403);
    const deleted = await harness.app.inject({ method: 'DELETE', url: `/v1/sla-policies/${id}`, headers: member.headers });
    expect(deleted.statusCode).toBe(403);
    expect(await rowCount()).toBe(before);
  });

  it('deletes a policy and answers it as it was', async () => {
    const id = (await create({ name: 'Doomed', targets: { low: { resolution: 60 } } })).json().data.id;
    const response = await harness.app.inject({ method: 'DELETE', url: `/v1/sla-policies/${id}`, headers: acme.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.name).toBe('Doomed');
    expect((await harness.app.inject({ url: `/v1/sla-policies/${id}`, headers: acme.headers })).statusCode).toBe(404);
  });
});
