/**
 * A macro's reply with its placeholders filled, for inserting into the composer where the agent
 * can still edit it. The rules are the API's (src/platform/macros/macro.placeholders.ts): `{{ name }}`
 * with spaces allowed, a missing value renders as nothing, and each value is escaped as markdown
 * text so a ticket title such as `[click](https://evil.example)` cannot add a link to the reply.
 * Applying the macro through the API (`POST /v1/tickets/{id}/macros/{macroId}/apply`) fills them
 * on the server instead.
 */

export type PlaceholderValues = Partial<Record<string, string | null>>;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function escapeMarkdownText(value: string): string {
  return value.replace(/\s+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** Unknown placeholders are left as written: the API refuses them when the macro is saved, so none should exist. */
export function fillPlaceholders(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER, (match, name: string) =>
    name in values ? escapeMarkdownText(values[name] ?? '') : match,
  );
}

export interface PlaceholderTicket {
  id: string;
  ticketIdentifier: string;
  title: string;
  status: string;
  priority: string;
  teamName: string;
  assignedAgent: string | null;
  customerContactFirstName: string | null;
  customerContactLastName: string | null;
  requestorEmail: string;
}

/** The values the API's placeholders stand for, from the ticket as shown and the agent inserting the macro. */
export function placeholderValues(ticket: PlaceholderTicket, agent: { name: string; email: string }): PlaceholderValues {
  const requestorName = [ticket.customerContactFirstName, ticket.customerContactLastName].filter(Boolean).join(' ');
  return {
    'ticket.id': ticket.id,
    'ticket.identifier': ticket.ticketIdentifier,
    'ticket.title': ticket.title,
    'ticket.status': ticket.status,
    'ticket.priority': ticket.priority,
    'ticket.team': ticket.teamName,
    'ticket.assignee': ticket.assignedAgent,
    'requestor.firstName': ticket.customerContactFirstName,
    'requestor.lastName': ticket.customerContactLastName,
    'requestor.name': requestorName || ticket.requestorEmail,
    'requestor.email': ticket.requestorEmail,
    'agent.name': agent.name,
    'agent.email': agent.email,
  };
}
