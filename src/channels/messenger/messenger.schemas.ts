import { Type } from '@sinclair/typebox';
import { WIDGET_POSITIONS } from '../../help-center/help-centers/help-center.widget.js';
import { MAX_SEARCH_PAGES } from '../../help-center/site/site.service.js';
import { Nullable, StringEnum, TimestampSchema } from '../../http/shared-schemas.js';

export const SlugSchema = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The help center's slug (its site is /hc/{slug}/)",
});

export const HelpCenterSlugParamsSchema = Type.Object({ slug: SlugSchema }, { additionalProperties: false });

export const ArticleParamsSchema = Type.Object(
  {
    slug: SlugSchema,
    articleSlug: Type.String({
      minLength: 1,
      maxLength: 300,
      description: "The article's address segment, as search answers it (12-install-the-app)",
    }),
  },
  { additionalProperties: false },
);

export const ConfigSchema = Type.Object(
  {
    helpCenter: Type.Object(
      {
        name: Type.String(),
        slug: Type.String(),
        siteUrl: Type.String({ description: "The help center's public site (its custom domain when it has one)" }),
      },
      { additionalProperties: false },
    ),
    widget: Type.Object(
      {
        greeting: Type.String(),
        launcherColor: Type.String({ description: '#rrggbb' }),
        position: StringEnum(WIDGET_POSITIONS),
        identityVerificationRequired: Type.Boolean(),
        chatAvailable: Type.Boolean({
          description:
            'Whether visitors can chat: the widget names an agent (anonymous visitors may not when identityVerificationRequired)',
        }),
        handoffAvailable: Type.Boolean({
          description: 'Whether a person can take a conversation over ("Talk to a person"): the widget names a team for it',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const VisitorSchema = Type.Object(
  {
    id: Type.String(),
    verified: Type.Boolean({ description: 'Whether the host verified who the visitor is with a signed identity token' }),
    contact: Nullable(Type.Object({ name: Type.String(), email: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const VisitorTokenSchema = Type.Object(
  {
    visitorToken: Type.String({
      description: 'Send as `Authorization: Bearer <visitorToken>`; shown this once, scoped to this help center',
    }),
    visitor: VisitorSchema,
  },
  { additionalProperties: false },
);

export const MeSchema = Type.Object({ visitor: VisitorSchema }, { additionalProperties: false });

export const IdentifyBodySchema = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 8192,
      description:
        "A JWT the host signed (HS256) with the help center's widget secret: sub, email and exp (at most 24 h ahead) required; name and account optional",
    }),
  },
  { additionalProperties: false },
);

export const SearchQuerySchema = Type.Object(
  {
    q: Type.String({ maxLength: 1000, default: '', description: 'The search terms (at most 200 characters are searched for)' }),
    page: Type.Integer({ minimum: 1, maximum: MAX_SEARCH_PAGES, default: 1 }),
  },
  { additionalProperties: false },
);

export const SearchSchema = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          title: Type.String(),
          slug: Type.String({ description: 'The article segment GET /articles/{articleSlug} takes' }),
          excerptHtml: Type.String({ description: 'Escaped text with <mark> around the matched words' }),
          url: Type.String({ description: "The article's address on the public site" }),
        },
        { additionalProperties: false },
      ),
    ),
    page: Type.Integer(),
    hasMore: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const ArticleSchema = Type.Object(
  {
    title: Type.String(),
    slug: Type.String(),
    html: Type.String({ description: 'The published, sanitised HTML' }),
    url: Type.String({ description: "The article's address on the public site" }),
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);
