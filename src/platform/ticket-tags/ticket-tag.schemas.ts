import { Type } from '@sinclair/typebox';
import { UlidSchema } from '../../http/shared-schemas.js';

/** A tag as a ticket shows it. */
export const TicketTagSchema = Type.Object(
  { id: UlidSchema, name: Type.String(), color: Type.Union([Type.Null(), Type.String()]) },
  { additionalProperties: false },
);

const TagRefSchema = Type.String({ minLength: 1, maxLength: 100 });

/** `tagIds` of a ticket's create and update bodies, and of the tag routes. */
export const TagRefsSchema = Type.Array(TagRefSchema, {
  maxItems: 100,
  description:
    "Ticket tags of the ticket's team: tag ids, or tag names (ignoring case). A tag of another team or of type " +
    'skills is a 400; names never create tags.',
});

export const TicketTagsBodySchema = Type.Object({ tagIds: TagRefsSchema }, { additionalProperties: false });

/** `DELETE` takes the tags in the query, which every HTTP client can send with a DELETE: `?tagIds=A&tagIds=B`. */
export const TicketTagsQuerySchema = Type.Object(
  { tagIds: Type.Array(TagRefSchema, { minItems: 1, maxItems: 100, description: 'Repeat for each tag: ?tagIds=A&tagIds=B' }) },
  { additionalProperties: false },
);
