import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ViewFiltersSchema, ViewSortSchema } from './view.filters.js';

const NameSchema = Type.String({ minLength: 1, maxLength: 100 });

/** A saved view's id, or a built-in view's (`builtin:my-open` …). */
const ViewIdSchema = Type.String({
  pattern: '^([0-9A-HJKMNP-TV-Z]{26}|builtin:[a-z-]{1,40})$',
  description:
    'A ULID, or the id of a built-in view: builtin:my-open, builtin:unassigned, builtin:all-open, builtin:recently-updated, builtin:breaching-soon',
});

export const ViewSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    filters: ViewFiltersSchema,
    sort: ViewSortSchema,
    teamId: Nullable(UlidSchema),
    ownerId: Nullable({ ...UlidSchema, description: 'null for a built-in view' }),
    isBuiltIn: Type.Boolean({ description: 'Built-in views are the same for everyone, read-only, and listed first' }),
    ticketCount: Nullable(
      Type.Integer({
        minimum: 0,
        description:
          'Tickets the view selects that the caller may see, counted up to 10000 (see ticketCountIsCapped); null when ' +
          'the filters no longer apply (say, a team of the view was archived)',
      }),
    ),
    ticketCountIsCapped: Type.Boolean({ description: 'true when there are more than ticketCount tickets' }),
    createdAt: Nullable(TimestampSchema),
    updatedAt: Nullable(TimestampSchema),
  },
  { additionalProperties: false },
);

export const CreateViewSchema = Type.Object(
  {
    name: NameSchema,
    filters: Type.Optional(ViewFiltersSchema),
    sort: Type.Optional({ ...ViewSortSchema, description: 'The sort of GET /v1/tickets; default -createdAt' }),
    teamId: Type.Optional(
      Nullable({ ...UlidSchema, description: 'Share with this team (its admins manage it); null or absent: personal' }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateViewSchema = Type.Object(
  {
    name: Type.Optional(NameSchema),
    filters: Type.Optional({ ...ViewFiltersSchema, description: 'Replaces the filters as a whole' }),
    sort: Type.Optional(ViewSortSchema),
    teamId: Type.Optional(Nullable(UlidSchema)),
  },
  { additionalProperties: false },
);

export const ListViewsQuerySchema = Type.Object(
  {
    cursor: Type.Optional(CursorSchema),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 50,
        default: 20,
        description: 'Saved views per page (built-in views come on top of the first)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ViewTicketsQuerySchema = Type.Object(
  {
    cursor: Type.Optional(CursorSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  },
  { additionalProperties: false },
);

export const ViewParamsSchema = Type.Object({ viewId: ViewIdSchema });

export type CreateView = Static<typeof CreateViewSchema>;
export type UpdateView = Static<typeof UpdateViewSchema>;
