/**
 * A macro's reply with its placeholders filled, for inserting into the composer where the agent
 * can still edit it, by the API's own rules (`src/shared/macro-placeholders.ts`). Applying the
 * macro through the API (`POST /v1/tickets/{id}/macros/{macroId}/apply`) fills them on the server
 * instead.
 */

import { type MacroPlaceholderValues, macroPlaceholderValues } from '../../../src/shared/macro-placeholders';

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
export function placeholderValues(ticket: PlaceholderTicket, agent: { name: string; email: string }): MacroPlaceholderValues {
  return macroPlaceholderValues({
    ticket: {
      id: ticket.id,
      identifier: ticket.ticketIdentifier,
      title: ticket.title,
      status: ticket.status,
      priority: ticket.priority,
      team: ticket.teamName,
      assignee: ticket.assignedAgent,
    },
    requestor: {
      firstName: ticket.customerContactFirstName,
      lastName: ticket.customerContactLastName,
      email: ticket.requestorEmail,
    },
    agent,
  });
}
