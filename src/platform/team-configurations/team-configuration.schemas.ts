import { type Static, Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import { DailyConfigSchema, HolidaysSchema, HoursBodyFields, SlotsSchema } from '../business-hours/hours.schemas.js';

export const UserRoutingStrategySchema = StringEnum(['manual', 'round_robin'] as const);

export const TeamParamsSchema = Type.Object({ teamId: UlidSchema }, { additionalProperties: false });

/** Every field optional: only what is sent changes; `dailyConfig` replaces the days it names. */
export const UpdateTeamConfigurationSchema = Type.Object(
  {
    timezone: HoursBodyFields.timezone,
    routingRespectsTimezone: Type.Optional(Type.Boolean()),
    routingRespectsUserCapacity: Type.Optional(Type.Boolean({ description: 'Stored; not part of the response' })),
    routingRespectsUserTimezone: Type.Optional(Type.Boolean()),
    routingRespectsUserAvailability: Type.Optional(Type.Boolean()),
    routingRespectsUserBusinessHours: Type.Optional(Type.Boolean()),
    userRoutingStrategy: Type.Optional(UserRoutingStrategySchema),
    fallbackSubTeam: Type.Optional(
      Nullable(Type.String({ pattern: ULID_PATTERN, description: 'An active sub-team of this team; null clears it' })),
    ),
    holidays: Type.Optional(HolidaysSchema),
    commonDailyConfig: HoursBodyFields.commonDailyConfig,
    commonSlots: HoursBodyFields.commonSlots,
    dailyConfig: HoursBodyFields.dailyConfig,
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
    routingRespectsUserTimezone: Type.Boolean(),
    routingRespectsUserAvailability: Type.Boolean(),
    routingRespectsUserBusinessHours: Type.Boolean(),
    userRoutingStrategy: UserRoutingStrategySchema,
    commonDailyConfig: Type.Boolean(),
    commonSlots: SlotsSchema,
    dailyConfig: DailyConfigSchema,
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
