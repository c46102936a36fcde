import { type Static, Type } from '@sinclair/typebox';
import { HttpUrlSchema, Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { PageOrCursorQueryProperties } from '../platform.pagination.js';
import { AttributeConfigurationSchema } from './account-attribute.schemas.js';

export const MetadataSchema = Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form JSON object' });
export const CustomFieldValueSchema = Type.Object(
  { fieldId: Type.String({ minLength: 1, maxLength: 100 }), value: Type.Unknown() },
  { additionalProperties: false },
);
const DomainSchema = Type.String({
  maxLength: 253,
  pattern: '^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
  description: 'A domain name such as acme.com; stored lower-case',
});
const AttributeChoiceSchema = (attribute: string) =>
  Type.String({ minLength: 1, maxLength: 100, description: `Id or value of an ${attribute} attribute value` });

/** `{statusCode: 200, message, data: null}`: how account, contact, note and attribute-value deletes answer. */
export const DeletionResultSchema = Type.Object(
  { statusCode: Type.Literal(200), message: Type.String(), data: Type.Null() },
  { additionalProperties: false },
);

export function deletionResult(message: string) {
  return { statusCode: 200 as const, message, data: null };
}

export const AccountSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    description: Nullable(Type.String()),
    source: Nullable(Type.String()),
    logo: Nullable(Type.String()),
    primaryDomain: Type.String(),
    secondaryDomain: Nullable(Type.String()),
    website: Nullable(Type.String()),
    statusId: Nullable(UlidSchema),
    status: Nullable(Type.String()),
    statusConfiguration: AttributeConfigurationSchema,
    classificationId: Nullable(UlidSchema),
    classification: Nullable(Type.String()),
    classificationConfiguration: AttributeConfigurationSchema,
    healthId: Nullable(UlidSchema),
    health: Nullable(Type.String()),
    healthConfiguration: AttributeConfigurationSchema,
    industryId: Nullable(UlidSchema),
    industry: Nullable(Type.String()),
    industryConfiguration: AttributeConfigurationSchema,
    accountOwner: Nullable(Type.String()),
    accountOwnerId: Nullable(UlidSchema),
    accountOwnerEmail: Nullable(Type.String()),
    accountOwnerAvatarUrl: Nullable(Type.String()),
    annualRevenue: Nullable(Type.Number()),
    employees: Nullable(Type.Integer()),
    billingAddress: Nullable(Type.String()),
    shippingAddress: Nullable(Type.String()),
    customFieldValues: Type.Array(CustomFieldValueSchema),
    metadata: Nullable(MetadataSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

const optionalFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  source: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'Where the account came from, e.g. hubspot' })),
  ),
  logo: Type.Optional(Nullable(HttpUrlSchema)),
  secondaryDomain: Type.Optional(Nullable(DomainSchema)),
  website: Type.Optional(Nullable(HttpUrlSchema)),
  status: Type.Optional(AttributeChoiceSchema('account_status')),
  classification: Type.Optional(AttributeChoiceSchema('account_classification')),
  health: Type.Optional(AttributeChoiceSchema('account_health')),
  industry: Type.Optional(AttributeChoiceSchema('account_industry')),
  accountOwnerId: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'A user of the organization' })),
  ),
  annualRevenue: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
  employees: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }))),
  billingAddress: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  shippingAddress: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  metadata: Type.Optional(Nullable(MetadataSchema)),
  customFieldValues: Type.Optional(
    Type.Array(CustomFieldValueSchema, { maxItems: 500, description: 'Merged by fieldId; a null value clears that field' }),
  ),
};

export const CreateAccountSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    primaryDomain: DomainSchema,
    ...optionalFields,
  },
  { additionalProperties: false },
);
export type CreateAccount = Static<typeof CreateAccountSchema>;

export const UpdateAccountSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    primaryDomain: Type.Optional(DomainSchema),
    ...optionalFields,
  },
  { additionalProperties: false },
);
export type UpdateAccount = Static<typeof UpdateAccountSchema>;

export const AccountIdParamsSchema = Type.Object({ id: Type.String({ maxLength: 100 }) });
export const ListAccountsQuerySchema = Type.Object({ ...PageOrCursorQueryProperties }, { additionalProperties: false });
export type ListAccountsQuery = Static<typeof ListAccountsQuerySchema>;
