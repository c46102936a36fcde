import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import type { CreateCustomField } from './custom-field.schemas.js';
import { bulkUpdateCustomFields, createCustomField, deleteCustomField } from './custom-field.service.js';
import { mergeCustomFieldValues, validateCustomFieldValues } from './custom-field.values.js';

describe('mergeCustomFieldValues', () => {
  it('merges by fieldId: changed values keep their place, new ones are appended, null clears', () => {
    const existing = [
      { fieldId: 'A', value: 'one' },
      { fieldId: 'B', value: 2 },
      { fieldId: 'C', value: ['x'] },
    ];
    expect(
      mergeCustomFieldValues(existing, [
        { fieldId: 'B', value: 3 },
        { fieldId: 'D', value: 'new' },
        { fieldId: 'C', value: null },
      ]),
    ).toEqual([
      { fieldId: 'A', value: 'one' },
      { fieldId: 'B', value: 3 },
      { fieldId: 'D', value: 'new' },
    ]);
    expect(mergeCustomFieldValues(existing, [])).toEqual(existing);
    expect(existing).toHaveLength(3);
  });
});

describe.each(DIALECTS)('custom-field values of records on %s', (dialect) => {
  let harness: TestApp;
  let organization: TestOrganization;
  let principal: Principal;
  const ids: Record<string, string> = {};
  let teamId: string;
  let otherTeamId: string;

  const define = async (key: string, input: Partial<CreateCustomField> & Pick<CreateCustomField, 'fieldType'>) => {
    const field = await createCustomField(harness, principal, { name: key, source: 'ticket', ...input });
    ids[key] = field.uid;
    return field;
  };
  const id = (key: string) => ids[key] ?? key;
  const validate = (
    values: { fieldId: string; value?: unknown }[],
    options: Parameters<typeof validateCustomFieldValues>[4] = { onCreate: false },
  ) =>
    validateCustomFieldValues(
      harness.db,
      organization.organizationId,
      'ticket',
      values.map((entry) => ({ ...entry, fieldId: id(entry.fieldId) })),
      options,
    );
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.code).toBe('VALIDATION');
    return { message: appError.message, path: appError.issues?.[0]?.path };
  };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    organization = await makeOrganization(harness);
    principal = {
      organizationId: organization.organizationId,
      userId: organization.userId,
      userType: 'ORG_ADMIN',
      apiKeyId: 'k',
      apiKeyPrefix: 'k',
    };
    teamId = (await makeTeam(harness, organization)).teamId;
    otherTeamId = (await makeTeam(harness, organization)).teamId;
    await define('Text', { fieldType: 'single_line', regexForValidation: '^[A-Z]' });
    await define('Notes', { fieldType: 'multi_line' });
    await define('Seats', { fieldType: 'integer' });
    await define('Price', { fieldType: 'currency' });
    await define('Ratio', { fieldType: 'decimal' });
    await define('Due', { fieldType: 'date' });
    await define('At', { fieldType: 'date_time' });
    await define('Opens', { fieldType: 'time' });
    await define('Plan', { fieldType: 'single_choice', options: [{ value: 'Gold' }, { value: 'Silver' }] });
    await define('Size', { fieldType: 'radio_button', options: [{ value: 'S' }, { value: 'M' }] });
    await define('Regions', { fieldType: 'multi_choice', options: [{ value: 'EU' }, { value: 'US' }] });
    await define('Flags', { fieldType: 'checkbox', options: [{ value: 'vip' }, { value: 'beta' }] });
    await define('Email', { fieldType: 'email' });
    await define('Phone', { fieldType: 'phone_number' });
    await define('Site', { fieldType: 'url' });
    await define('Account only', { fieldType: 'single_line', source: 'account' });
    await define('Team field', { fieldType: 'single_line', teamId });
    await define('Retired', { fieldType: 'single_line', isActive: false });
  });
  afterAll(() => harness.close());

  it('accepts fitting values and returns them normalised, in the order given', async () => {
    const values = await validate([
      { fieldId: 'Text', value: '  Hello ' },
      { fieldId: 'Notes', value: 'line one\nline two' },
      { fieldId: 'Seats', value: '25' },
      { fieldId: 'Price', value: 12.5 },
      { fieldId: 'Ratio', value: '-0.25' },
      { fieldId: 'Due', value: '2026-02-28' },
      { fieldId: 'At', value: '2026-01-15T10:00:00+01:00' },
      { fieldId: 'Opens', value: '08:30' },
      { fieldId: 'Plan', value: 'gold' },
      { fieldId: 'Size', value: 'M' },
      { fieldId: 'Regions', value: ['us', 'EU', 'US'] },
      { fieldId: 'Flags', value: 'vip' },
      { fieldId: 'Email', value: 'a@b.example' },
      { fieldId: 'Phone', value: '+49 (30) 1234-567' },
      { fieldId: 'Site', value: 'https://example.com/x' },
      { fieldId: 'Team field', value: '' },
    ]);
    expect(values.map((entry) => entry.value)).toEqual([
      'Hello',
      'line one\nline two',
      25,
      12.5,
      -0.25,
      '2026-02-28',
      '2026-01-15T09:00:00.000Z',
      '08:30',
      'Gold',
      'M',
      ['US', 'EU'],
      ['vip'],
      'a@b.example',
      '+49 (30) 1234-567',
      'https://example.com/x',
      null,
    ]);
    expect(values[0]?.fieldId).toBe(id('Text'));
  });

  it.each([
    ['Text', 'hello', 'must match the pattern ^[A-Z]'],
    ['Text', 'Two\nlines', 'must be a single line'],
    ['Text', 5, 'must be a string'],
    ['Seats', '2.5', 'must be a whole number'],
    ['Seats', 1e20, 'must be a whole number'],
    ['Price', 'ten', 'must be a number'],
    ['Due', '2026-02-30', 'must be a date (YYYY-MM-DD)'],
    ['At', '2026-01-15T10:00:00', 'must be a date and time with a time zone (ISO 8601, e.g. 2026-01-15T09:00:00Z)'],
    ['Opens', '24:00', 'must be a time of day (HH:MM or HH:MM:SS)'],
    ['Plan', 'Bronze', 'must be one of: Gold, Silver'],
    ['Plan', ['Gold'], 'must be one of: Gold, Silver'],
    ['Regions', ['EU', 'APAC'], 'must only hold options from: EU, US'],
    ['Regions', 7, 'must be a list of options from: EU, US'],
    ['Email', 'not-an-email', 'must be an email address'],
    ['Phone', 'call me', 'must be a phone number'],
    ['Site', 'ftp://example.com', 'must be an http or https URL'],
    ['Site', 'JaVaScRiPt:alert(1)', 'must be an http or https URL'],
    ['Site', 'data:text/html,<script>alert(1)</script>', 'must be an http or https URL'],
  ])('a %s value of %j is a 400 naming the field and its place', async (key, value, problem) => {
    const result = await failure(
      validate([
        { fieldId: 'Notes', value: 'fine' },
        { fieldId: key, value },
      ]),
    );
    expect(result).toEqual({
      message: `customFieldValues.1.value ${problem} (custom field "${key}")`,
      path: ['customFieldValues', 1, 'value'],
    });
  });

  it('refuses unknown, repeated, other-kind, inactive, deleted and other-team fields', async () => {
    const unknown = '01KAAAAAAAAAAAAAAAAAAAAAAA';
    expect(await failure(validate([{ fieldId: unknown, value: 'x' }]))).toEqual({
      message: `customFieldValues.0.fieldId is not a custom field of the organization: ${unknown}`,
      path: ['customFieldValues', 0, 'fieldId'],
    });
    expect(
      (
        await failure(
          validate([
            { fieldId: 'Notes', value: 'a' },
            { fieldId: 'Notes', value: 'b' },
          ]),
        )
      ).message,
    ).toBe('customFieldValues.1.fieldId lists a custom field a second time (custom field "Notes")');
    expect((await failure(validate([{ fieldId: 'Account only', value: 'x' }]))).message).toBe(
      'customFieldValues.0.fieldId is a custom field of account records, not of ticket records (custom field "Account only")',
    );
    expect((await failure(validate([{ fieldId: 'Retired', value: 'x' }]))).message).toBe(
      'customFieldValues.0.fieldId is an inactive custom field (custom field "Retired")',
    );
    expect(
      (await failure(validate([{ fieldId: 'Team field', value: 'x' }], { onCreate: false, teamId: otherTeamId }))).message,
    ).toBe('customFieldValues.0.fieldId is a custom field of another team than the record\'s (custom field "Team field")');
    expect(await validate([{ fieldId: 'Team field', value: 'x' }], { onCreate: false, teamId })).toEqual([
      { fieldId: id('Team field'), value: 'x' },
    ]);
    const doomed = await define('Doomed', { fieldType: 'single_line' });
    await deleteCustomField(harness, principal, doomed.uid);
    expect((await failure(validate([{ fieldId: 'Doomed', value: 'x' }]))).path).toEqual(['customFieldValues', 0, 'fieldId']);
  });

  it('errors use the path and location the caller gives', async () => {
    const error = await validateCustomFieldValues(
      harness.db,
      organization.organizationId,
      'ticket',
      [{ fieldId: id('Seats'), value: 'x' }],
      {
        onCreate: false,
        path: ['tickets', 3, 'customFieldValues'],
        location: 'query',
      },
    ).catch((caught: AppError) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).issues).toEqual([
      {
        location: 'query',
        path: ['tickets', 3, 'customFieldValues', 0, 'value'],
        rule: 'customFieldValue',
        message: 'must be a whole number',
      },
    ]);
  });

  it('mandatory fields: required on create (and on close when asked), per record kind and team', async () => {
    const other = await makeOrganization(harness);
    const admin: Principal = {
      organizationId: other.organizationId,
      userId: other.userId,
      userType: 'ORG_ADMIN',
      apiKeyId: 'k',
      apiKeyPrefix: 'k',
    };
    const otherTeam = await makeTeam(harness, other);
    const strangerTeam = await makeTeam(harness, other);
    const make = (name: string, input: Partial<CreateCustomField>) =>
      createCustomField(harness, admin, { name, source: 'ticket', fieldType: 'single_line', ...input });
    const must = await make('Must', { mandatoryOnCreation: true });
    const teamMust = await make('Team must', { mandatoryOnCreation: true, teamId: otherTeam.teamId });
    await make('Stranger must', { mandatoryOnCreation: true, teamId: strangerTeam.teamId });
    await make('Account must', { mandatoryOnCreation: true, source: 'account' });
    const retired = await make('Retired must', { mandatoryOnCreation: true });
    await bulkUpdateCustomFields(harness, admin, {
      fields: [{ fieldId: retired.uid, version: 1, updates: { isActive: false } }],
    });
    const closing = await make('On close', { mandatoryOnClose: true });
    const check = (values: { fieldId: string; value: unknown }[], options: Parameters<typeof validateCustomFieldValues>[4]) =>
      validateCustomFieldValues(harness.db, other.organizationId, 'ticket', values, options);

    expect(await check([], { onCreate: false })).toEqual([]);
    expect((await failure(check([], { onCreate: true }))).message).toBe(
      `customFieldValues must hold a value for every custom field mandatory on creation; missing: "Must" (${must.uid})`,
    );
    expect(
      (await failure(check([{ fieldId: must.uid, value: '  ' }], { onCreate: true, teamId: otherTeam.teamId }))).message,
    ).toBe(
      `customFieldValues must hold a value for every custom field mandatory on creation; missing: "Must" (${must.uid}), "Team must" (${teamMust.uid})`,
    );
    expect(
      await check(
        [
          { fieldId: must.uid, value: 'a' },
          { fieldId: teamMust.uid, value: 'b' },
        ],
        { onCreate: true, teamId: otherTeam.teamId },
      ),
    ).toHaveLength(2);
    expect((await failure(check([{ fieldId: must.uid, value: 'a' }], { onCreate: false, onClose: true }))).message).toBe(
      `customFieldValues must hold a value for every custom field mandatory on close; missing: "On close" (${closing.uid})`,
    );
    expect(await check([{ fieldId: closing.uid, value: 'done' }], { onCreate: false, onClose: true })).toHaveLength(1);
  });
});
