import { type Static, Type } from '@sinclair/typebox';
import { HttpUrlSchema, Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { CustomFieldValueSchema, MetadataSchema } from '../accounts/account.schemas.js';
import { PageOrCursorQueryProperties } from '../platform.pagination.js';

const AccountIdSchema = Type.String({ minLength: 1, maxLength: 100, description: 'A live account of the organization' });
const NameSchema = Type.String({ minLength: 1, maxLength: 100 });
const PhoneSchema = Type.String({
  pattern: '^\\+?[0-9 ().-]{4,30}$',
  description: 'With the country code, e.g. +1 415 555 0100',
});

export const ContactSchema = Type.Object(
  {
    id: UlidSchema,
    firstName: Type.String(),
    lastName: Nullable(Type.String()),
    email: Type.String(),
    phoneNumber: Nullable(Type.String()),
    avatarUrl: Nullable(Type.String()),
    accounts: Type.Array(
      Type.Object({ id: UlidSchema, name: Type.String(), primaryDomain: Type.String() }, { additionalProperties: false }),
    ),
    contactTypeId: Nullable(UlidSchema),
    contactType: Nullable(Type.String()),
    customFieldValues: Type.Array(CustomFieldValueSchema),
    metadata: Nullable(MetadataSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

const optionalFields = {
  lastName: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  phoneNumber: Type.Optional(Nullable(PhoneSchema)),
  contactType: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Id or value of a contact_type attribute value; default if absent',
    }),
  ),
  avatarUrl: Type.Optional(Nullable(HttpUrlSchema)),
  accountIds: Type.Optional(Type.Array(AccountIdSchema, { maxItems: 100 })),
  customFieldValues: Type.Optional(
    Type.Array(CustomFieldValueSchema, { maxItems: 500, description: 'Merged by fieldId; a null value clears that field' }),
  ),
  metadata: Type.Optional(Nullable(MetadataSchema)),
};

const EmailSchema = Type.String({ format: 'email', maxLength: 320, description: 'Unique per organization, case-insensitively' });

export const CreateContactSchema = Type.Object(
  { firstName: NameSchema, email: EmailSchema, ...optionalFields },
  { additionalProperties: false },
);
export type CreateContact = Static<typeof CreateContactSchema>;

export const UpdateContactSchema = Type.Object(
  {
    firstName: Type.Optional(NameSchema),
    email: Type.Optional(EmailSchema),
    ...optionalFields,
    accountIds: Type.Optional(
      Type.Array(AccountIdSchema, { maxItems: 100, description: "Replaces the contact's accounts; [] removes it from all" }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateContact = Static<typeof UpdateContactSchema>;

export const ContactIdParamsSchema = Type.Object({ contactId: Type.String({ maxLength: 100 }) });
export const ListContactsQuerySchema = Type.Object(
  { accountId: Type.Optional(AccountIdSchema), ...PageOrCursorQueryProperties },
  { additionalProperties: false },
);
export type ListContactsQuery = Static<typeof ListContactsQuerySchema>;
