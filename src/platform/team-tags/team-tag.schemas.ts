import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { PlatformEnvelopeSchema } from '../platform.envelope.js';

const TAG_TYPES = ['ticket', 'skills'] as const;

const NameSchema = Type.String({ minLength: 1, maxLength: 50, description: 'Unique in the team, ignoring case' });
const ColorSchema = Type.String({ pattern: '^#([A-Fa-f0-9]{6})$', description: 'Hex colour, e.g. #FF0000' });
const DescriptionSchema = Type.String({ maxLength: 255 });

export const TeamTagSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    color: Nullable(Type.String()),
    type: StringEnum(TAG_TYPES),
    description: Nullable(Type.String()),
    teamId: UlidSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

/** `null` for `color` or `description` means the same as leaving it out. */
export const CreateTeamTagSchema = Type.Object(
  {
    name: NameSchema,
    color: Type.Optional(Nullable(ColorSchema)),
    type: Type.Optional(StringEnum(TAG_TYPES, { default: 'ticket' })),
    description: Type.Optional(Nullable(DescriptionSchema)),
  },
  { additionalProperties: false },
);

/** Every field optional; `name` may not be null or empty, `color` and `description` are cleared by `null`. */
export const UpdateTeamTagSchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    color: Type.Optional(Nullable(ColorSchema)),
    type: Type.Optional(StringEnum(TAG_TYPES)),
    description: Type.Optional(Nullable(DescriptionSchema)),
  },
  { additionalProperties: false },
);

export const TeamTagsParamsSchema = Type.Object({ teamUuid: UlidSchema });
export const TeamTagParamsSchema = Type.Object({ teamUuid: UlidSchema, tagUuid: UlidSchema });

export const TeamTagListSchema = Type.Object(
  { count: Type.Integer({ minimum: 0 }), items: Type.Array(TeamTagSchema) },
  { additionalProperties: false },
);

/** The platform envelope with the team's id beside `data`: `{status, message, timestamp, teamUuid, data}`. */
export function TeamEnvelopeSchema<T extends TSchema>(data: T) {
  const { status, message, timestamp } = PlatformEnvelopeSchema(data).properties;
  return Type.Object({ status, message, timestamp, teamUuid: UlidSchema, data }, { additionalProperties: false });
}

export type CreateTeamTag = Static<typeof CreateTeamTagSchema>;
export type UpdateTeamTag = Static<typeof UpdateTeamTagSchema>;
