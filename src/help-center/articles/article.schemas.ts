import { Type } from '@sinclair/typebox';
import { Nullable, ObjectIdSchema, StringEnum, TimestampSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../help-center.pagination.js';
import { MetaInputSchema, MetaSchema } from '../help-centers/help-center.meta.js';

export const ArticleStateSchema = StringEnum(['draft', 'published'] as const);

const PublishedVersionSchema = Type.Object(
  {
    title: Type.String(),
    description: Nullable(Type.String()),
    html: Type.String(),
    version: Type.Integer({ description: '1 for the first publication, then 2, 3…' }),
    publishedBy: Type.String(),
    publishedAt: TimestampSchema,
  },
  { additionalProperties: false, description: 'What readers see; the draft fields change only this on publish' },
);

export const ArticleSchema = Type.Object(
  {
    _id: ObjectIdSchema,
    orgId: Type.String(),
    uid: Type.Integer({ description: 'Number increasing per organization' }),
    title: Type.String(),
    description: Nullable(Type.String()),
    slug: Type.String({ description: '`<uid>-<kebab-title>`' }),
    state: ArticleStateSchema,
    contentHtml: Type.String({ description: 'Draft body, sanitised HTML' }),
    contentMarkdown: Type.String({ description: 'Draft body as markdown' }),
    tags: Type.Array(ObjectIdSchema),
    collections: Type.Array(ObjectIdSchema),
    helpCenters: Type.Array(ObjectIdSchema),
    meta: MetaSchema,
    publishedVersion: Nullable(PublishedVersionSchema),
    hasUnpublishedChanges: Type.Boolean({ description: 'The draft differs from the published version' }),
    helpfulCount: Type.Integer({
      minimum: 0,
      description: 'Readers (one vote per browser) who found it helpful on the public site',
    }),
    notHelpfulCount: Type.Integer({ minimum: 0, description: 'Readers (one vote per browser) who did not' }),
    isDeleted: Type.Boolean(),
    deletedAt: Nullable(TimestampSchema),
    createdBy: Type.String(),
    lastEditedBy: Type.String(),
    lastEditedAt: TimestampSchema,
    revision: Type.Integer({
      minimum: 1,
      description: 'Counts the changes of the draft; send it back as ifRevision so a save cannot overwrite one it never saw',
    }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

const TitleSchema = Type.String({ minLength: 1, maxLength: 300 });
const DescriptionSchema = Type.String({ minLength: 1, maxLength: 2000 });
const ContentHtmlSchema = Type.String({ maxLength: 500_000, description: 'Body as HTML; sanitised' });
const ContentMarkdownSchema = Type.String({ maxLength: 500_000, description: 'Body as markdown; rendered and sanitised' });
const TagIdsSchema = Type.Array(ObjectIdSchema, { uniqueItems: true, maxItems: 50, description: 'Tag identifiers' });
const CollectionIdsSchema = Type.Array(ObjectIdSchema, { uniqueItems: true, maxItems: 50 });

export const CreateArticleSchema = Type.Object(
  {
    title: TitleSchema,
    collectionId: ObjectIdSchema,
    description: Type.Optional(DescriptionSchema),
    contentHtml: Type.Optional(ContentHtmlSchema),
    contentMarkdown: Type.Optional(ContentMarkdownSchema),
    tags: Type.Optional(TagIdsSchema),
    meta: Type.Optional(MetaInputSchema),
  },
  { additionalProperties: false },
);

export const UpdateArticleSchema = Type.Object(
  {
    title: Type.Optional(TitleSchema),
    description: Type.Optional(Nullable(DescriptionSchema)),
    contentHtml: Type.Optional(ContentHtmlSchema),
    contentMarkdown: Type.Optional(ContentMarkdownSchema),
    tags: Type.Optional(TagIdsSchema),
    addToCollections: Type.Optional(CollectionIdsSchema),
    removeFromCollections: Type.Optional(CollectionIdsSchema),
    meta: Type.Optional(MetaInputSchema),
    ifRevision: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'The revision this edit was made on; another save since then is a 409 naming who made it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ListArticlesQuerySchema = Type.Object(
  {
    collectionId: Type.Optional(ObjectIdSchema),
    helpCenterId: Type.Optional(ObjectIdSchema),
    state: Type.Optional(ArticleStateSchema),
    tag: Type.Optional(ObjectIdSchema),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Text the draft's title or body contains, case-insensitively; drafts included, unlike /articles/search",
      }),
    ),
    ...listPageFields(),
  },
  { additionalProperties: false },
);

export const SearchArticlesQuerySchema = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200, description: 'Words to find in title and body; all must match' }),
    helpCenterId: Type.Optional(ObjectIdSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
  },
  { additionalProperties: false },
);

export const ArticleSearchHitSchema = Type.Object(
  {
    _id: ObjectIdSchema,
    uid: Type.Integer(),
    title: Type.String({ description: 'Published title' }),
    description: Nullable(Type.String()),
    slug: Type.String(),
    excerpt: Type.String({ description: 'Passage of the published body, HTML-escaped, matches in <mark>' }),
    collections: Type.Array(ObjectIdSchema),
    helpCenters: Type.Array(ObjectIdSchema),
    publishedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const ArticleIdParamsSchema = Type.Object({ id: ObjectIdSchema }, { additionalProperties: false });
