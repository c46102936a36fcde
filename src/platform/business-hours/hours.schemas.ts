import { type Static, Type } from '@sinclair/typebox';
import { Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';

/** `HH:MM` on a 24-hour clock; `24:00` (midnight at the end of the day) is only meaningful as an end. */
export const TIME_OF_DAY_PATTERN = '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$';
/** `DD-MM` (every year) or `DD-MM-YYYY` (once); whether the date is real is checked by `validateHours`. */
export const HOLIDAY_PATTERN = '^[0-9]{2}-[0-9]{2}(?:-[0-9]{4})?$';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const TimeOfDaySchema = Type.String({ pattern: TIME_OF_DAY_PATTERN, examples: ['09:00'] });

/** One opening interval of a local day; `start < end`, no slot crosses midnight. */
export const SlotSchema = Type.Object(
  {
    start: TimeOfDaySchema,
    end: Type.String({ pattern: TIME_OF_DAY_PATTERN, description: '`24:00` means midnight at the end of the day' }),
  },
  { additionalProperties: false },
);

export const SlotsSchema = Type.Array(SlotSchema, {
  maxItems: 48,
  description: 'Sorted or not; they must not overlap. Overnight cover is two slots on consecutive days.',
});

export const DayConfigSchema = Type.Object(
  {
    isActive: Type.Boolean(),
    slots: SlotsSchema,
  },
  { additionalProperties: false },
);

export const DailyConfigSchema = Type.Object(
  {
    monday: Type.Optional(DayConfigSchema),
    tuesday: Type.Optional(DayConfigSchema),
    wednesday: Type.Optional(DayConfigSchema),
    thursday: Type.Optional(DayConfigSchema),
    friday: Type.Optional(DayConfigSchema),
    saturday: Type.Optional(DayConfigSchema),
    sunday: Type.Optional(DayConfigSchema),
  },
  { additionalProperties: false, description: 'Keys monday..sunday; a request may send any subset of days' },
);

export const HolidaysSchema = Type.Array(Type.String({ pattern: HOLIDAY_PATTERN, examples: ['25-12', '01-05-2026'] }), {
  maxItems: 400,
  uniqueItems: true,
  description: 'Whole local days closed: `DD-MM` recurs every year, `DD-MM-YYYY` is one-off',
});

export const TimezoneSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone',
  examples: ['Europe/Paris'],
});

export type Slot = Static<typeof SlotSchema>;
export type DayConfig = Static<typeof DayConfigSchema>;
export type DailyConfig = Static<typeof DailyConfigSchema>;

/** The hour fields of a request body, as both a team configuration and a user's own hours take them. */
export const HoursBodyFields = {
  timezone: Type.Optional(TimezoneSchema),
  commonDailyConfig: Type.Optional(
    Type.Boolean({
      description:
        'When true, commonSlots apply to every day of the week, Saturday and Sunday included; dailyConfig applies when false',
    }),
  ),
  commonSlots: Type.Optional(SlotsSchema),
  dailyConfig: Type.Optional(DailyConfigSchema),
};

/** `PATCH /v1/users/business-hours`: a null `timezone` falls back to the team's. */
export const UpdateUserBusinessHoursSchema = Type.Object(
  {
    ...HoursBodyFields,
    timezone: Type.Optional(Nullable(TimezoneSchema)),
  },
  { additionalProperties: false },
);

export const UserBusinessHoursSchema = Type.Object(
  {
    timezone: Nullable(Type.String({ description: "IANA time zone; null: the team's" })),
    userId: UlidSchema,
    dailyConfig: DailyConfigSchema,
    commonDailyConfig: Type.Boolean(),
    commonSlots: SlotsSchema,
    /** Null while the user has never saved hours; the defaults are shown. */
    createdAt: Nullable(TimestampSchema),
    updatedAt: Nullable(TimestampSchema),
  },
  { additionalProperties: false },
);

export type UpdateUserBusinessHours = Static<typeof UpdateUserBusinessHoursSchema>;
export type UserBusinessHours = Static<typeof UserBusinessHoursSchema>;
