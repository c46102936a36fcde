import { Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { HttpUrlSchema, Nullable, PageNumberSchema, StringEnum, TimestampSchema } from '../../http/shared-schemas.js';
import { EmailDeliverySchema } from '../email-outbox/email-outbox.schemas.js';

/** What the author of a comment sees of its post to the ticket's Slack thread. */
const SlackDeliverySchema = Type.Object(
  {
    status: StringEnum(['pending', 'posting', 'retrying', 'posted', 'failed'] as const, {
      description:
        'pending: queued; posting: being sent; retrying: an attempt failed (rate limited, Slack unreachable) and is due again ' +
        'at nextAttemptAt; posted; failed: given up, lastError says why (the bot left the channel, the app was uninstalled…)',
    }),
    attempts: Type.Integer({ description: 'Attempts started so far' }),
    lastError: Nullable(Type.String()),
    nextAttemptAt: Nullable(TimestampSchema),
    postedAt: Nullable(TimestampSchema),
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

const Metadata = Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form JSON object (mentions, reactions, …)' });
export const CommentVisibilitySchema = StringEnum(['public', 'private'] as const, {
  description: 'Default public; notes default to private',
});
export const CommentTypeSchema = StringEnum(['comment', 'note', 'reply'] as const, {
  description: 'Default comment, or reply when parentCommentId is given',
});

export const CommentSchema = Type.Object(
  {
    id: Type.String(),
    content: Type.String(),
    contentHtml: Type.String(),
    contentJson: Nullable(Type.String()),
    contentMarkdown: Type.String(),
    isEdited: Type.Boolean(),
    threadName: Nullable(Type.String()),
    commentVisibility: CommentVisibilitySchema,
    commentType: CommentTypeSchema,
    isPinned: Type.Boolean(),
    sourceEmailId: Nullable(Type.String()),
    metadata: Nullable(Metadata),
    parentCommentId: Nullable(Type.String()),
    ticketId: Type.String(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    deletedAt: Nullable(TimestampSchema),
    author: Nullable(Type.String()),
    authorId: Nullable(Type.String()),
    authorUserType: Nullable(
      Type.String({
        description:
          'ORG_ADMIN, ORG_MEMBER, CUSTOMER for a comment from a contact, or AI_AGENT for one an AI agent wrote ' +
          '(author and authorId are then the name and agent-studio id of the agent)',
      }),
    ),
    authorAvatarUrl: Nullable(Type.String()),
    customerContactId: Nullable(Type.String()),
    customerContactEmail: Nullable(Type.String()),
    customerContactFirstName: Nullable(Type.String()),
    customerContactLastName: Nullable(Type.String()),
    customerContactAvatarUrl: Nullable(Type.String()),
    impersonatedUserEmail: Nullable(Type.String()),
    impersonatedUserName: Nullable(Type.String()),
    impersonatedUserAvatar: Nullable(Type.String()),
    attachments: Type.Array(Type.String(), { description: 'Attachment ids' }),
    emailDelivery: Type.Optional(
      Type.Union([Type.Null(), EmailDeliverySchema], {
        description:
          "Shown to the comment's author and to admins only: the state of the email it queued with shouldSendEmail " +
          '(null when it queued none). Admins can send an undeliverable one again: POST /v1/outbox/{outboxId}/retry.',
      }),
    ),
    slackDelivery: Type.Optional(
      Type.Union([Type.Null(), SlackDeliverySchema], {
        description:
          "Shown to the comment's author and to admins only: the state of its post to the Slack thread of a ticket from " +
          "Slack (an agent's public reply; null when it posted none).",
      }),
    ),
  },
  { additionalProperties: false },
);

const contentFields = {
  content: Type.Optional(Type.String({ maxLength: 200_000, description: 'Plain text' })),
  contentHtml: Type.Optional(Type.String({ maxLength: 400_000, description: 'HTML; stored sanitised' })),
  contentJson: Type.Optional(Type.String({ maxLength: 400_000, description: 'Editor document serialised as a JSON string' })),
  threadName: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  metadata: Type.Optional(Nullable(Metadata)),
};

export const CreateCommentSchema = Type.Object(
  {
    ...contentFields,
    parentCommentId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    commentVisibility: Type.Optional(CommentVisibilitySchema),
    commentType: Type.Optional(CommentTypeSchema),
    customerEmail: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    attachmentIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, uniqueItems: true })),
    impersonatedUserEmail: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    impersonatedUserName: Type.Optional(Type.String({ maxLength: 255 })),
    impersonatedUserAvatar: Type.Optional(HttpUrlSchema),
    shouldSendEmail: Type.Optional(Type.Boolean({ description: 'Email the requestor about a public comment' })),
    deDuplicationKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'Replaying a request with the same key returns the first comment',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateCommentSchema = Type.Object(
  { ...contentFields, isPinned: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const CommentParamsSchema = Type.Object({
  id: Type.String({ maxLength: 100 }),
  commentId: Type.String({ maxLength: 100 }),
});

export const ListCommentsQuerySchema = Type.Object(
  {
    page: Type.Optional(PageNumberSchema('0-based page of threads')),
    cursor: Type.Optional(CursorSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Threads per page' })),
  },
  { additionalProperties: false },
);
