import { Type } from '@sinclair/typebox';
import { Nullable, ObjectIdSchema, TimestampSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../help-center.pagination.js';

export const ArticleFeedbackSchema = Type.Object(
  {
    _id: ObjectIdSchema,
    helpful: Type.Boolean({ description: 'The reader answered "Yes" to "Was this helpful?"' }),
    comment: Nullable(Type.String({ description: 'What the reader added, as typed (plain text)' })),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false, description: "One browser's vote on the article; a later vote replaces it" },
);

export const ArticleFeedbackParamsSchema = Type.Object({ articleId: ObjectIdSchema }, { additionalProperties: false });

export const ListArticleFeedbackQuerySchema = Type.Object(listPageFields(), { additionalProperties: false });
