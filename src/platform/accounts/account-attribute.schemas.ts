import { type Static, Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ACCOUNT_ATTRIBUTES } from './account-attribute.table.js';

export const AccountAttributeSchema = StringEnum(ACCOUNT_ATTRIBUTES, { description: 'Which attribute the value belongs to' });
export const ColorSchema = Type.String({ pattern: '^#([A-Fa-f0-9]{6})$', description: 'Hex colour, e.g. #3B82F6' });
const IconSchema = Type.String({ minLength: 1, maxLength: 100, description: 'Hero-icon name, e.g. camera' });
const ValueSchema = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Shown name, unique per attribute (case-insensitively)',
});

export const AttributeValueSchema = Type.Object(
  {
    id: UlidSchema,
    attribute: AccountAttributeSchema,
    value: Type.String(),
    isDefault: Type.Boolean(),
    configuration: Type.Object(
      { icon: Nullable(Type.String()), color: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

/** How an account, contact or note shows the attribute value a field points at. */
export const AttributeConfigurationSchema = Nullable(
  Type.Object(
    { id: UlidSchema, name: Type.String(), icon: Nullable(Type.String()), color: Nullable(Type.String()) },
    { additionalProperties: false },
  ),
);

export const CreateAttributeValueSchema = Type.Object(
  {
    attribute: AccountAttributeSchema,
    value: ValueSchema,
    icon: Type.Optional(Nullable(IconSchema)),
    color: Type.Optional(Nullable(ColorSchema)),
    isDefault: Type.Optional(Type.Boolean({ description: 'Makes this value the default; the previous default stops being one' })),
  },
  { additionalProperties: false },
);
export type CreateAttributeValue = Static<typeof CreateAttributeValueSchema>;

export const UpdateAttributeValueSchema = Type.Object(
  {
    value: Type.Optional(ValueSchema),
    icon: Type.Optional(Nullable(IconSchema)),
    color: Type.Optional(Nullable(ColorSchema)),
    isDefault: Type.Optional(
      Type.Boolean({ description: 'true makes this value the default; the default cannot be turned off, only replaced' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateAttributeValue = Static<typeof UpdateAttributeValueSchema>;

export const ListAttributeValuesQuerySchema = Type.Object({ attribute: AccountAttributeSchema }, { additionalProperties: false });
export const AttributeValueIdParamsSchema = Type.Object({ id: Type.String({ maxLength: 100 }) });
