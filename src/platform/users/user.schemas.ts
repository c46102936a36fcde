import { Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { HttpUrlSchema, Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ListPageNumberSchema } from '../platform.pagination.js';

export const UserTypeSchema = StringEnum(['ORG_ADMIN', 'ORG_MEMBER'] as const);
export const UserStatusSchema = StringEnum(['online', 'away', 'offline'] as const, {
  description: 'Availability for routing',
});

const EmailSchema = Type.String({ format: 'email', maxLength: 320 });
const NameSchema = Type.String({ minLength: 1, maxLength: 200 });
const TimezoneSchema = Type.String({ minLength: 1, maxLength: 100, description: 'IANA time zone, e.g. Europe/Paris' });

export const UserSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    email: Type.String(),
    userType: UserTypeSchema,
    avatarUrl: Nullable(Type.String()),
    status: UserStatusSchema,
    capacity: Nullable(Type.Integer({ description: 'Most open tickets at once; null means no limit' })),
    timezone: Nullable(Type.String()),
    disabled: Type.Boolean({ description: 'Disabled by an admin: cannot sign in, and its API keys do not work' }),
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

export const MeSchema = Type.Object({ user: UserSchema, organization: OrganizationSchema }, { additionalProperties: false });

export const CreateUserSchema = Type.Object(
  {
    name: NameSchema,
    email: EmailSchema,
    userType: Type.Optional(UserTypeSchema),
    avatarUrl: Type.Optional(Nullable(HttpUrlSchema)),
  },
  { additionalProperties: false },
);

export const UpdateUserSchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    status: Type.Optional(UserStatusSchema),
    capacity: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10_000 }))),
    timezone: Type.Optional(Nullable(TimezoneSchema)),
    avatarUrl: Type.Optional(Nullable(HttpUrlSchema)),
    userType: Type.Optional(
      StringEnum(['ORG_ADMIN', 'ORG_MEMBER'] as const, {
        description: "Admins only: the user's role. The organization keeps at least one enabled admin",
      }),
    ),
    disabled: Type.Optional(
      Type.Boolean({
        description:
          "Admins only, not for themselves: true ends the user's sessions at once and stops its sign-in and API keys; false allows them again",
      }),
    ),
  },
  { additionalProperties: false },
);

export const UserIdParamsSchema = Type.Object({ userId: UlidSchema });
export const ApiKeyParamsSchema = Type.Object({
  userId: UlidSchema,
  prefix: Type.String({ pattern: '^sbk_[a-z2-7]{8}$', description: 'The visible start of the key' }),
});

export const ListUsersQuerySchema = Type.Object(
  {
    page: Type.Optional(ListPageNumberSchema()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);

export const ListApiKeysQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);

const ApiKeyNameSchema = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description: 'What the key is for ("Zapier"), shown in the list of keys',
});

export const CreateApiKeySchema = Type.Object({ name: Type.Optional(ApiKeyNameSchema) }, { additionalProperties: false });

export const IssuedApiKeySchema = Type.Object(
  { apiKey: Type.String(), prefix: Type.String(), name: Nullable(Type.String()), createdAt: TimestampSchema },
  { additionalProperties: false },
);

export const ApiKeySummarySchema = Type.Object(
  {
    prefix: Type.String(),
    name: Nullable(Type.String({ description: 'Null for keys issued before keys had names' })),
    createdAt: TimestampSchema,
    lastUsedAt: Nullable(
      Type.String({ format: 'date-time', description: 'The last request made with the key, to the minute; null if never used' }),
    ),
    revokedAt: Nullable(TimestampSchema),
  },
  { additionalProperties: false },
);
