import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, PageQuerySchema, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { CUSTOM_FIELD_SOURCES, CUSTOM_FIELD_TYPES } from './custom-field.table.js';

export const CustomFieldSourceSchema = StringEnum(CUSTOM_FIELD_SOURCES, { description: 'Kind of record the field belongs to' });
export const CustomFieldTypeSchema = StringEnum(CUSTOM_FIELD_TYPES, {
  description: 'single_choice, radio_button (one option) and multi_choice, checkbox (several options) need at least one option',
});

export const CustomFieldSchema = Type.Object(
  {
    name: Type.String(),
    uid: UlidSchema,
    slug: Type.String({ description: 'Derived from the name at creation; unique per organization and source' }),
    organizationId: UlidSchema,
    source: CustomFieldSourceSchema,
    fieldType: CustomFieldTypeSchema,
    options: Type.Array(Type.String()),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    isActive: Type.Boolean(),
    teamId: Nullable(UlidSchema),
    autoAddToAllForms: Type.Boolean(),
    hintText: Nullable(Type.String()),
    placeholderText: Nullable(Type.String()),
    defaultValue: Nullable(Type.String()),
    mandatoryOnCreation: Type.Boolean(),
    mandatoryOnClose: Type.Boolean(),
    visibleToCustomer: Type.Boolean(),
    editableByCustomer: Type.Boolean(),
    description: Nullable(Type.String()),
    regexForValidation: Nullable(Type.String()),
    lookup: Nullable(Type.String()),
    version: Type.Integer({ minimum: 1, description: 'Send it back in a bulk update; +1 on every change' }),
    updatedBy: Type.Union([Type.Null(), UlidSchema], {
      description:
        'Id of the user whose change made this version (GET /v1/users/{userId}); null for fields last changed before it was recorded',
    }),
  },
  { additionalProperties: false, title: 'CustomField' },
);

const NameSchema = Type.String({ minLength: 1, maxLength: 255 });
const OptionsSchema = Type.Array(
  Type.Object({ value: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false }),
  { maxItems: 500, description: 'Choice values, unique case-insensitively; returned as strings' },
);
const TextSchema = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));
const RegexSchema = Type.Optional(
  Nullable(
    Type.String({
      maxLength: 500,
      description: 'JavaScript regular expression (no flags) a value must match somewhere; anchor it with ^…$ for a full match',
    }),
  ),
);

/** The properties a bulk update may change; also accepted on create. */
const mutableProperties = {
  name: Type.Optional(NameSchema),
  description: TextSchema(2000),
  isActive: Type.Optional(Type.Boolean()),
  options: Type.Optional(OptionsSchema),
  placeholderText: TextSchema(500),
  hintText: TextSchema(500),
  defaultValue: TextSchema(2000),
  regexForValidation: RegexSchema,
  mandatoryOnCreation: Type.Optional(Type.Boolean()),
  mandatoryOnClose: Type.Optional(Type.Boolean()),
  visibleToCustomer: Type.Optional(Type.Boolean()),
  editableByCustomer: Type.Optional(Type.Boolean()),
  autoAddToAllForms: Type.Optional(Type.Boolean()),
};

export const CreateCustomFieldSchema = Type.Object(
  {
    ...mutableProperties,
    name: NameSchema,
    source: CustomFieldSourceSchema,
    fieldType: CustomFieldTypeSchema,
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    teamId: Type.Optional(Nullable(UlidSchema)),
    lookup: TextSchema(255),
  },
  { additionalProperties: false },
);
export type CreateCustomField = Static<typeof CreateCustomFieldSchema>;

export const CustomFieldUpdatesSchema = Type.Object(mutableProperties, { additionalProperties: false });
export type CustomFieldUpdates = Static<typeof CustomFieldUpdatesSchema>;

export const BulkUpdateCustomFieldsSchema = Type.Object(
  {
    fields: Type.Array(
      Type.Object(
        {
          fieldId: UlidSchema,
          version: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The version the change is based on' }),
          updates: CustomFieldUpdatesSchema,
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);
export type BulkUpdateCustomFields = Static<typeof BulkUpdateCustomFieldsSchema>;

const scopeProperties = {
  teamId: Type.Optional(UlidSchema),
  onlyTeamFields: Type.Optional(Type.Boolean({ default: false, description: 'Only team-specific fields' })),
};

export const ListCustomFieldsQuerySchema = Type.Object(
  {
    limit: PageQuerySchema.properties.limit,
    page: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1_000_000,
        description: 'Page number; starts at 0 (0 when omitted); not together with cursor',
      }),
    ),
    cursor: Type.Optional(CursorSchema),
    ...scopeProperties,
    source: Type.Optional(CustomFieldSourceSchema),
  },
  { additionalProperties: false },
);
export type ListCustomFieldsQuery = Static<typeof ListCustomFieldsQuerySchema>;

export const SearchCustomFieldsQuerySchema = Type.Object(
  {
    searchTerm: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name, any case' })),
    ...ListCustomFieldsQuerySchema.properties,
  },
  { additionalProperties: false },
);
export type SearchCustomFieldsQuery = Static<typeof SearchCustomFieldsQuerySchema>;

export const CustomFieldParamsSchema = Type.Object({ uid: UlidSchema });

/** How records (tickets, accounts, contacts) send and return custom-field values. */
export const CustomFieldValueSchema = Type.Object(
  {
    fieldId: UlidSchema,
    value: Type.Union([Type.Null(), Type.String(), Type.Number(), Type.Array(Type.String())], {
      description: 'Text, a number, an option or a list of options (multi_choice, checkbox); null clears the value',
    }),
  },
  { additionalProperties: false, title: 'CustomFieldValue' },
);
export const CustomFieldValuesSchema = Type.Array(CustomFieldValueSchema, { maxItems: 200 });
