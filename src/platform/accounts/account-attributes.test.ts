import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { ACCOUNT_ATTRIBUTE_DEFAULTS } from './account-attribute.defaults.js';
import { ACCOUNT_ATTRIBUTES } from './account-attribute.table.js';

interface Value {
  id: string;
  attribute: string;
  value: string;
  isDefault: boolean;
  configuration: { icon: string | null; color: string | null };
}

describe.each(DIALECTS)('account attribute values on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId);
  });
  afterAll(() => harness.close());

  const request = (method: string, url: string, payload?: object, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  const list = async (attribute: string, headers: Record<string, string> = acme.headers): Promise<Value[]> => {
    const response = await request('GET', `/v1/accounts/attributes?attribute=${attribute}`, undefined, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const rowCount = async (organizationId: string) =>
    Number(
      (
        await harness.db
          .selectFrom('account_attribute_values')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('organization_id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('every organization starts with the defaults of each attribute, exactly one default each, bare (no envelope)', async () => {
    const noteTypes = await list('note_type');
    expect(noteTypes).toEqual([
      {
        id: expect.any(String),
        attribute: 'note_type',
        value: 'General',
        isDefault: true,
        configuration: { icon: 'document-text', color: '#6B7280' },
        createdAt: TEST_NOW,
        updatedAt: TEST_NOW,
      },
      expect.objectContaining({ value: 'Meeting', isDefault: false }),
      expect.objectContaining({ value: 'Call', isDefault: false }),
      expect.objectContaining({ value: 'Email', isDefault: false }),
    ]);
    for (const attribute of ACCOUNT_ATTRIBUTES) {
      const values = await list(attribute);
      expect(values.map((value) => value.value)).toEqual(ACCOUNT_ATTRIBUTE_DEFAULTS[attribute].map((seed) => seed.value));
      expect(values.filter((value) => value.isDefault)).toHaveLength(1);
    }
    // Another organization gets its own set, with its own ids.
    const foreign = await list('note_type', globex.headers);
    expect(foreign.map((value) => value.value)).toEqual(['General', 'Meeting', 'Call', 'Email']);
    expect(foreign.map((value) => value.id)).not.toContain(noteTypes[0]?.id);
  });

  it('seeds once when many requests meet a new organization at the same time', async () => {
    const fresh = await makeOrganization(harness);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        request('GET', `/v1/accounts/attributes?attribute=${ACCOUNT_ATTRIBUTES[index % 6]}`, undefined, fresh.headers),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    const expected = Object.values(ACCOUNT_ATTRIBUTE_DEFAULTS).reduce((sum, seeds) => sum + seeds.length, 0);
    expect(await rowCount(fresh.organizationId)).toBe(expected);
    for (const attribute of ACCOUNT_ATTRIBUTES) {
      expect((await list(attribute, fresh.headers)).filter((value) => value.isDefault)).toHaveLength(1);
    }
  });

  it('creates a value (201); isDefault moves the default to it', async () => {
    const response = await request('POST', '/v1/accounts/attributes', {
      attribute: 'account_status',
      value: '  Onboarding ',
      icon: 'rocket-launch',
      color: '#A855F7',
      isDefault: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      attribute: 'account_status',
      value: 'Onboarding',
      isDefault: true,
      configuration: { icon: 'rocket-launch', color: '#A855F7' },
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    const statuses = await list('account_status');
    expect(statuses.filter((value) => value.isDefault).map((value) => value.value)).toEqual(['Onboarding']);
    expect(statuses.at(-1)?.value).toBe('Onboarding');

    const plain = await request('POST', '/v1/accounts/attributes', { attribute: 'note_type', value: 'Demo' });
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toMatchObject({ value: 'Demo', isDefault: false, configuration: { icon: null, color: null } });
  });

  it('only admins add, change and delete values: a member gets 403 and nothing is written', async () => {
    const value = (await request('POST', '/v1/accounts/attributes', { attribute: 'contact_type', value: 'Partner' })).json();
    const before = await list('contact_type');
    const refused = [
      await request(
        'POST',
        '/v1/accounts/attributes',
        { attribute: 'contact_type', value: 'Theirs', isDefault: true },
        member.headers,
      ),
      await request('PUT', `/v1/accounts/attributes/${value.id}`, { value: 'Renamed', isDefault: true }, member.headers),
      await request('DELETE', `/v1/accounts/attributes/${value.id}`, undefined, member.headers),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        statusCode: 403,
        message: 'User does not have access to this resource!',
        error: 'Forbidden',
      });
    }
    expect(await list('contact_type')).toEqual(before);
    // Members still read them, to pick from.
    expect((await list('contact_type', member.headers)).map((entry) => entry.value)).toContain('Partner');
  });

  it('a value is unique per attribute, case-insensitively (409), but free in another attribute or organization', async () => {
    const clash = await request('POST', '/v1/accounts/attributes', { attribute: 'note_type', value: 'meeting' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      statusCode: 409,
      message: 'The note_type value "Meeting" already exists!',
      error: 'Conflict',
    });
    expect((await request('POST', '/v1/accounts/attributes', { attribute: 'contact_type', value: 'Meeting' })).statusCode).toBe(
      201,
    );
    expect(
      (await request('POST', '/v1/accounts/attributes', { attribute: 'note_type', value: 'Workshop' }, globex.headers))
        .statusCode,
    ).toBe(201);
    expect((await list('note_type')).map((value) => value.value)).not.toContain('Workshop');
  });

  it.each([
    [{ value: 'X' }, 'attribute is required'],
    [
      { attribute: 'task_status', value: 'X' },
      'attribute must be one of: account_status, account_classification, account_health, account_industry, contact_type, note_type',
    ],
    [{ attribute: 'note_type' }, 'value is required'],
    [{ attribute: 'note_type', value: '' }, 'value must be at least 1 characters long'],
    [{ attribute: 'note_type', value: '   ' }, 'value must not be blank'],
    [{ attribute: 'note_type', value: 'X', color: 'red' }, 'color has an invalid format'],
    [{ attribute: 'note_type', value: 'X', isDefault: 'yes' }, 'isDefault must be a boolean'],
    [{ attribute: 'note_type', value: 'X', isClosed: true }, 'isClosed is not an accepted field'],
  ])('rejects %j with a 400, writing nothing', async (payload, message) => {
    await list('note_type');
    const before = await rowCount(acme.organizationId);
    const response = await request('POST', '/v1/accounts/attributes', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    expect(await rowCount(acme.organizationId)).toBe(before);
  });

  it('lists need the attribute (400)', async () => {
    const response = await request('GET', '/v1/accounts/attributes');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message: 'attribute is required', error: 'Bad Request' });
  });

  it('updates a value: renames, recolours, becomes the default; the default cannot be switched off', async () => {
    const call = (await list('note_type')).find((value) => value.value === 'Call') as Value;
    harness.clock.advance(60_000);
    const updated = await request('PUT', `/v1/accounts/attributes/${call.id}`, {
      value: 'Phone call',
      color: '#000000',
      isDefault: true,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      id: call.id,
      value: 'Phone call',
      isDefault: true,
      configuration: { icon: 'phone', color: '#000000' },
      updatedAt: harness.clock.now().toISOString(),
    });
    const defaults = (await list('note_type')).filter((value) => value.isDefault);
    expect(defaults.map((value) => value.id)).toEqual([call.id]);

    const off = await request('PUT', `/v1/accounts/attributes/${call.id}`, { isDefault: false });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe(
      'isDefault cannot be turned off: every attribute has one default; make another value the default instead',
    );
    const general = (await list('note_type')).find((value) => value.value === 'General') as Value;
    const clash = await request('PUT', `/v1/accounts/attributes/${general.id}`, { value: 'PHONE CALL' });
    expect(clash.statusCode).toBe(409);
    // Renaming to its own name in another case is fine.
    expect((await request('PUT', `/v1/accounts/attributes/${general.id}`, { value: 'general' })).json().value).toBe('general');
    await request('PUT', `/v1/accounts/attributes/${general.id}`, { value: 'General', isDefault: true });
  });

  it('deletes a value (soft) with {statusCode, message, data}; the default cannot be deleted', async () => {
    const created = (await request('POST', '/v1/accounts/attributes', { attribute: 'account_health', value: 'Unknown' })).json();
    const response = await request('DELETE', `/v1/accounts/attributes/${created.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: 200, message: 'Account attribute value deleted successfully', data: null });
    expect((await list('account_health')).map((value) => value.value)).not.toContain('Unknown');
    // The name is free again.
    expect((await request('POST', '/v1/accounts/attributes', { attribute: 'account_health', value: 'unknown' })).statusCode).toBe(
      201,
    );

    const healthy = (await list('account_health')).find((value) => value.isDefault) as Value;
    const refused = await request('DELETE', `/v1/accounts/attributes/${healthy.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      statusCode: 409,
      message: 'The default account_health value cannot be deleted; make another value the default first!',
      error: 'Conflict',
    });
  });

  it("another organization's value, an unknown one and a deleted one are 404; a missing id is 400", async () => {
    const foreign = (await list('note_type', globex.headers))[1] as Value;
    const created = (await request('POST', '/v1/accounts/attributes', { attribute: 'note_type', value: 'Gone' })).json();
    await request('DELETE', `/v1/accounts/attributes/${created.id}`);
    for (const id of [foreign.id, created.id, '01KAAAAAAAAAAAAAAAAAAAAAAA', 'nope']) {
      for (const [method, payload] of [
        ['PUT', { value: 'Mine' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await request(method, `/v1/accounts/attributes/${id}`, payload);
        expect(response.statusCode, `${method} ${id}`).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Account attribute value not found!', error: 'Not Found' });
      }
    }
    expect((await list('note_type', globex.headers))[1]).toEqual(foreign);
    const missing = await request('PUT', '/v1/accounts/attributes/%20', { value: 'X' });
    expect(missing.json()).toEqual({ statusCode: 400, message: 'Attribute value ID is required!', error: 'Bad Request' });
  });
});
