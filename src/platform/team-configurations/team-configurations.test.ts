import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeTeamPeople, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { readBoolean } from '../../db/dialect.js';
import { WEEKDAYS } from '../business-hours/hours.schemas.js';
import { DEFAULT_DAILY_CONFIG } from './team-configuration.defaults.js';
import { UpdateTeamConfigurationSchema } from './team-configuration.schemas.js';

const LATER = '2026-01-16T10:30:00.000Z';
const UNKNOWN_TEAM_ID = '01KAAAAAAAAAAAAAAAAAAAAAAA';
const TEAM_NOT_FOUND = { statusCode: 404, message: 'Team not found!', error: 'Not Found' };
const badRequest = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' });

describe.each(DIALECTS)('team configurations on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let globexTeamId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    globexTeamId = (await makeTeam(harness, globex)).teamId;
  });
  afterEach(() => harness.clock.set(TEST_NOW));
  afterAll(() => harness.close());

  const newTeam = async (parentTeamId?: string) => (await makeTeam(harness, acme, { parentTeamId })).teamId;
  const get = (teamId: string, headers = acme.headers) =>
    harness.app.inject({ url: `/v1/teams/${teamId}/configurations`, headers });
  const patch = (teamId: string, payload: unknown, headers = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url: `/v1/teams/${teamId}/configurations`, headers, payload: payload as object });
  const status = (teamId: string, at?: string, headers = acme.headers) =>
    harness.app.inject({
      url: `/v1/teams/${teamId}/business-hours/status${at ? `?at=${encodeURIComponent(at)}` : ''}`,
      headers,
    });
  const configurationOf = async (teamId: string) => (await get(teamId)).json().data;
  const newAgent = async (organization = acme) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/agents',
      headers: organization.headers,
      payload: { name: 'Helper' },
    });
    expect(response.statusCode).toBe(200);
    return response.json().id as string;
  };

  describe('GET /v1/teams/{teamId}/configurations', () => {
    it("returns a new team's default configuration in the envelope, every stored setting included", async () => {
      const teamId = await newTeam();
      const response = await get(teamId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: true,
        message: 'Success',
        timestamp: TEST_NOW,
        data: {
          timezone: 'UTC',
          teamId,
          fallbackSubTeam: null,
          holidays: [],
          routingRespectsTimezone: false,
          routingRespectsUserCapacity: false,
          routingRespectsUserTimezone: false,
          routingRespectsUserAvailability: false,
          routingRespectsUserBusinessHours: false,
          userRoutingStrategy: 'manual',
          commonDailyConfig: false,
          commonSlots: [{ start: '09:00', end: '17:00' }],
          dailyConfig: DEFAULT_DAILY_CONFIG,
          aiAgentId: null,
          aiAgentMode: 'off',
          createdAt: TEST_NOW,
          updatedAt: TEST_NOW,
        },
      });
    });
  });

  describe('PATCH /v1/teams/{teamId}/configurations', () => {
    it('changes only the fields sent, and a dailyConfig with monday only keeps the other days', async () => {
      const teamId = await newTeam();
      const before = await configurationOf(teamId);
      harness.clock.set(LATER);
      const monday = {
        isActive: true,
        slots: [
          { start: '13:00', end: '18:00' },
          { start: '08:00', end: '12:00' },
        ],
      };
      const response = await patch(teamId, {
        timezone: 'America/New_York',
        routingRespectsTimezone: true,
        userRoutingStrategy: 'round_robin',
        holidays: ['25-12', '01-05-2026'],
        dailyConfig: { monday },
      });
      expect(response.statusCode).toBe(200);
      const expected = {
        ...before,
        timezone: 'America/New_York',
        routingRespectsTimezone: true,
        userRoutingStrategy: 'round_robin',
        holidays: ['25-12', '01-05-2026'],
        dailyConfig: { ...DEFAULT_DAILY_CONFIG, monday },
        updatedAt: LATER,
      };
      expect(response.json()).toEqual({ status: true, message: 'Success', timestamp: LATER, data: expected });
      expect(await configurationOf(teamId)).toEqual(expected);

      const allDay = { isActive: true, slots: [{ start: '00:00', end: '24:00' }] };
      const second = await patch(teamId, { commonDailyConfig: true, commonSlots: allDay.slots });
      const common = {
        ...expected,
        commonDailyConfig: true,
        commonSlots: allDay.slots,
        dailyConfig: Object.fromEntries(WEEKDAYS.map((day) => [day, allDay])),
      };
      expect(second.json().data).toEqual(common);
      expect(await configurationOf(teamId)).toEqual(common);

      // The per-day hours were kept aside, and apply again without the common hours.
      const third = await patch(teamId, { commonDailyConfig: false });
      expect(third.json().data).toEqual({ ...common, commonDailyConfig: false, dailyConfig: expected.dailyConfig });
    });

    it('leaves the configuration as it was for an empty body', async () => {
      const teamId = await newTeam();
      const before = await configurationOf(teamId);
      harness.clock.set(LATER);
      const response = await patch(teamId, {});
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual(before);
    });

    it('returns every setting it accepts: each one sent alone is answered and read back', async () => {
      const teamId = await newTeam();
      const subTeamId = await newTeam(teamId);
      const saturday = { isActive: true, slots: [{ start: '10:00', end: '14:00' }] };
      const settings: Record<string, unknown>[] = [
        { timezone: 'Europe/Paris' },
        { routingRespectsTimezone: true },
        { routingRespectsUserCapacity: true },
        { routingRespectsUserTimezone: true },
        { routingRespectsUserAvailability: true },
        { routingRespectsUserBusinessHours: true },
        { userRoutingStrategy: 'round_robin' },
        { fallbackSubTeam: subTeamId },
        { holidays: ['24-12', '31-12-2026'] },
        { commonSlots: [{ start: '07:00', end: '19:00' }] },
        { dailyConfig: { saturday } },
        { commonDailyConfig: true },
        { aiAgentId: await newAgent() },
        { aiAgentMode: 'draft' },
      ];
      expect(settings.flatMap((setting) => Object.keys(setting)).sort()).toEqual(
        Object.keys(UpdateTeamConfigurationSchema.properties).sort(),
      );
      let state = await configurationOf(teamId);
      for (const setting of settings) {
        const response = await patch(teamId, setting);
        expect(response.statusCode, JSON.stringify(setting)).toBe(200);
        state = { ...state, ...setting };
        if (setting.dailyConfig) {
          state.dailyConfig = { ...DEFAULT_DAILY_CONFIG, saturday };
        }
        if (setting.commonDailyConfig) {
          const everyDay = { isActive: true, slots: state.commonSlots };
          state.dailyConfig = Object.fromEntries(WEEKDAYS.map((day) => [day, everyDay]));
        }
        expect(response.json().data, JSON.stringify(setting)).toEqual(state);
        expect(await configurationOf(teamId), JSON.stringify(setting)).toEqual(state);
      }
      // Stored as sent, and read by routing from the row.
      const row = await harness.db
        .selectFrom('team_configurations')
        .select(['routing_respects_user_capacity'])
        .where('team_id', '=', teamId)
        .executeTakeFirstOrThrow();
      expect(readBoolean(row.routing_respects_user_capacity)).toBe(true);
    });

    it('sets fallbackSubTeam to an active sub-team and clears it with null', async () => {
      const teamId = await newTeam();
      const subTeamId = await newTeam(teamId);
      const set = await patch(teamId, { fallbackSubTeam: subTeamId });
      expect(set.statusCode).toBe(200);
      expect(set.json().data.fallbackSubTeam).toBe(subTeamId);
      const cleared = await patch(teamId, { fallbackSubTeam: null });
      expect(cleared.json().data.fallbackSubTeam).toBeNull();
      expect((await configurationOf(teamId)).fallbackSubTeam).toBeNull();
    });

    it('rejects a fallbackSubTeam that is not an active sub-team of this team, writing nothing', async () => {
      const teamId = await newTeam();
      const sibling = await newTeam();
      const nephew = await newTeam(sibling);
      const archived = await newTeam(teamId);
      await harness.db.updateTable('teams').set({ archived_at: TEST_NOW }).where('id', '=', archived).execute();
      const before = await configurationOf(teamId);
      for (const candidate of [teamId, sibling, nephew, archived, globexTeamId, UNKNOWN_TEAM_ID]) {
        const response = await patch(teamId, { timezone: 'Asia/Tokyo', fallbackSubTeam: candidate });
        expect(response.statusCode, candidate).toBe(400);
        expect(response.json()).toEqual(badRequest('fallbackSubTeam must be an active sub-team of this team'));
      }
      const malformed = await patch(teamId, { fallbackSubTeam: 'T88WCYYHPS' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toContain('fallbackSubTeam');
      expect(await configurationOf(teamId)).toEqual(before);
    });

    it.each([
      ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }, 'timezone must be a valid IANA time zone'],
      [
        'overlapping slots',
        {
          dailyConfig: {
            monday: {
              isActive: true,
              slots: [
                { start: '09:00', end: '12:00' },
                { start: '11:30', end: '14:00' },
              ],
            },
          },
        },
        'dailyConfig.monday.slots[1] overlaps dailyConfig.monday.slots[0]',
      ],
      [
        'a slot ending before it starts',
        { commonSlots: [{ start: '17:00', end: '09:00' }] },
        'commonSlots[0] must start before it ends (17:00 is not before 09:00)',
      ],
      [
        'a slot starting at 24:00',
        { commonSlots: [{ start: '24:00', end: '24:00' }] },
        'commonSlots[0].start must be a time HH:MM from 00:00 to 23:59',
      ],
      [
        'a time that is not HH:MM',
        { dailyConfig: { friday: { isActive: true, slots: [{ start: '9:00', end: '17:00' }] } } },
        'dailyConfig.friday.slots.0.start has an invalid format',
      ],
      ['31-02', { holidays: ['25-12', '31-02'] }, 'holidays[1] 31-02 is not a real date'],
      ['29-02-2025', { holidays: ['29-02-2025'] }, 'holidays[0] 29-02-2025 is not a real date'],
      ['a holiday in another form', { holidays: ['2026-12-25'] }, 'holidays.0 has an invalid format'],
      ['a repeated holiday', { holidays: ['25-12', '25-12'] }, 'holidays must not contain duplicates'],
      ['an unknown strategy', { userRoutingStrategy: 'LEAST_BUSY' }, 'userRoutingStrategy must be one of: manual, round_robin'],
      ['a string for a boolean', { routingRespectsTimezone: 'true' }, 'routingRespectsTimezone must be a boolean'],
      ['an unknown field', { teamId: UNKNOWN_TEAM_ID }, 'teamId is not an accepted field'],
      [
        'an unknown day',
        { dailyConfig: { funday: { isActive: true, slots: [] } } },
        'dailyConfig.funday is not an accepted field',
      ],
      [
        'an unknown slot field',
        { commonSlots: [{ start: '09:00', end: '17:00', label: 'day' }] },
        'commonSlots.0.label is not an accepted field',
      ],
    ])('rejects %s with a 400 naming the field and writes nothing', async (_, invalid, message) => {
      const teamId = await newTeam();
      const before = await configurationOf(teamId);
      harness.clock.set(LATER);
      const response = await patch(teamId, { timezone: 'Asia/Tokyo', holidays: ['01-01'], ...invalid });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(badRequest(message));
      expect(await configurationOf(teamId)).toEqual(before);
    });

    it.each([
      ['an agent id that is not a UUID', { aiAgentId: 'agent-1' }, 'aiAgentId must be a valid uuid'],
      ['an unknown mode', { aiAgentMode: 'always' }, 'aiAgentMode must be one of: off, draft, auto'],
      ['a mode without an agent', { aiAgentMode: 'auto' }, 'aiAgentMode auto needs an agent: set aiAgentId'],
      [
        'an unknown agent',
        { aiAgentId: '00000000-0000-4000-8000-000000000000', aiAgentMode: 'draft' },
        'aiAgentId must be an agent of this organization',
      ],
    ])('refuses %s with a 400 and writes nothing', async (_, invalid, message) => {
      const teamId = await newTeam();
      const before = await configurationOf(teamId);
      const response = await patch(teamId, { timezone: 'Asia/Tokyo', ...invalid });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(badRequest(message));
      expect(await configurationOf(teamId)).toEqual(before);
    });

    it("refuses another organization's agent and a deleted one; switching an agent on starts at the log's end", async () => {
      // An organization of its own: no team of it has had an agent on yet.
      const initech = await makeOrganization(harness, { name: 'Initech' });
      const teamId = (await makeTeam(harness, initech)).teamId;
      const patch = (teamId: string, payload: unknown) =>
        harness.app.inject({
          method: 'PATCH',
          url: `/v1/teams/${teamId}/configurations`,
          headers: initech.headers,
          payload: payload as object,
        });
      const newAgent = async (organization = initech) => {
        const response = await harness.app.inject({
          method: 'POST',
          url: '/api/v1/agents',
          headers: organization.headers,
          payload: { name: 'Helper' },
        });
        return response.json().id as string;
      };
      const foreign = await newAgent(globex);
      const refused = await patch(teamId, { aiAgentId: foreign, aiAgentMode: 'draft' });
      expect(refused.json()).toEqual(badRequest('aiAgentId must be an agent of this organization'));
      const deleted = await newAgent();
      await harness.app.inject({ method: 'DELETE', url: `/api/v1/agents/${deleted}`, headers: initech.headers });
      expect((await patch(teamId, { aiAgentId: deleted })).json()).toEqual(
        badRequest('aiAgentId must be an agent of this organization'),
      );
      const cursorOf = () =>
        harness.db
          .selectFrom('ticket_agent_cursors')
          .select('dispatched_seq')
          .where('organization_id', '=', initech.organizationId)
          .executeTakeFirst();
      expect(await cursorOf()).toBeUndefined();

      const agentId = await newAgent();
      // An agent named but off dispatches nothing yet.
      expect((await patch(teamId, { aiAgentId: agentId })).json().data).toMatchObject({ aiAgentId: agentId, aiAgentMode: 'off' });
      expect(await cursorOf()).toBeUndefined();
      const on = await patch(teamId, { aiAgentMode: 'auto' });
      expect(on.json().data).toMatchObject({ aiAgentId: agentId, aiAgentMode: 'auto' });
      const lastSeq = await harness.db
        .selectFrom('event_sequences')
        .select('last_seq')
        .where('organization_id', '=', initech.organizationId)
        .executeTakeFirst();
      expect(Number((await cursorOf())?.dispatched_seq)).toBe(Number(lastSeq?.last_seq ?? 0));
      // Clearing the agent while a mode is on is refused; off and null together are fine.
      expect((await patch(teamId, { aiAgentId: null })).json()).toEqual(
        badRequest('aiAgentMode auto needs an agent: set aiAgentId'),
      );
      expect((await patch(teamId, { aiAgentId: null, aiAgentMode: 'off' })).json().data).toMatchObject({
        aiAgentId: null,
        aiAgentMode: 'off',
      });
    });

    it('accepts 29-02 every year and 29-02-2028', async () => {
      const teamId = await newTeam();
      const response = await patch(teamId, { holidays: ['29-02', '29-02-2028'] });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.holidays).toEqual(['29-02', '29-02-2028']);
    });
  });

  describe('GET /v1/teams/{teamId}/business-hours/status', () => {
    it("answers for the clock's now by default, in the team time zone", async () => {
      const teamId = await newTeam();
      const response = await status(teamId);
      expect(response.statusCode).toBe(200);
      // Thursday 15 January 2026, 09:00 UTC: the default Monday-Friday 09:00-17:00 UTC.
      expect(response.json()).toEqual({
        status: true,
        message: 'Success',
        timestamp: TEST_NOW,
        data: {
          teamId,
          timezone: 'UTC',
          at: TEST_NOW,
          isOpen: true,
          nextOpeningAt: '2026-01-16T09:00:00.000Z',
          nextClosingAt: '2026-01-15T17:00:00.000Z',
        },
      });
    });

    it('follows the daylight-saving changes of America/New_York', async () => {
      const teamId = await newTeam();
      await patch(teamId, { timezone: 'America/New_York' });
      // Friday 30 October 2026, 16:00 EDT: open; the next opening is Monday 09:00 EST, 14:00Z.
      expect((await status(teamId, '2026-10-30T20:00:00.000Z')).json().data).toEqual({
        teamId,
        timezone: 'America/New_York',
        at: '2026-10-30T20:00:00.000Z',
        isOpen: true,
        nextOpeningAt: '2026-11-02T14:00:00.000Z',
        nextClosingAt: '2026-10-30T21:00:00.000Z',
      });
      expect((await status(teamId, '2026-10-30T13:00:00.000Z')).json().data.isOpen).toBe(true);
      expect((await status(teamId, '2026-11-02T13:30:00.000Z')).json().data).toMatchObject({
        isOpen: false,
        nextOpeningAt: '2026-11-02T14:00:00.000Z',
      });
      // Spring: Friday 6 March opens at 14:00Z, Monday 9 March at 13:00Z.
      expect((await status(teamId, '2026-03-06T13:30:00.000Z')).json().data.isOpen).toBe(false);
      expect((await status(teamId, '2026-03-09T13:30:00.000Z')).json().data).toMatchObject({
        isOpen: true,
        nextClosingAt: '2026-03-09T21:00:00.000Z',
      });
    });

    it('closes a holiday of Asia/Tokyo for the whole local day, which starts at 15:00Z the day before', async () => {
      const teamId = await newTeam();
      await patch(teamId, {
        timezone: 'Asia/Tokyo',
        commonDailyConfig: true,
        commonSlots: [{ start: '00:00', end: '24:00' }],
        holidays: ['01-01', '05-01-2026'],
      });
      expect((await status(teamId, '2025-12-31T14:59:00.000Z')).json().data).toMatchObject({
        isOpen: true,
        nextClosingAt: '2025-12-31T15:00:00.000Z',
        nextOpeningAt: '2026-01-01T15:00:00.000Z',
      });
      // 08:59 on 1 January in Tokyo, still 31 December in UTC.
      expect((await status(teamId, '2026-01-01T08:59:00+09:00')).json().data).toMatchObject({
        at: '2025-12-31T23:59:00.000Z',
        isOpen: false,
        nextOpeningAt: '2026-01-01T15:00:00.000Z',
      });
      expect((await status(teamId, '2026-01-04T15:00:00.000Z')).json().data.isOpen).toBe(false);
      expect((await status(teamId, '2027-01-04T15:00:00.000Z')).json().data.isOpen).toBe(true);
      expect((await status(teamId, '2026-12-31T15:00:00.000Z')).json().data.isOpen).toBe(false);
    });

    it('agrees with GET on which days are open: common hours apply to every day, Saturday included', async () => {
      const teamId = await newTeam();
      const commonSlots = [{ start: '10:00', end: '14:00' }];
      const response = await patch(teamId, {
        commonDailyConfig: true,
        commonSlots,
        dailyConfig: { saturday: { isActive: false, slots: [] } },
      });
      expect(response.statusCode).toBe(200);
      // Monday 19 to Sunday 25 January 2026, at noon UTC: is each day open as GET shows it?
      const openDays = async () => {
        const { dailyConfig } = await configurationOf(teamId);
        const days: { day: string; shownActive: boolean; isOpen: boolean }[] = [];
        for (const [index, day] of WEEKDAYS.entries()) {
          const { isOpen } = (await status(teamId, `2026-01-${19 + index}T12:00:00.000Z`)).json().data;
          days.push({ day, shownActive: dailyConfig[day].isActive, isOpen });
        }
        return days;
      };
      const common = await openDays();
      expect(common).toEqual(WEEKDAYS.map((day) => ({ day, shownActive: true, isOpen: true })));
      expect((await configurationOf(teamId)).dailyConfig.saturday).toEqual({ isActive: true, slots: commonSlots });

      // Without the common hours the per-day hours apply again: Saturday and Sunday closed in both.
      await patch(teamId, { commonDailyConfig: false });
      expect(await openDays()).toEqual(
        WEEKDAYS.map((day) => {
          const open = day !== 'saturday' && day !== 'sunday';
          return { day, shownActive: open, isOpen: open };
        }),
      );
    });

    it('rejects an at that is not a date-time, and unknown query parameters', async () => {
      const teamId = await newTeam();
      expect((await status(teamId, 'yesterday')).json()).toEqual(badRequest('at must be a valid date-time'));
      const unknown = await harness.app.inject({
        url: `/v1/teams/${teamId}/business-hours/status?when=now`,
        headers: acme.headers,
      });
      expect(unknown.json()).toEqual(badRequest('when is not an accepted field'));
    });
  });

  describe('who may change it', () => {
    const FORBIDDEN = { statusCode: 403, message: 'User does not have access to this resource!', error: 'Forbidden' };

    const teamWithPeople = async () => {
      const teamId = await newTeam();
      return { teamId, ...(await makeTeamPeople(harness, acme.organizationId, teamId)) };
    };

    it("refuses a member outside the team the team's AI agent (403), and a member who does not manage it; nothing is written", async () => {
      const { teamId, member, outsider } = await teamWithPeople();
      const agentId = await newAgent();
      const before = await configurationOf(teamId);
      for (const caller of [outsider, member]) {
        for (const payload of [{ aiAgentId: agentId, aiAgentMode: 'auto' }, { userRoutingStrategy: 'round_robin' }]) {
          const response = await patch(teamId, payload, caller.headers);
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual(FORBIDDEN);
        }
      }
      expect(await configurationOf(teamId)).toEqual(before);
    });

    it("lets the team's manager and an organization admin change it", async () => {
      const { teamId, manager } = await teamWithPeople();
      const agentId = await newAgent();
      const byManager = await patch(teamId, { aiAgentId: agentId, aiAgentMode: 'draft' }, manager.headers);
      expect(byManager.statusCode).toBe(200);
      expect(byManager.json().data).toMatchObject({ aiAgentId: agentId, aiAgentMode: 'draft' });
      const byAdmin = await patch(teamId, { aiAgentMode: 'off', timezone: 'Europe/Paris' });
      expect(byAdmin.statusCode).toBe(200);
      expect(await configurationOf(teamId)).toMatchObject({ aiAgentId: agentId, aiAgentMode: 'off', timezone: 'Europe/Paris' });
    });

    it('still lets any member read it', async () => {
      const { teamId, outsider } = await teamWithPeople();
      expect((await get(teamId, outsider.headers)).statusCode).toBe(200);
    });
  });

  describe('on every route', () => {
    const routes = [
      ['GET configurations', (teamId: string, headers: { 'x-api-key': string }) => get(teamId, headers)],
      ['PATCH configurations', (teamId: string, headers: { 'x-api-key': string }) => patch(teamId, { timezone: 'UTC' }, headers)],
      ['GET business-hours status', (teamId: string, headers: { 'x-api-key': string }) => status(teamId, undefined, headers)],
    ] as const;

    it.each(routes)("%s answers 404 for another organization's team and leaves it alone", async (_, call) => {
      const before = await get(globexTeamId, globex.headers);
      const response = await call(globexTeamId, acme.headers);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(TEAM_NOT_FOUND);
      expect((await get(globexTeamId, globex.headers)).json()).toEqual(before.json());
    });

    it.each(routes)('%s answers 404 for an unknown or archived team', async (_, call) => {
      const archived = await newTeam();
      await harness.db.updateTable('teams').set({ archived_at: TEST_NOW }).where('id', '=', archived).execute();
      for (const teamId of [UNKNOWN_TEAM_ID, archived]) {
        const response = await call(teamId, acme.headers);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(TEAM_NOT_FOUND);
      }
    });

    it.each(routes)('%s answers 400 for a malformed team id', async (_, call) => {
      const response = await call('T88WCYYHPS', acme.headers);
      expect(response.json()).toEqual(badRequest('teamId has an invalid format'));
    });
  });
});
