import { type Static, Type } from '@sinclair/typebox';
import { TICKET_AGENT_MODES } from '../../agent-studio/ticket-agents/ticket-agent.modes.js';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import { DailyConfigSchema, HolidaysSchema, HoursBodyFields, SlotsSchema } from '../business-hours/hours.schemas.js';

export const UserRoutingStrategySchema = StringEnum(['manual', 'round_robin'] as const);

const AI_AGENT_MODE =
  "How the team's agent works its tickets: off; draft (on every new ticket and customer reply it writes a suggested " +
  'reply as an internal note); auto (it replies to the customer when the knowledge base answers the question, and ' +
  'hands the ticket to a human otherwise). draft and auto need aiAgentId.';
const AiAgentModeSchema = StringEnum(TICKET_AGENT_MODES, { description: AI_AGENT_MODE });
const AI_AGENT_ID = 'An agent of the agent studio (its UUID) that works the tickets of this team; null for none';

export const TeamParamsSchema = Type.Object({ teamId: UlidSchema }, { additionalProperties: false });

const COMMON_DAILY_CONFIG =
  'When true, commonSlots apply to every day of the week, Saturday and Sunday included, and dailyConfig is set aside: ' +
  'responses show each day isActive with commonSlots, as the business-hours status computes it. The per-day hours ' +
  'are kept (and may still be changed) and apply again once this is false.';

/** Every field optional: only what is sent changes; `dailyConfig` replaces the days it names. */
export const UpdateTeamConfigurationSchema = Type.Object(
  {
    timezone: HoursBodyFields.timezone,
    routingRespectsTimezone: Type.Optional(Type.Boolean()),
    routingRespectsUserCapacity: Type.Optional(Type.Boolean()),
    routingRespectsUserTimezone: Type.Optional(Type.Boolean()),
    routingRespectsUserAvailability: Type.Optional(Type.Boolean()),
    routingRespectsUserBusinessHours: Type.Optional(Type.Boolean()),
    userRoutingStrategy: Type.Optional(UserRoutingStrategySchema),
    fallbackSubTeam: Type.Optional(
      Nullable(Type.String({ pattern: ULID_PATTERN, description: 'An active sub-team of this team; null clears it' })),
    ),
    holidays: Type.Optional(HolidaysSchema),
    commonDailyConfig: Type.Optional(Type.Boolean({ description: COMMON_DAILY_CONFIG })),
    commonSlots: HoursBodyFields.commonSlots,
    dailyConfig: HoursBodyFields.dailyConfig,
    aiAgentId: Type.Optional(Nullable(Type.String({ format: 'uuid', description: AI_AGENT_ID }))),
    aiAgentMode: Type.Optional(AiAgentModeSchema),
  },
  { additionalProperties: false },
);

export const TeamConfigurationSchema = Type.Object(
  {
    timezone: Type.String(),
    teamId: UlidSchema,
    fallbackSubTeam: Nullable(UlidSchema),
    holidays: Type.Array(Type.String()),
    routingRespectsTimezone: Type.Boolean(),
    routingRespectsUserCapacity: Type.Boolean(),
    routingRespectsUserTimezone: Type.Boolean(),
    routingRespectsUserAvailability: Type.Boolean(),
    routingRespectsUserBusinessHours: Type.Boolean(),
    userRoutingStrategy: UserRoutingStrategySchema,
    commonDailyConfig: Type.Boolean({ description: COMMON_DAILY_CONFIG }),
    commonSlots: SlotsSchema,
    dailyConfig: Type.Object(DailyConfigSchema.properties, {
      additionalProperties: false,
      description:
        'The week as it applies, every day from monday to sunday: with commonDailyConfig, each day isActive with commonSlots',
    }),
    aiAgentId: Nullable(Type.String({ description: AI_AGENT_ID })),
    aiAgentMode: AiAgentModeSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const BusinessHoursStatusQuerySchema = Type.Object(
  {
    at: Type.Optional(Type.String({ format: 'date-time', description: 'The moment to answer for; now when left out' })),
  },
  { additionalProperties: false },
);

export const BusinessHoursStatusSchema = Type.Object(
  {
    teamId: UlidSchema,
    timezone: Type.String(),
    at: TimestampSchema,
    isOpen: Type.Boolean(),
    nextOpeningAt: Nullable(TimestampSchema),
    nextClosingAt: Nullable(TimestampSchema),
  },
  { additionalProperties: false },
);

export type UpdateTeamConfiguration = Static<typeof UpdateTeamConfigurationSchema>;
export type TeamConfiguration = Static<typeof TeamConfigurationSchema>;
