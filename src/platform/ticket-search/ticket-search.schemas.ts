import { Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { UlidSchema } from '../../http/shared-schemas.js';
import { TicketSchema } from '../tickets/ticket.schemas.js';
import { CUSTOM_FIELD_FILTER_PATTERN, TicketFilterProperties } from '../tickets/ticket-filters.js';

/** Longest `q` accepted: a search box, not a document. */
export const MAX_QUERY_LENGTH = 500;

/**
 * The deepest result a search pages to (`page * limit + limit`). Ranking reads every match of the
 * query, whatever the page, and nobody reads past the first pages of a ranking: a narrower query
 * or a filter finds the ticket sooner (Zendesk's search API stops at 1,000 results too).
 */
export const MAX_SEARCH_DEPTH = 1000;

/**
 * `q`, the filters of `GET /v1/tickets` (the same parameters, checked alike, custom fields as
 * `cf.<fieldId>`), and a page of the ranking. No `sort`: results come best match first.
 */
export const SearchTicketsQuerySchema = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: MAX_QUERY_LENGTH,
      description:
        'Words to find in the title, description and comments (all must match, stemmed: "refunds" finds "refunded"); ' +
        '"a phrase" in double quotes; refun* for a prefix; a OR b for either; -word or -"a phrase" to leave out',
    }),
    ...TicketFilterProperties,
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SEARCH_DEPTH - 1, default: 0, description: '0-based page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
    cursor: Type.Optional(CursorSchema),
  },
  {
    additionalProperties: false,
    patternProperties: { [CUSTOM_FIELD_FILTER_PATTERN]: Type.String({ minLength: 1, maxLength: 1000 }) },
  },
);

export const TicketHighlightSchema = Type.Object(
  {
    field: Type.Union([Type.Literal('title'), Type.Literal('description'), Type.Literal('comment')]),
    commentId: Type.Union([Type.Null(), UlidSchema], {
      description: 'The comment the text is from; null for the title or description',
    }),
    commentVisibility: Type.Union([Type.Null(), Type.Literal('public'), Type.Literal('private')], {
      description: 'Of a comment: private for an internal note; null for the title or description',
    }),
    text: Type.String({
      description:
        'The whole title, or a passage around the matches, as HTML: every character of the ticket text is escaped ' +
        '(&amp; &lt; &gt; &quot; &#39;) and the matched words are wrapped in <mark>…</mark>, the only tags it holds. ' +
        'Safe to insert as HTML; for plain text, drop the two tags and unescape',
    }),
  },
  { additionalProperties: false },
);

export const TicketSearchHitSchema = Type.Object(
  {
    ...TicketSchema.properties,
    highlights: Type.Array(TicketHighlightSchema, {
      description: 'Where the ticket matched, best first: up to three of its parts (title and description, or a comment)',
    }),
  },
  { additionalProperties: false },
);
