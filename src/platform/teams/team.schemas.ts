import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { UserTypeSchema } from '../users/user.schemas.js';

const ColorSchema = Type.String({ pattern: '^#([A-Fa-f0-9]{6})$', description: 'Hex colour, e.g. #1F74DB' });
const IdentifierSchema = Type.String({
  pattern: '^[A-Za-z][A-Za-z0-9]{0,9}$',
  description: 'Code used in ticket identifiers (WED in WED-5): a letter, then up to 9 letters or digits; stored upper-case',
});

export const TeamSchema = Type.Object(
  {
    id: UlidSchema,
    teamId: UlidSchema,
    name: Type.String(),
    identifier: Type.String(),
    description: Nullable(Type.String()),
    icon: Nullable(Type.String()),
    color: Nullable(Type.String()),
    parentTeamId: Nullable(UlidSchema),
    parentTeamName: Nullable(Type.String()),
    teamOwner: Type.String(),
    teamOwnerId: UlidSchema,
    fallbackSubTeam: Nullable(UlidSchema),
    isActive: Type.Boolean(),
    isPrivate: Type.Boolean(),
    archivedAt: Nullable(TimestampSchema),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const CreateTeamSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    identifier: Type.Optional(IdentifierSchema),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    icon: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    color: Type.Optional(Nullable(ColorSchema)),
    parentTeamId: Type.Optional(UlidSchema),
    isPrivate: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateTeamSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    identifier: Type.Optional(IdentifierSchema),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    icon: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    color: Type.Optional(Nullable(ColorSchema)),
    isPrivate: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const TeamIdParamsSchema = Type.Object({ teamId: UlidSchema });
export const TeamMemberParamsSchema = Type.Object({ teamId: UlidSchema, userId: UlidSchema });

export const TeamMemberSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    email: Type.String(),
    invitedBy: Nullable(Type.String()),
    teamId: UlidSchema,
    teamName: Type.String(),
    isActive: Type.Boolean(),
    role: Type.Union([Type.Literal('ADMIN'), Type.Literal('MEMBER')]),
    isAdmin: Type.Boolean(),
    userType: UserTypeSchema,
    isOwner: Type.Boolean(),
    avatarUrl: Nullable(Type.String()),
    status: Type.String(),
    capacity: Nullable(Type.Integer({ description: "The user's most open tickets at once; null means no limit" })),
    timezone: Nullable(Type.String({ description: "The user's IANA time zone; null: the team's" })),
    joinedAt: TimestampSchema,
    createdAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const AddTeamMemberSchema = Type.Object(
  {
    email: Type.Optional(Type.String({ format: 'email' })),
    userId: Type.Optional(UlidSchema),
    isAdmin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** `limit` and `cursor` of the team lists, which return everything up to 100 at a time. */
const cursorPageProperties = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  cursor: Type.Optional(CursorSchema),
};

export const ListTeamsQuerySchema = Type.Object(cursorPageProperties, { additionalProperties: false });
export type ListTeamsQuery = Static<typeof ListTeamsQuerySchema>;

export const ListTeamMembersQuerySchema = Type.Object(
  { search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of a name or email' })), ...cursorPageProperties },
  { additionalProperties: false },
);
export type ListTeamMembersQuery = Static<typeof ListTeamMembersQuerySchema>;
