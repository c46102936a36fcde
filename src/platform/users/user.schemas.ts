import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';

export const UserTypeSchema = StringEnum(['ORG_ADMIN', 'ORG_MEMBER'] as const);

export const UserSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    email: Type.String(),
    userType: UserTypeSchema,
    avatarUrl: Nullable(Type.String()),
    organizationId: UlidSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const OrganizationSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const MeSchema = Type.Object(
  {
    user: UserSchema,
    organization: OrganizationSchema,
  },
  { additionalProperties: false },
);
