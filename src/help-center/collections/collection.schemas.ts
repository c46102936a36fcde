import { Type } from '@sinclair/typebox';
import { Nullable, ObjectIdSchema, TimestampSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../help-center.pagination.js';
import { MetaInputSchema, MetaSchema } from '../help-centers/help-center.meta.js';

export const CollectionSchema = Type.Object(
  {
    _id: ObjectIdSchema,
    orgId: Type.String(),
    uid: Type.Integer({ description: 'Number increasing per organization' }),
    helpCenterId: ObjectIdSchema,
    name: Type.String(),
    slug: Type.String({ description: 'Derived from the name; unique among siblings' }),
    order: Type.Integer({ description: 'Position among siblings: 1, 2, 3…' }),
    createdBy: Type.String(),
    isProtected: Type.Boolean({ description: 'Reading requires authentication; true under a protected parent' }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    description: Nullable(Type.String()),
    parentId: Nullable(ObjectIdSchema),
    articles: Type.Array(ObjectIdSchema, { description: 'Identifiers of the articles in the collection' }),
    icon: Type.String({ description: 'Icon identifier' }),
    meta: MetaSchema,
  },
  { additionalProperties: false },
);

const NameSchema = Type.String({ minLength: 1, maxLength: 200 });
const DescriptionSchema = Type.String({ minLength: 1, maxLength: 2000 });
const IconSchema = Type.String({ minLength: 1, maxLength: 100, description: 'Icon identifier; `book` when not given' });

export const CreateCollectionSchema = Type.Object(
  {
    helpCenterId: ObjectIdSchema,
    name: NameSchema,
    description: Type.Optional(DescriptionSchema),
    icon: Type.Optional(IconSchema),
    isProtected: Type.Optional(Type.Boolean()),
    parentId: Type.Optional(Nullable(ObjectIdSchema)),
    meta: Type.Optional(MetaInputSchema),
  },
  { additionalProperties: false },
);

export const UpdateCollectionSchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    description: Type.Optional(Nullable(DescriptionSchema)),
    icon: Type.Optional(IconSchema),
    isProtected: Type.Optional(Type.Boolean()),
    meta: Type.Optional(MetaInputSchema),
    order: Type.Optional(Type.Integer({ minimum: 1, description: 'New position among siblings; past the end means last' })),
    parentId: Type.Optional(
      Type.Union([Type.Null(), ObjectIdSchema], { description: 'New parent in the same help center; null: top level' }),
    ),
  },
  { additionalProperties: false },
);

export const ListCollectionsQuerySchema = Type.Object(
  {
    helpCenterId: Type.Optional(ObjectIdSchema),
    parentId: Type.Optional(
      Type.Union([ObjectIdSchema, Type.Literal('null')], {
        description: 'Only the children of this collection; `null`: only the top level. Without it, the whole trees',
      }),
    ),
    ...listPageFields('Collections per page: top-level ones with their subtrees, or children of `parentId`'),
  },
  { additionalProperties: false },
);

export const CollectionIdParamsSchema = Type.Object({ id: ObjectIdSchema }, { additionalProperties: false });
