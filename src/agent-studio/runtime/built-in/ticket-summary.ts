import type { Comment } from '../../../platform/tickets/comment.presenter.js';
import type { Ticket } from '../../../platform/tickets/ticket.presenter.js';

/** Longest text of one field handed to the model; the run caps the whole result too, this keeps one long field from crowding out the rest. */
const MAX_TEXT = 4000;

export function clip(text: string | null, limit = MAX_TEXT): string | null {
  if (text === null || text.length <= limit) {
    return text;
  }
  return `${text.slice(0, limit)}… [${text.length - limit} more characters]`;
}

/** A ticket as the model reads it: snake_case, names rather than option ids, no editor internals. */
export function ticketSummary(ticket: Ticket) {
  const contactName = [ticket.customerContactFirstName, ticket.customerContactLastName].filter(Boolean).join(' ');
  return {
    id: ticket.id,
    identifier: ticket.ticketIdentifier,
    title: ticket.title,
    description: clip(ticket.description),
    status: ticket.status,
    is_closed: ticket.isClosed,
    priority: ticket.priority,
    type: ticket.type,
    team: { id: ticket.teamId, name: ticket.teamName },
    assignee: ticket.assignedAgentId
      ? { id: ticket.assignedAgentId, name: ticket.assignedAgent, email: ticket.assignedAgentEmail }
      : null,
    requestor: { email: ticket.requestorEmail, name: contactName || null, contact_id: ticket.customerContactId },
    account: ticket.accountId ? { id: ticket.accountId, name: ticket.account } : null,
    tags: ticket.tags.map((tag) => tag.name),
    is_private: ticket.isPrivate,
    created_at: ticket.createdAt,
    updated_at: ticket.updatedAt,
    closed_at: ticket.closedAt,
  };
}

/**
 * A ticket as a run acting for its requester reads it: what the requester sees of their own
 * ticket, without the desk's internals (team, assignee's address, tags, account).
 */
export function customerTicketSummary(ticket: Ticket) {
  const { id, identifier, title, description, status, is_closed, requestor, created_at, updated_at, closed_at } =
    ticketSummary(ticket);
  return { id, identifier, title, description, status, is_closed, requestor, created_at, updated_at, closed_at };
}

/** A line of a ticket list: enough to choose which ticket to read in full. */
export function ticketListItem(ticket: Ticket) {
  return {
    id: ticket.id,
    identifier: ticket.ticketIdentifier,
    title: ticket.title,
    status: ticket.status,
    is_closed: ticket.isClosed,
    priority: ticket.priority,
    team: ticket.teamName,
    assignee: ticket.assignedAgent,
    requestor_email: ticket.requestorEmail,
    updated_at: ticket.updatedAt,
  };
}

/** A line of a customer's own ticket list. */
export function customerTicketListItem(ticket: Ticket) {
  const { id, identifier, title, status, is_closed, updated_at } = ticketListItem(ticket);
  return { id, identifier, title, status, is_closed, updated_at };
}

export function commentSummary(comment: Comment) {
  return {
    id: comment.id,
    author: comment.author,
    author_type: comment.authorUserType,
    visibility: comment.commentVisibility,
    type: comment.commentType,
    created_at: comment.createdAt,
    content: clip(comment.content),
  };
}

/** Search highlights are HTML (escaped text, matches in `<mark>`); the model reads them as text. */
export function highlightText(html: string): string {
  return html
    .replace(/<\/?mark>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
