import { Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ULID_PATTERN } from '../../lib/ids.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/password-rules.js';
import { MeSchema } from '../users/user.schemas.js';

const EmailSchema = Type.String({ format: 'email', maxLength: 320 });

export const SignInSchema = Type.Object(
  {
    email: EmailSchema,
    password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
    organizationId: Type.Optional(
      Type.String({
        pattern: ULID_PATTERN,
        description: 'Only when the email and password sign in to several organizations: the one to sign in to',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SetPasswordWithTokenSchema = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The token parameter of the emailed link' }),
    password: Type.String({
      minLength: MIN_PASSWORD_LENGTH,
      maxLength: MAX_PASSWORD_LENGTH,
      description: `The new password: at least ${MIN_PASSWORD_LENGTH} characters, not one of the 10,000 most common passwords, not the email address`,
    }),
  },
  { additionalProperties: false },
);

export const PasswordResetRequestSchema = Type.Object({ email: EmailSchema }, { additionalProperties: false });

export const SessionSchema = Type.Object(
  {
    id: UlidSchema,
    current: Type.Boolean({ description: 'Whether this is the session of the request' }),
    createdAt: TimestampSchema,
    lastSeenAt: Type.String({ format: 'date-time', description: 'Last request, to the minute' }),
    expiresAt: Type.String({ format: 'date-time', description: 'The absolute end: 30 days after sign-in' }),
    idleExpiresAt: Type.String({
      format: 'date-time',
      description: 'When the session ends unless it is used before: 12 hours after its last request',
    }),
    userAgent: Nullable(Type.String()),
    ipAddress: Nullable(Type.String({ description: 'The address it signed in from' })),
  },
  { additionalProperties: false },
);

const CsrfTokenSchema = Type.String({
  description: 'Send it in the x-csrf-token header of every write made with the session cookie (also in the sb_csrf cookie)',
});

export const SignedInSchema = Type.Object(
  { ...MeSchema.properties, session: SessionSchema, csrfToken: CsrfTokenSchema },
  { additionalProperties: false },
);

export const CurrentSessionSchema = Type.Object(
  { ...MeSchema.properties, session: Nullable(SessionSchema), csrfToken: Nullable(CsrfTokenSchema) },
  { additionalProperties: false },
);

export const SignedOutSchema = Type.Object(
  {
    sessionId: Nullable(
      Type.String({ pattern: ULID_PATTERN, description: 'The session ended; null for a request made with an API key' }),
    ),
  },
  { additionalProperties: false },
);

export const ListSessionsQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);

export const SessionParamsSchema = Type.Object({ sessionId: UlidSchema });
export const UserSessionParamsSchema = Type.Object({ userId: UlidSchema, sessionId: UlidSchema });

export const InvitationSchema = Type.Object(
  {
    userId: UlidSchema,
    email: Type.String(),
    expiresAt: Type.String({ format: 'date-time', description: 'The link works once, until then' }),
  },
  { additionalProperties: false },
);

export const PasswordResetRequestedSchema = Type.Object({ email: Type.String() }, { additionalProperties: false });
