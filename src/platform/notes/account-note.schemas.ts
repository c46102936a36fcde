import { type Static, Type } from '@sinclair/typebox';
import { HttpUrlSchema, Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { MetadataSchema } from '../accounts/account.schemas.js';
import { AttributeConfigurationSchema } from '../accounts/account-attribute.schemas.js';
import { PageOrCursorQueryProperties } from '../platform.pagination.js';

export const NOTE_VISIBILITIES = ['public', 'private'] as const;
const VisibilitySchema = StringEnum(NOTE_VISIBILITIES, {
  description: 'private: seen by its author and organization admins only',
});
const ContentSchema = Type.String({ minLength: 1, maxLength: 100_000 });
const TypeChoiceSchema = Type.String({ minLength: 1, maxLength: 100, description: 'Id or value of a note_type attribute value' });
const AttachmentUrlsSchema = Type.Array(HttpUrlSchema, {
  maxItems: 20,
  description:
    'http(s) URLs recorded as link attachments of the note, each once; the server never fetches them. On update, the ' +
    'complete list of the note’s links: it replaces them',
});

/** The contract's account note; `attachments` lists attachment ids (GET /v1/attachments/{id}). */
export const NoteSchema = Type.Object(
  {
    id: UlidSchema,
    accountId: UlidSchema,
    account: Type.String({ description: 'Name of the account' }),
    content: Type.String(),
    type: Nullable(Type.String({ description: 'Value of the note type' })),
    typeId: Nullable(UlidSchema),
    typeConfiguration: AttributeConfigurationSchema,
    visibility: VisibilitySchema,
    attachments: Type.Array(UlidSchema),
    author: Type.String(),
    authorId: UlidSchema,
    authorEmail: Type.String(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    metadata: Nullable(MetadataSchema),
  },
  { additionalProperties: false },
);

export const CreateNoteSchema = Type.Object(
  {
    accountId: Type.String({ minLength: 1, maxLength: 100 }),
    content: ContentSchema,
    type: Type.Optional(TypeChoiceSchema),
    visibility: Type.Optional(VisibilitySchema),
    attachmentUrls: Type.Optional(AttachmentUrlsSchema),
    metadata: Type.Optional(Nullable(MetadataSchema)),
  },
  { additionalProperties: false },
);
export type CreateNote = Static<typeof CreateNoteSchema>;

export const UpdateNoteSchema = Type.Object(
  {
    content: Type.Optional(ContentSchema),
    type: Type.Optional(TypeChoiceSchema),
    visibility: Type.Optional(VisibilitySchema),
    attachmentUrls: Type.Optional(AttachmentUrlsSchema),
    metadata: Type.Optional(Nullable(MetadataSchema)),
  },
  { additionalProperties: false },
);
export type UpdateNote = Static<typeof UpdateNoteSchema>;

export const NoteIdParamsSchema = Type.Object({ noteId: Type.String({ maxLength: 100 }) });
export const NoteAttachmentParamsSchema = Type.Object({
  noteId: Type.String({ maxLength: 100 }),
  attachmentId: Type.String({ maxLength: 100 }),
});
export const ListNotesQuerySchema = Type.Object(
  { accountId: Type.String({ minLength: 1, maxLength: 100 }), ...PageOrCursorQueryProperties },
  { additionalProperties: false },
);
export type ListNotesQuery = Static<typeof ListNotesQuerySchema>;
