import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { DEFAULT_DAILY_CONFIG } from '../team-configurations/team-configuration.defaults.js';

const LATER = '2026-01-16T10:30:00.000Z';
const LATEST = '2026-01-17T08:00:00.000Z';
const badRequest = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' });

type Headers = { 'x-api-key': string };

describe.each(DIALECTS)('users’ own business hours on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
  });
  afterEach(() => harness.clock.set(TEST_NOW));
  afterAll(() => harness.close());

  const get = (headers: Headers) => harness.app.inject({ url: '/v1/users/business-hours', headers });
  const patch = (headers: Headers, payload: unknown) =>
    harness.app.inject({ method: 'PATCH', url: '/v1/users/business-hours', headers, payload: payload as object });
  const hoursOf = async (headers: Headers) => (await get(headers)).json().data;
  const userTimezone = async (userId: string) =>
    (await harness.db.selectFrom('users').select(['timezone']).where('id', '=', userId).executeTakeFirstOrThrow()).timezone;
  const defaultsFor = (userId: string, timezone: string | null = null) => ({
    timezone,
    userId,
    dailyConfig: DEFAULT_DAILY_CONFIG,
    commonDailyConfig: false,
    commonSlots: [{ start: '09:00', end: '17:00' }],
    createdAt: null,
    updatedAt: null,
  });

  it('shows the defaults, with null timestamps, until the user saves hours', async () => {
    const user = await makeUser(harness, acme.organizationId);
    const response = await get(user.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true, message: 'Success', timestamp: TEST_NOW, data: defaultsFor(user.userId) });
  });

  it('creates the hours on the first PATCH from the defaults, replacing only the days sent', async () => {
    const user = await makeUser(harness, acme.organizationId);
    harness.clock.set(LATER);
    const saturday = { isActive: true, slots: [{ start: '10:00', end: '14:00' }] };
    const response = await patch(user.headers, { timezone: 'Europe/Paris', dailyConfig: { saturday } });
    expect(response.statusCode).toBe(200);
    const expected = {
      ...defaultsFor(user.userId, 'Europe/Paris'),
      dailyConfig: { ...DEFAULT_DAILY_CONFIG, saturday },
      createdAt: LATER,
      updatedAt: LATER,
    };
    expect(response.json()).toEqual({ status: true, message: 'Success', timestamp: LATER, data: expected });
    expect(await hoursOf(user.headers)).toEqual(expected);
    expect(await userTimezone(user.userId)).toBe('Europe/Paris');

    harness.clock.set(LATEST);
    const overnight = [
      { start: '00:00', end: '02:00' },
      { start: '21:00', end: '24:00' },
    ];
    const second = await patch(user.headers, { commonDailyConfig: true, commonSlots: overnight });
    // With common hours, every day shows them, as routing applies them (weekends included).
    const everyDay = Object.fromEntries(
      Object.keys(DEFAULT_DAILY_CONFIG).map((day) => [day, { isActive: true, slots: overnight }]),
    );
    expect(second.json().data).toEqual({
      ...expected,
      dailyConfig: everyDay,
      commonDailyConfig: true,
      commonSlots: overnight,
      updatedAt: LATEST,
    });
    expect(await hoursOf(user.headers)).toEqual(second.json().data);
    expect(await userTimezone(user.userId)).toBe('Europe/Paris');

    // The days kept underneath apply again once common hours are off.
    const third = await patch(user.headers, { commonDailyConfig: false });
    expect(third.json().data.dailyConfig).toEqual(expected.dailyConfig);
  });

  it("clears the user's time zone with null, back to the team's", async () => {
    const user = await makeUser(harness, acme.organizationId);
    await patch(user.headers, { timezone: 'Asia/Tokyo' });
    const response = await patch(user.headers, { timezone: null });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.timezone).toBeNull();
    expect(await userTimezone(user.userId)).toBeNull();
  });

  it('starts from the time zone already on the user when none is sent', async () => {
    const user = await makeUser(harness, acme.organizationId);
    await harness.db.updateTable('users').set({ timezone: 'America/New_York' }).where('id', '=', user.userId).execute();
    expect((await hoursOf(user.headers)).timezone).toBe('America/New_York');
    const response = await patch(user.headers, { commonDailyConfig: true });
    expect(response.json().data).toMatchObject({ timezone: 'America/New_York', commonDailyConfig: true, createdAt: TEST_NOW });
  });

  it("touches only the caller's hours", async () => {
    const ada = await makeUser(harness, acme.organizationId);
    const bob = await makeUser(harness, acme.organizationId);
    await patch(ada.headers, { timezone: 'Europe/Paris', commonDailyConfig: true });
    expect(await hoursOf(bob.headers)).toEqual(defaultsFor(bob.userId));
    expect(await hoursOf(globex.headers)).toEqual(defaultsFor(globex.userId));
    expect(await userTimezone(bob.userId)).toBeNull();
  });

  it.each([
    ['an unknown time zone', { timezone: 'Europe/Atlantis' }, 'timezone must be a valid IANA time zone'],
    [
      'overlapping slots',
      {
        commonSlots: [
          { start: '09:00', end: '17:00' },
          { start: '16:00', end: '18:00' },
        ],
      },
      'commonSlots[1] overlaps commonSlots[0]',
    ],
    [
      'a slot ending before it starts',
      { dailyConfig: { monday: { isActive: true, slots: [{ start: '12:00', end: '08:00' }] } } },
      'dailyConfig.monday.slots[0] must start before it ends (12:00 is not before 08:00)',
    ],
    ['a time that is not HH:MM', { commonSlots: [{ start: '09:00', end: '25:00' }] }, 'commonSlots.0.end has an invalid format'],
    ['holidays, which users do not have', { holidays: ['25-12'] }, 'holidays is not an accepted field'],
    ['an unknown field', { userId: 'someone' }, 'userId is not an accepted field'],
    [
      'an unknown day',
      { dailyConfig: { weekend: { isActive: false, slots: [] } } },
      'dailyConfig.weekend is not an accepted field',
    ],
    ['a missing isActive', { dailyConfig: { monday: { slots: [] } } }, 'dailyConfig.monday.isActive is required'],
  ])('rejects %s with a 400 naming the field and writes nothing', async (_, invalid, message) => {
    const fresh = await makeUser(harness, acme.organizationId);
    const saved = await makeUser(harness, acme.organizationId);
    await patch(saved.headers, { timezone: 'Europe/Paris' });
    const savedBefore = await hoursOf(saved.headers);
    harness.clock.set(LATER);
    for (const user of [fresh, saved]) {
      const response = await patch(user.headers, { timezone: 'Asia/Tokyo', ...invalid });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(badRequest(message));
    }
    expect(await hoursOf(fresh.headers)).toEqual(defaultsFor(fresh.userId));
    expect(await userTimezone(fresh.userId)).toBeNull();
    expect(await hoursOf(saved.headers)).toEqual(savedBefore);
    expect(await userTimezone(saved.userId)).toBe('Europe/Paris');
  });
});
