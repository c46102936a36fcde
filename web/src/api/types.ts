import type { paths } from './platform';

type JsonBody<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type Operation<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method];
type SuccessOf<Op> = Op extends { responses: infer Responses }
  ? Responses extends { 200: infer Ok }
    ? JsonBody<Ok>
    : Responses extends { 201: infer Created }
      ? JsonBody<Created>
      : never
  : never;

/** The JSON a successful call of the operation answers (the whole envelope). */
export type SuccessBody<Path extends keyof paths, Method extends keyof paths[Path]> = SuccessOf<Operation<Path, Method>>;

/** The `data` of an enveloped success. */
export type DataOf<Path extends keyof paths, Method extends keyof paths[Path]> =
  SuccessBody<Path, Method> extends { data: infer Data } ? Data : SuccessBody<Path, Method>;

/** The query parameters the operation takes. */
export type QueryOf<Path extends keyof paths, Method extends keyof paths[Path]> =
  Operation<Path, Method> extends {
    parameters: { query?: infer Query };
  }
    ? NonNullable<Query>
    : never;

/** The JSON body the operation takes. */
export type BodyOf<Path extends keyof paths, Method extends keyof paths[Path]> =
  Operation<Path, Method> extends {
    requestBody?: infer Body;
  }
    ? JsonBody<NonNullable<Body>>
    : never;

export type PlatformEvent = DataOf<'/v1/events', 'get'>[number];
export type Ticket = DataOf<'/v1/tickets/{id}', 'get'>;
export type TicketListQuery = QueryOf<'/v1/tickets', 'get'>;

// The inbox's shapes.
export type TicketSort = NonNullable<TicketListQuery['sort']>;
export type TicketSearchHit = DataOf<'/v1/tickets/search', 'get'>[number];
export type TicketView = DataOf<'/v1/views', 'get'>[number];
export type BulkTicketChange = BodyOf<'/v1/tickets/bulk', 'post'>['change'];
export type OrganizationUser = DataOf<'/v1/users/list', 'get'>[number];
export type Team = DataOf<'/v1/teams', 'get'>[number];
export type TicketOption = DataOf<'/v1/tickets/statuses', 'get'>[number];
export type TeamTag = DataOf<'/v1/teams/{teamUuid}/tags', 'get'>['items'][number];

// The ticket page (web/src/ticket/).
export type TicketComment = DataOf<'/v1/tickets/{id}/comments', 'get'>[number];
export type TicketEmail = DataOf<'/v1/tickets/{id}/emails', 'get'>[number];
export type TicketActivity = DataOf<'/v1/tickets/{id}/activities', 'get'>[number];
export type TicketPriorityOption = DataOf<'/v1/tickets/priorities', 'get'>[number];
export type TicketUpdate = BodyOf<'/v1/tickets/{id}', 'patch'>;
export type CommentCreate = BodyOf<'/v1/tickets/{id}/comment', 'post'>;
export type CustomField = DataOf<'/v1/custom-field', 'get'>[number];
export type Macro = DataOf<'/v1/macros', 'get'>[number];
export type Contact = DataOf<'/v1/accounts/contacts/{contactId}', 'get'>;
export type Account = DataOf<'/v1/accounts/{id}', 'get'>;
export type AttachmentMetadata = DataOf<'/v1/attachments/{id}/metadata', 'get'>;
export type UploadedAttachment = DataOf<'/v1/attachments', 'post'>;
