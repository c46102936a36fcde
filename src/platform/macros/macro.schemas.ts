import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { MACRO_PLACEHOLDERS } from '../../shared/macro-placeholders.js';
import { CommentSchema } from '../tickets/comment.schemas.js';
import { TicketSchema } from '../tickets/ticket.schemas.js';

const OptionName = Type.String({ minLength: 1, maxLength: 100 });

const PLACEHOLDER_LIST = Object.keys(MACRO_PLACEHOLDERS)
  .map((name) => `{{${name}}}`)
  .join(', ');

/** What applying a macro changes on the ticket, besides posting its reply; every action optional. */
export const MacroActionsSchema = Type.Object(
  {
    statusId: Type.Optional(UlidSchema),
    statusName: Type.Optional({
      ...OptionName,
      description: 'A status by name, matched in the team of the ticket the macro is applied to',
    }),
    priorityId: Type.Optional(UlidSchema),
    priorityName: Type.Optional(OptionName),
    assignedAgentId: Type.Optional(
      Type.Union([Type.Null(), Type.Literal('me'), UlidSchema], {
        description: 'An agent of the organization, me (whoever applies the macro), or null to unassign',
      }),
    ),
    addTagIds: Type.Optional(
      Type.Array(UlidSchema, {
        maxItems: 20,
        uniqueItems: true,
        description: 'Team tags of type ticket to add; each must belong to the team of the ticket',
      }),
    ),
  },
  { additionalProperties: false },
);

export type MacroActions = Static<typeof MacroActionsSchema>;

const NameSchema = Type.String({ minLength: 1, maxLength: 100 });
const DescriptionSchema = Nullable(
  Type.String({ maxLength: 500, description: 'What the macro is for and when to use it; null or blank for none' }),
);
const ContentSchema = Type.String({
  minLength: 1,
  maxLength: 20_000,
  description: `The reply, in markdown. Placeholders: ${PLACEHOLDER_LIST}; values are escaped, so they show as text`,
});
const VisibilitySchema = StringEnum(['public', 'private'] as const, {
  description: 'public: a reply the requestor can see; private: an internal note',
});

export const MacroSchema = Type.Object(
  {
    id: UlidSchema,
    name: Type.String(),
    description: Nullable(Type.String()),
    content: Type.String(),
    commentVisibility: VisibilitySchema,
    shouldSendEmail: Type.Boolean(),
    actions: MacroActionsSchema,
    teamId: Nullable(UlidSchema),
    ownerId: UlidSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const CreateMacroSchema = Type.Object(
  {
    name: NameSchema,
    description: Type.Optional(DescriptionSchema),
    content: ContentSchema,
    commentVisibility: Type.Optional(VisibilitySchema),
    shouldSendEmail: Type.Optional(
      Type.Boolean({ description: 'Email the requestor the reply (public replies only); default false' }),
    ),
    actions: Type.Optional(MacroActionsSchema),
    teamId: Type.Optional(
      Nullable({ ...UlidSchema, description: 'Share with this team (its admins manage it); null or absent: personal' }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateMacroSchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    description: Type.Optional(DescriptionSchema),
    content: Type.Optional(ContentSchema),
    commentVisibility: Type.Optional(VisibilitySchema),
    shouldSendEmail: Type.Optional(Type.Boolean()),
    actions: Type.Optional({ ...MacroActionsSchema, description: 'Replaces the actions as a whole ({} for none)' }),
    teamId: Type.Optional(Nullable(UlidSchema)),
  },
  { additionalProperties: false },
);

export const ListMacrosQuerySchema = Type.Object(
  {
    teamId: Type.Optional({ ...UlidSchema, description: 'Only the macros shared with this team' }),
    nameContains: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only the macros whose name holds this text, in any case' }),
    ),
    cursor: Type.Optional(CursorSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
);

export const MacroParamsSchema = Type.Object({ macroId: UlidSchema });
export const ApplyMacroParamsSchema = Type.Object({ id: Type.String({ maxLength: 100 }), macroId: UlidSchema });

export const ApplyMacroSchema = Type.Object(
  {
    shouldSendEmail: Type.Optional(Type.Boolean({ description: "Overrides the macro's shouldSendEmail for this reply" })),
    deDuplicationKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Applying again with the same key changes nothing and answers 200 with the first reply',
      }),
    ),
  },
  { additionalProperties: false },
);

export const AppliedMacroSchema = Type.Object({ comment: CommentSchema, ticket: TicketSchema }, { additionalProperties: false });

export type CreateMacro = Static<typeof CreateMacroSchema>;
export type UpdateMacro = Static<typeof UpdateMacroSchema>;
export type ApplyMacro = Static<typeof ApplyMacroSchema>;
