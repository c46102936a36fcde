/**
 * Every event type the log holds, written once for the API (the `type` enums of events and
 * webhooks, and the checks of `?type=` and `eventTypes`) and the console (which of them its live
 * stream listens to). A new kind of change adds its type here, and `GET /v1/events` accepts it as
 * a filter at once. The order is the OpenAPI enum's and the error messages': keep it.
 */
export const EVENT_TYPES = [
  'ticket.created',
  'ticket.updated',
  'ticket.assigned',
  'ticket.status_changed',
  'ticket.deleted',
  'satisfaction.rated',
  'sla.warning',
  'sla.breached',
  'comment.created',
  'comment.updated',
  'contact.created',
  'contact.deleted',
  'account.created',
  'note.created',
  'article.published',
  'article.unpublished',
  'article.updated',
  'article.deleted',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'help_center.updated',
  'chat.message.created',
  'chat.visitor_presence',
  'chat.visitor_typing',
  'mcp_server.connected',
  'mcp_server.disconnected',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The changes that alter a help center's public pages: the site's page cache forgets an
 * organization's pages when its log holds one of them.
 */
export const HELP_CENTER_SITE_EVENT_TYPES = [
  'article.published',
  'article.unpublished',
  'article.updated',
  'article.deleted',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'help_center.updated',
] as const satisfies readonly EventType[];

/** Who made a change, as events and the ticket timeline name them. */
export const ACTOR_TYPES = ['user', 'customer_contact', 'system', 'routing'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
