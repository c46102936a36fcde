import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { envelopePage, expectCursorPagedList, idsInOrder, walkPages } from '../../../test/platform-list-pages.js';
import { insertTeamMember } from '../teams/team.repository.js';

type Headers = Record<string, string>;
interface Field {
  uid: string;
  name: string;
  slug: string;
  version: number;
  teamId: string | null;
  [key: string]: unknown;
}

describe.each(DIALECTS)('custom fields on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let outsider: Awaited<ReturnType<typeof makeUser>>;
  let manager: Awaited<ReturnType<typeof makeUser>>;
  let teamA: TestTeam;
  let teamB: TestTeam;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId, { name: 'Mia Member' });
    outsider = await makeUser(harness, acme.organizationId, { name: 'Oscar Outsider' });
    manager = await makeUser(harness, acme.organizationId, { name: 'Manon Manager' });
    teamA = await makeTeam(harness, acme, { name: 'Alpha' });
    teamB = await makeTeam(harness, acme, { name: 'Beta' });
    for (const [user, isAdmin] of [
      [member, false],
      [manager, true],
    ] as const) {
      await insertTeamMember(harness.db, {
        team_id: teamA.teamId,
        user_id: user.userId,
        organization_id: acme.organizationId,
        is_admin: isAdmin,
        invited_by_id: acme.userId,
        joined_at: TEST_NOW,
      });
    }
  });
  afterAll(() => harness.close());

  const request = (method: string, url: string, payload?: object, headers: Headers = acme.headers) =>
    harness.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  const create = async (payload: object, headers: Headers = acme.headers): Promise<Field> => {
    const response = await request('POST', '/v1/custom-field', payload, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const patch = (fields: object[], headers: Headers = acme.headers) => request('PATCH', '/v1/custom-field', { fields }, headers);
  const list = async (query: string, headers: Headers = acme.headers): Promise<Field[]> => {
    const response = await request('GET', `/v1/custom-field${query}`, undefined, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const uids = (fields: Field[]) => fields.map((field) => field.uid);
  const everyUid = async (headers: Headers = acme.headers) => uids(await list('?limit=100', headers));
  const expectError = (response: { statusCode: number; json(): unknown }, statusCode: number, message: string) => {
    expect(response.statusCode).toBe(statusCode);
    expect(response.json()).toEqual({ message, statusCode, timestamp: harness.clock.now().toISOString() });
  };

  describe('create and read', () => {
    it('creates a field: 201, {data, status, message, timestamp} in that order, version 1, options as strings', async () => {
      const response = await request('POST', '/v1/custom-field', {
        name: 'Customer Plan',
        source: 'ticket',
        fieldType: 'single_choice',
        options: [{ value: 'Gold' }, { value: ' Silver ' }],
        description: 'Plan of the customer',
        hintText: 'Pick one',
        placeholderText: 'Plan',
        defaultValue: 'gold',
        mandatoryOnCreation: true,
        visibleToCustomer: true,
        metadata: { group: 'billing' },
      });
      expect(response.statusCode).toBe(201);
      expect(Object.keys(response.json())).toEqual(['data', 'status', 'message', 'timestamp']);
      const field = response.json().data;
      expect(field).toEqual({
        name: 'Customer Plan',
        uid: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
        slug: 'customer-plan',
        organizationId: acme.organizationId,
        source: 'ticket',
        fieldType: 'single_choice',
        options: ['Gold', 'Silver'],
        metadata: { group: 'billing' },
        createdAt: TEST_NOW,
        updatedAt: TEST_NOW,
        isActive: true,
        teamId: null,
        autoAddToAllForms: false,
        hintText: 'Pick one',
        placeholderText: 'Plan',
        defaultValue: 'Gold',
        mandatoryOnCreation: true,
        mandatoryOnClose: false,
        visibleToCustomer: true,
        editableByCustomer: false,
        description: 'Plan of the customer',
        regexForValidation: null,
        lookup: null,
        version: 1,
        updatedBy: acme.userId,
      });
      const read = await request('GET', `/v1/custom-field/${field.uid}`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual({ data: field, status: true, message: 'Success', timestamp: TEST_NOW });
    });

    it('derives the slug from the name: -2, -3 on clashes, deleted fields included; per source and organization', async () => {
      const first = await create({ name: 'Order Número (EU)', source: 'account', fieldType: 'single_line' });
      const second = await create({ name: 'order numero eu', source: 'account', fieldType: 'single_line' });
      expect([first.slug, second.slug]).toEqual(['order-numero-eu', 'order-numero-eu-2']);
      expect((await request('DELETE', `/v1/custom-field/${second.uid}`)).statusCode).toBe(200);
      const third = await create({ name: 'Order numero EU', source: 'account', fieldType: 'single_line' });
      expect(third.slug).toBe('order-numero-eu-3');
      expect((await create({ name: 'Order numero EU', source: 'ticket', fieldType: 'single_line' })).slug).toBe(
        'order-numero-eu',
      );
      const foreign = await create({ name: 'Order numero EU', source: 'account', fieldType: 'single_line' }, globex.headers);
      expect(foreign.slug).toBe('order-numero-eu');
      expect((await create({ name: '日本語', source: 'account', fieldType: 'single_line' })).slug).toBe('field');
    });

    it('concurrent creates of one name get distinct slugs', async () => {
      const responses = await Promise.all(
        [1, 2, 3].map(() =>
          request('POST', '/v1/custom-field', { name: 'Race Name', source: 'custom_object', fieldType: 'url' }),
        ),
      );
      expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201]);
      expect(responses.map((response) => response.json().data.slug).sort()).toEqual(['race-name', 'race-name-2', 'race-name-3']);
    });

    it('deletes softly: gone from reads, a second delete and unknown or foreign uids are 404 in the custom-field shape', async () => {
      const field = await create({ name: 'Short lived', source: 'ticket', fieldType: 'integer' });
      const deleted = await request('DELETE', `/v1/custom-field/${field.uid}`);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json().data).toMatchObject({ uid: field.uid, version: 2 });
      expectError(await request('GET', `/v1/custom-field/${field.uid}`), 404, 'Custom field not found!');
      expectError(await request('DELETE', `/v1/custom-field/${field.uid}`), 404, 'Custom field not found!');
      expect(await everyUid()).not.toContain(field.uid);
      const foreign = await create({ name: 'Theirs', source: 'ticket', fieldType: 'integer' }, globex.headers);
      expectError(await request('GET', `/v1/custom-field/${foreign.uid}`), 404, 'Custom field not found!');
      expectError(await request('DELETE', `/v1/custom-field/${foreign.uid}`), 404, 'Custom field not found!');
      expectError(await request('GET', '/v1/custom-field/01KAAAAAAAAAAAAAAAAAAAAAAA'), 404, 'Custom field not found!');
      expectError(await request('GET', '/v1/custom-field/nope'), 400, 'uid has an invalid format');
    });

    it('answers 401 in the custom-field shape', async () => {
      expectError(await request('GET', '/v1/custom-field', undefined, {}), 401, 'User is not authenticated!');
    });

    it.each([
      [{ source: 'ticket', fieldType: 'integer' }, 'name is required'],
      [{ name: '   ', source: 'ticket', fieldType: 'integer' }, 'name must not be blank'],
      [
        { name: 'X', source: 'invoice', fieldType: 'integer' },
        'source must be one of: ticket, account, custom_object, customer_contact',
      ],
      [{ name: 'X', source: 'ticket', fieldType: 'boolean' }, expect.stringMatching(/^fieldType must be one of: single_line, /)],
      [
        { name: 'X', source: 'ticket', fieldType: 'single_choice' },
        'options must have at least one option for a single_choice field',
      ],
      [
        { name: 'X', source: 'ticket', fieldType: 'checkbox', options: [] },
        'options must have at least one option for a checkbox field',
      ],
      [
        { name: 'X', source: 'ticket', fieldType: 'multi_choice', options: [{ value: '' }] },
        'options.0.value must be at least 1 characters long',
      ],
      [
        { name: 'X', source: 'ticket', fieldType: 'multi_choice', options: [{ value: '  ' }] },
        'options.0.value must not be blank',
      ],
      [
        { name: 'X', source: 'ticket', fieldType: 'radio_button', options: [{ value: 'A' }, { value: 'b' }, { value: 'a ' }] },
        'options.2.value repeats the option "a"; option values must be unique',
      ],
      [{ name: 'X', source: 'ticket', fieldType: 'radio_button', options: ['A'] }, 'options.0 must be an object'],
      [
        { name: 'X', source: 'ticket', fieldType: 'integer', options: [{ value: 'A' }] },
        'options are only accepted for choice fields (single_choice, radio_button, multi_choice, checkbox)',
      ],
      [
        { name: 'X', source: 'ticket', fieldType: 'single_line', regexForValidation: '([a-z' },
        'regexForValidation must be a valid regular expression',
      ],
      [{ name: 'X', source: 'ticket', fieldType: 'integer', defaultValue: 'ten' }, 'defaultValue must be a whole number'],
      [
        { name: 'X', source: 'ticket', fieldType: 'single_choice', options: [{ value: 'A' }], defaultValue: 'B' },
        'defaultValue must be one of: A',
      ],
      [
        { name: 'X', source: 'ticket', fieldType: 'single_line', regexForValidation: '^[0-9]+$', defaultValue: 'abc' },
        'defaultValue must match the pattern ^[0-9]+$',
      ],
      [{ name: 'X', source: 'ticket', fieldType: 'integer', color: 'red' }, 'color is not an accepted field'],
      [{ name: 'X', source: 'ticket', fieldType: 'integer', teamId: 'T1' }, 'teamId has an invalid format'],
    ])('rejects %j with a 400 naming the problem, writing nothing', async (payload, message) => {
      const before = await everyUid();
      const response = await request('POST', '/v1/custom-field', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, statusCode: 400, timestamp: harness.clock.now().toISOString() });
      expect(await everyUid()).toEqual(before);
    });

    it('a team-specific field is made by an admin or a manager of that team, of the organization', async () => {
      const field = await create(
        { name: 'Alpha only', source: 'ticket', fieldType: 'date', teamId: teamA.teamId },
        manager.headers,
      );
      expect(field.teamId).toBe(teamA.teamId);
      const before = await everyUid();
      for (const [headers, teamId] of [
        [manager.headers, teamB.teamId],
        [member.headers, teamA.teamId],
        [outsider.headers, teamA.teamId],
      ] as const) {
        const refused = await request(
          'POST',
          '/v1/custom-field',
          { name: 'X', source: 'ticket', fieldType: 'date', teamId },
          headers,
        );
        expectError(refused, 403, 'User does not have access to this resource!');
      }
      expect(await everyUid()).toEqual(before);
      const foreignTeam = await makeTeam(harness, globex);
      const foreign = await request('POST', '/v1/custom-field', {
        name: 'X',
        source: 'ticket',
        fieldType: 'date',
        teamId: foreignTeam.teamId,
      });
      expectError(foreign, 404, 'Team not found!');
    });
  });

  describe('list and search', () => {
    let org: TestOrganization;
    let alice: Awaited<ReturnType<typeof makeUser>>;
    let bob: Awaited<ReturnType<typeof makeUser>>;
    let red: TestTeam;
    let blue: TestTeam;
    const made: Record<string, Field> = {};

    beforeAll(async () => {
      org = await makeOrganization(harness);
      alice = await makeUser(harness, org.organizationId, { name: 'Alice' });
      bob = await makeUser(harness, org.organizationId, { name: 'Bob' });
      red = await makeTeam(harness, { organizationId: org.organizationId, userId: alice.userId }, { name: 'Red' });
      blue = await makeTeam(harness, { organizationId: org.organizationId, userId: org.userId }, { name: 'Blue' });
      const specs = [
        ['orgTicket', { name: 'Order 50% off', source: 'ticket', fieldType: 'single_line' }],
        ['orgAccount', { name: 'Account Tier', source: 'account', fieldType: 'single_line' }],
        ['redTicket', { name: 'Red order_ref', source: 'ticket', fieldType: 'single_line', teamId: red.teamId }],
        ['blueTicket', { name: 'Blue ORDER', source: 'ticket', fieldType: 'single_line', teamId: blue.teamId }],
      ] as const;
      for (const [key, payload] of specs) {
        harness.clock.advance(1000);
        made[key] = await create(payload, org.headers);
      }
    });

    const names = (fields: Field[]) => fields.map((field) => field.name);

    it('without teamId: organization-wide fields and those of the caller’s teams; admins see every team', async () => {
      expect(names(await list('', alice.headers))).toEqual(['Order 50% off', 'Account Tier', 'Red order_ref']);
      expect(names(await list('', bob.headers))).toEqual(['Order 50% off', 'Account Tier']);
      expect(names(await list('', org.headers))).toEqual(['Order 50% off', 'Account Tier', 'Red order_ref', 'Blue ORDER']);
      expect(names(await list('?onlyTeamFields=true', alice.headers))).toEqual(['Red order_ref']);
      expect(names(await list('?source=account', org.headers))).toEqual(['Account Tier']);
    });

    it('with teamId: that team’s fields plus organization-wide ones, or only the team’s; members only', async () => {
      expect(names(await list(`?teamId=${red.teamId}`, alice.headers))).toEqual([
        'Order 50% off',
        'Account Tier',
        'Red order_ref',
      ]);
      expect(names(await list(`?teamId=${red.teamId}&onlyTeamFields=true`, alice.headers))).toEqual(['Red order_ref']);
      expect(names(await list(`?teamId=${red.teamId}&onlyTeamFields=true&source=account`, alice.headers))).toEqual([]);
      expect(names(await list(`?teamId=${red.teamId}&onlyTeamFields=true`, org.headers))).toEqual(['Red order_ref']);
      expect(names(await list(`?teamId=${blue.teamId}`, org.headers))).toEqual(['Order 50% off', 'Account Tier', 'Blue ORDER']);
      expectError(
        await request('GET', `/v1/custom-field?teamId=${red.teamId}`, undefined, bob.headers),
        400,
        'User is not a member of this team!',
      );
      expectError(
        await request('GET', `/v1/custom-field?teamId=${blue.teamId}`, undefined, alice.headers),
        400,
        'User is not a member of this team!',
      );
      expectError(
        await request('GET', `/v1/custom-field?teamId=${teamA.teamId}`, undefined, org.headers),
        404,
        'Team not found!',
      );
    });

    it.each([
      ['?limit=0', 'limit must be at least 1'],
      ['?limit=1000', 'limit must be at most 100'],
      ['?page=-1', 'page must be at least 0'],
      ['?page=first', 'page must be a whole number'],
      ['?source=invoice', 'source must be one of: ticket, account, custom_object, customer_contact'],
      ['?onlyTeamFields=maybe', 'onlyTeamFields must be a boolean'],
      ['?teamId=abc', 'teamId has an invalid format'],
      ['?sort=name', 'sort is not an accepted field'],
    ])('list rejects %s with a 400', async (query, message) => {
      expectError(await request('GET', `/v1/custom-field${query}`, undefined, org.headers), 400, message);
    });

    it('search: case-insensitive on the name, wildcards literal, same scope rules', async () => {
      const search = (query: string, headers: Headers = org.headers) => list(`/search?${query}`, headers);
      expect(names(await search('searchTerm=order'))).toEqual(['Order 50% off', 'Red order_ref', 'Blue ORDER']);
      expect(names(await search('searchTerm=order', alice.headers))).toEqual(['Order 50% off', 'Red order_ref']);
      expect(names(await search(`searchTerm=ORDER&teamId=${blue.teamId}&onlyTeamFields=true`))).toEqual(['Blue ORDER']);
      expect(names(await search('searchTerm=50%25'))).toEqual(['Order 50% off']);
      expect(names(await search('searchTerm=r_r'))).toEqual(['Red order_ref']);
      expect(names(await search('searchTerm=%25'))).toEqual(['Order 50% off']);
      expect(names(await search('searchTerm=order&limit=1&page=1'))).toEqual(['Red order_ref']);
      expectError(
        await request('GET', `/v1/custom-field/search?searchTerm=x&teamId=${blue.teamId}`, undefined, bob.headers),
        400,
        'User is not a member of this team!',
      );
    });

    it.each(['', '?searchTerm=', '?searchTerm=%20%20'])(
      'search without a term (%s) is 400 No search term provided',
      async (query) => {
        expectError(
          await request('GET', `/v1/custom-field/search${query}`, undefined, org.headers),
          400,
          'No search term provided',
        );
      },
    );

    it('pages through 250 fields with limit=100: each exactly once, in creation order', async () => {
      const big = await makeOrganization(harness);
      const created: string[] = [];
      for (let n = 0; n < 250; n++) {
        if (n % 7 === 0) {
          harness.clock.advance(1);
        }
        const response = await request(
          'POST',
          '/v1/custom-field',
          { name: `Field ${n % 40}`, source: 'ticket', fieldType: 'single_line' },
          big.headers,
        );
        created.push(response.json().data.uid);
      }
      const pages = [];
      for (let page = 0; page < 4; page++) {
        pages.push(uids(await list(`?limit=100&page=${page}`, big.headers)));
      }
      expect(pages.map((page) => page.length)).toEqual([100, 100, 50, 0]);
      expect(pages.flat()).toEqual(created);
      expect(new Set(pages.flat()).size).toBe(250);
      expect(await list('', big.headers)).toHaveLength(10);
    });
  });

  describe('bulk update', () => {
    it('updates several fields in one request: each up one version, the updated fields answered in request order', async () => {
      const plan = await create({ name: 'Plan', source: 'ticket', fieldType: 'multi_choice', options: [{ value: 'A' }] });
      const notes = await create({ name: 'Notes', source: 'ticket', fieldType: 'multi_line' });
      harness.clock.advance(60_000);
      const response = await patch([
        {
          fieldId: notes.uid,
          version: 1,
          updates: { name: 'Internal notes', description: null, isActive: false, hintText: 'h' },
        },
        {
          fieldId: plan.uid,
          version: 1,
          updates: {
            options: [{ value: 'A' }, { value: 'B' }],
            defaultValue: 'b',
            regexForValidation: '^[A-Z]$',
            mandatoryOnClose: true,
          },
        },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      expect(Object.keys(response.json())).toEqual(['data', 'status', 'message', 'timestamp']);
      const [updatedNotes, updatedPlan] = response.json().data;
      expect(updatedNotes).toMatchObject({
        uid: notes.uid,
        name: 'Internal notes',
        slug: 'notes',
        isActive: false,
        hintText: 'h',
        version: 2,
      });
      expect(updatedNotes.updatedAt).not.toBe(notes.updatedAt);
      expect(updatedPlan).toMatchObject({
        uid: plan.uid,
        options: ['A', 'B'],
        defaultValue: 'B',
        regexForValidation: '^[A-Z]$',
        mandatoryOnClose: true,
        version: 2,
      });
      expect((await request('GET', `/v1/custom-field/${plan.uid}`)).json().data).toEqual(updatedPlan);
    });

    it('a stale version anywhere: 409 naming each stale fieldId with its current version, nothing written', async () => {
      const one = await create({ name: 'One', source: 'ticket', fieldType: 'integer' });
      const two = await create({ name: 'Two', source: 'ticket', fieldType: 'integer' });
      const three = await create({ name: 'Three', source: 'ticket', fieldType: 'integer' });
      expect((await patch([{ fieldId: two.uid, version: 1, updates: { hintText: 'x' } }])).statusCode).toBe(200);
      expect((await patch([{ fieldId: three.uid, version: 1, updates: { hintText: 'x' } }])).statusCode).toBe(200);
      expect((await patch([{ fieldId: three.uid, version: 2, updates: { hintText: 'y' } }])).statusCode).toBe(200);
      const response = await patch([
        { fieldId: one.uid, version: 1, updates: { name: 'One changed' } },
        { fieldId: two.uid, version: 1, updates: { name: 'Two changed' } },
        { fieldId: three.uid, version: 2, updates: { name: 'Three changed' } },
      ]);
      const admin = (await request('GET', `/v1/users/${acme.userId}`)).json().data.name;
      expectError(
        response,
        409,
        `Custom fields were changed by someone else; nothing was updated. Stale: ${two.uid} (sent version 1, current version 2, last changed by ${admin}), ${three.uid} (sent version 2, current version 3, last changed by ${admin})`,
      );
      const after = await Promise.all(
        [one, two, three].map(async (field) => (await request('GET', `/v1/custom-field/${field.uid}`)).json().data),
      );
      expect(after.map((field) => [field.name, field.version])).toEqual([
        ['One', 1],
        ['Two', 2],
        ['Three', 3],
      ]);
    });

    it('updatedBy names whose change made the version: the creator, then each writer; a 409 names the winner', async () => {
      const field = await create({ name: 'Alpha tracked', source: 'ticket', fieldType: 'single_line', teamId: teamA.teamId });
      expect(field.updatedBy).toBe(acme.userId);
      const managed = await patch([{ fieldId: field.uid, version: 1, updates: { hintText: 'by manager' } }], manager.headers);
      expect(managed.statusCode, managed.body).toBe(200);
      expect(managed.json().data[0]).toMatchObject({ version: 2, updatedBy: manager.userId });
      expect((await request('GET', `/v1/custom-field/${field.uid}`)).json().data.updatedBy).toBe(manager.userId);
      expectError(
        await patch([{ fieldId: field.uid, version: 1, updates: { hintText: 'stale' } }]),
        409,
        `Custom fields were changed by someone else; nothing was updated. Stale: ${field.uid} (sent version 1, current version 2, last changed by Manon Manager)`,
      );
      const after = (await request('GET', `/v1/custom-field/${field.uid}`)).json().data;
      expect([after.hintText, after.version, after.updatedBy]).toEqual(['by manager', 2, manager.userId]);
      const deleted = await request('DELETE', `/v1/custom-field/${field.uid}`);
      expect(deleted.json().data).toMatchObject({ version: 3, updatedBy: acme.userId });
    });

    it('unknown, repeated, foreign and deleted fields; bad versions and updates: 400/404, nothing written', async () => {
      const mine = await create({
        name: 'Mine',
        source: 'ticket',
        fieldType: 'single_choice',
        options: [{ value: 'A' }],
        defaultValue: 'A',
      });
      const gone = await create({ name: 'Gone', source: 'ticket', fieldType: 'integer' });
      await request('DELETE', `/v1/custom-field/${gone.uid}`);
      const theirs = await create({ name: 'Theirs', source: 'ticket', fieldType: 'integer' }, globex.headers);
      const ok = { fieldId: mine.uid, version: 1, updates: { name: 'Renamed' } };
      const unknown = '01KAAAAAAAAAAAAAAAAAAAAAAA';
      const cases: [object[], number, string][] = [
        [
          [ok, { fieldId: unknown, version: 1, updates: { name: 'x' } }],
          400,
          `fields.1.fieldId is not a custom field: ${unknown}`,
        ],
        [
          [ok, { fieldId: gone.uid, version: 2, updates: { name: 'x' } }],
          400,
          `fields.1.fieldId is not a custom field: ${gone.uid}`,
        ],
        [[ok, { ...ok, version: 1 }], 400, `fields.1.fieldId lists custom field ${mine.uid} a second time`],
        [[ok, { fieldId: theirs.uid, version: 1, updates: { name: 'x' } }], 404, 'Custom field not found!'],
        [[{ ...ok, version: 'one' }], 400, 'fields.0.version must be a whole number'],
        [[{ ...ok, version: 1.5 }], 400, 'fields.0.version must be a whole number'],
        [[{ fieldId: mine.uid, updates: { name: 'x' } }], 400, 'fields.0.version is required'],
        [[{ ...ok, updates: {} }], 400, 'fields.0.updates must change at least one property'],
        [[{ ...ok, updates: { slug: 'x' } }], 400, 'fields.0.updates.slug is not an accepted field'],
        [[{ ...ok, updates: { fieldType: 'integer' } }], 400, 'fields.0.updates.fieldType is not an accepted field'],
        [
          [{ ...ok, updates: { regexForValidation: '(' } }],
          400,
          'fields.0.updates.regexForValidation must be a valid regular expression',
        ],
        [
          [{ ...ok, updates: { options: [] } }],
          400,
          'fields.0.updates.options must have at least one option for a single_choice field',
        ],
        [
          [{ ...ok, updates: { options: [{ value: 'B' }, { value: 'b' }] } }],
          400,
          'fields.0.updates.options.1.value repeats the option "b"; option values must be unique',
        ],
        [[{ ...ok, updates: { options: [{ value: 'B' }] } }], 400, 'fields.0.updates.defaultValue must be one of: B'],
        [[{ ...ok, updates: { options: ['B'] } }], 400, 'fields.0.updates.options.0 must be an object'],
        [[], 400, 'fields must have at least 1 items'],
      ];
      for (const [fields, status, message] of cases) {
        expectError(await patch(fields), status, message);
      }
      expectError(await request('PATCH', '/v1/custom-field', {}), 400, 'fields is required');
      const after = (await request('GET', `/v1/custom-field/${mine.uid}`)).json().data;
      expect(after).toMatchObject({ name: 'Mine', version: 1, options: ['A'] });
      expect((await request('GET', `/v1/custom-field/${theirs.uid}`, undefined, globex.headers)).json().data).toMatchObject({
        version: 1,
      });
    });

    it('team-specific fields are changed by their team’s managers and organization admins only', async () => {
      const field = await create({ name: 'Alpha field', source: 'ticket', fieldType: 'time', teamId: teamA.teamId });
      for (const caller of [outsider, member]) {
        expectError(
          await patch([{ fieldId: field.uid, version: 1, updates: { hintText: 'x' } }], caller.headers),
          403,
          'User does not have access to this resource!',
        );
        expectError(
          await request('DELETE', `/v1/custom-field/${field.uid}`, undefined, caller.headers),
          403,
          'User does not have access to this resource!',
        );
      }
      expect((await request('GET', `/v1/custom-field/${field.uid}`)).json().data).toMatchObject({ version: 1, hintText: null });
      expect((await patch([{ fieldId: field.uid, version: 1, updates: { hintText: 'x' } }], manager.headers)).statusCode).toBe(
        200,
      );
      expect((await patch([{ fieldId: field.uid, version: 2, updates: { hintText: 'y' } }])).statusCode).toBe(200);
    });

    it('organization-wide fields are created, changed and deleted by organization admins only', async () => {
      const field = await create({ name: 'Everyone’s field', source: 'ticket', fieldType: 'single_line' });
      for (const caller of [member, manager]) {
        expectError(
          await request(
            'POST',
            '/v1/custom-field',
            { name: 'Not theirs', source: 'ticket', fieldType: 'single_line' },
            caller.headers,
          ),
          403,
          'User does not have access to this resource!',
        );
        expectError(
          await patch([{ fieldId: field.uid, version: 1, updates: { isActive: false } }], caller.headers),
          403,
          'User does not have access to this resource!',
        );
        expectError(
          await request('DELETE', `/v1/custom-field/${field.uid}`, undefined, caller.headers),
          403,
          'User does not have access to this resource!',
        );
      }
      expect((await request('GET', `/v1/custom-field/${field.uid}`)).json().data).toMatchObject({ version: 1, isActive: true });
      expect((await list('?limit=100')).map((row) => row.name)).not.toContain('Not theirs');
      expect((await request('DELETE', `/v1/custom-field/${field.uid}`)).statusCode).toBe(200);
    });

    it('two concurrent updates of one field at the same version: exactly one wins', async () => {
      for (let round = 0; round < 5; round++) {
        const field = await create({ name: `Raced ${round}`, source: 'ticket', fieldType: 'single_line' });
        const responses = await Promise.all(
          ['left', 'right'].map((side) => patch([{ fieldId: field.uid, version: 1, updates: { hintText: side } }])),
        );
        expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
        const after = (await request('GET', `/v1/custom-field/${field.uid}`)).json().data;
        expect(after.version).toBe(2);
        const winner = responses.find((response) => response.statusCode === 200)?.json().data[0];
        expect(after.hintText).toBe(winner.hintText);
      }
    });
  });
});

describe.each(DIALECTS)('custom field list pages on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let team: TestTeam;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    team = await makeTeam(harness, acme);
  });
  afterAll(() => harness.close());

  const create = async (headers: Headers, payload: object) => {
    const response = await harness.app.inject({ method: 'POST', url: '/v1/custom-field', headers, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { uid: string; createdAt: string };
  };

  it('pages fields of a source by cursor or by page in creation order, and a search alike, never another organization’s', async () => {
    const tickets: { id: string; at: string }[] = [];
    for (let n = 0; n < 25; n++) {
      if (n % 3 === 0) {
        harness.clock.advance(1);
      }
      // Organization-wide and team fields of the caller's team, among fields of another source.
      const field = await create(acme.headers, {
        name: `Order ${n}`,
        source: 'ticket',
        fieldType: 'single_line',
        ...(n % 2 === 0 && { teamId: team.teamId }),
      });
      tickets.push({ id: field.uid, at: field.createdAt });
      await create(acme.headers, { name: `Order ${n}`, source: 'account', fieldType: 'single_line' });
      await create(acme.headers, { name: `Region ${n}`, source: 'ticket', fieldType: 'single_line' });
    }
    const removed = await create(acme.headers, { name: 'Order removed', source: 'ticket', fieldType: 'single_line' });
    const deleted = await harness.app.inject({ method: 'DELETE', url: `/v1/custom-field/${removed.uid}`, headers: acme.headers });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const foreign = [await create(globex.headers, { name: 'Order', source: 'ticket', fieldType: 'single_line' })];
    const other = { headers: globex.headers, ids: foreign.map((field) => field.uid) };
    const idOf = (row: { [key: string]: unknown }) => row.uid;

    await expectCursorPagedList({
      app: harness.app,
      url: '/v1/custom-field/search?searchTerm=order&source=ticket&limit=10',
      headers: acme.headers,
      read: envelopePage,
      idOf,
      expected: idsInOrder(tickets),
      pageNumbers: true,
      other: { ...other, url: '/v1/custom-field/search?searchTerm=order&source=ticket&limit=10' },
    });
    const teamOnly = (
      await walkPages(
        harness.app,
        `/v1/custom-field?teamId=${team.teamId}&onlyTeamFields=true&limit=10`,
        acme.headers,
        envelopePage,
      )
    ).flat();
    expect(teamOnly.map(idOf)).toEqual(idsInOrder(tickets.filter((_, n) => n % 2 === 0)));
    const bySource = (
      await walkPages(harness.app, '/v1/custom-field?source=account&limit=10', acme.headers, envelopePage)
    ).flat();
    expect(bySource).toHaveLength(25);
  });
});
