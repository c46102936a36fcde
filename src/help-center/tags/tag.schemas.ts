import { Type } from '@sinclair/typebox';
import { ObjectIdSchema, TimestampSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../help-center.pagination.js';

export const TagSchema = Type.Object(
  {
    _id: ObjectIdSchema,
    orgId: Type.String(),
    name: Type.String(),
    lowerName: Type.String({ description: 'The name in lower case; unique in the organization' }),
    createdBy: Type.String(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

const TagNameSchema = Type.String({ minLength: 1, maxLength: 50 });

export const CreateTagSchema = Type.Object({ name: TagNameSchema }, { additionalProperties: false });

export const UpdateTagSchema = Type.Object({ name: TagNameSchema }, { additionalProperties: false });

export const ListTagsQuerySchema = Type.Object(listPageFields(), { additionalProperties: false });

export const TagIdParamsSchema = Type.Object({ tagId: ObjectIdSchema }, { additionalProperties: false });

export const MergeTagSchema = Type.Object(
  { intoTagId: { ...ObjectIdSchema, description: 'The tag that stays; the merged tag is deleted' } },
  { additionalProperties: false },
);
