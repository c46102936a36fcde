import { Type } from '@sinclair/typebox';
import { searchTickets } from '../../../platform/ticket-search/ticket-search.service.js';
import { listRecentComments } from '../../../platform/tickets/comment-threads.service.js';
import type { Ticket } from '../../../platform/tickets/ticket.presenter.js';
import { getTicket, listVisibleTickets } from '../../../platform/tickets/ticket.service.js';
import type { TicketFilterQuery } from '../../../platform/tickets/ticket-filters.js';
import type { RuntimeTool } from '../runtime-tool.js';
import { type BuiltInCall, makeBuiltInTool, requireAllowedTeam, requireCustomersTicket, ticketOfCall } from './built-in-tool.js';
import {
  commentSummary,
  customerTicketListItem,
  customerTicketSummary,
  highlightText,
  ticketListItem,
  ticketSummary,
} from './ticket-summary.js';

/** A ticket's id or identifier, as every ticket tool takes it. */
export const TicketIdArgument = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'The ticket id, or its identifier such as WED-5; leave out for the ticket this conversation is about',
});

interface TicketReadConfiguration {
  include_comments: boolean;
  max_comments: number;
  include_private_comments: boolean;
  team_ids?: string[];
}

const GetTicketArguments = Type.Object({ ticket_id: Type.Optional(TicketIdArgument) }, { additionalProperties: false });

async function readTicket(
  args: { ticket_id?: string },
  { context, principal, customer, configuration }: BuiltInCall<TicketReadConfiguration>,
) {
  const ticket = await getTicket(context.deps.db, principal, ticketOfCall(args.ticket_id, context));
  requireAllowedTeam(configuration, ticket.teamId);
  if (customer) {
    requireCustomersTicket(customer, ticket);
  }
  const comments =
    configuration.include_comments && configuration.max_comments > 0
      ? await listRecentComments(context.deps.db, principal, ticket.id, {
          limit: configuration.max_comments,
          // A customer never reads internal notes, whatever the tool's configuration says.
          includePrivate: configuration.include_private_comments && !customer,
        })
      : [];
  return {
    ticket: customer ? customerTicketSummary(ticket) : ticketSummary(ticket),
    latest_comments: comments.map(commentSummary),
  };
}

export function getTicketTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  return makeBuiltInTool(
    toolName,
    {
      description:
        'Reads one support ticket: status, priority, team, assignee, requestor, tags, and its latest comments (oldest of them first).',
      arguments: GetTicketArguments,
      run: readTicket,
    },
    configuration,
  );
}

interface SearchTicketsConfiguration {
  max_results: number;
  team_ids?: string[];
}

const SearchTicketsArguments = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          'Words to find in titles, descriptions and comments ("a phrase", refund* for a prefix, a OR b, -word to leave out); ' +
          'leave out to list the most recently updated tickets',
      }),
    ),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A status name, e.g. open or pending' })),
    is_closed: Type.Optional(Type.Boolean({ description: 'Only closed tickets (true) or only open ones (false)' })),
    requestor_email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: "The customer's email" })),
    assigned_to: Type.Optional(
      Type.Union([Type.Literal('me'), Type.Literal('none')], {
        description: 'me: tickets assigned to the user the agent acts for; none: unassigned tickets',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Most tickets to return' })),
  },
  { additionalProperties: false },
);

type SearchTicketsArgs = {
  query?: string;
  status?: string;
  is_closed?: boolean;
  requestor_email?: string;
  assigned_to?: 'me' | 'none';
  limit?: number;
};

async function findTickets(
  args: SearchTicketsArgs,
  { context, principal, customer, configuration }: BuiltInCall<SearchTicketsConfiguration>,
) {
  const limit = Math.min(args.limit ?? configuration.max_results, configuration.max_results);
  const filters: TicketFilterQuery = {
    teamId: configuration.team_ids?.length ? configuration.team_ids : undefined,
    statusName: args.status,
    isClosed: args.is_closed,
    requestorEmail: args.requestor_email,
    assignedAgentId: args.assigned_to,
    // A customer finds their own tickets only; one with no contact record, the ticket answered only.
    ...(customer?.contactId ? { customerContactId: customer.contactId } : {}),
  };
  const own = (ticket: Ticket) => {
    if (!customer) {
      return true;
    }
    try {
      requireCustomersTicket(customer, ticket);
      return true;
    } catch {
      return false;
    }
  };
  const listItem = customer ? customerTicketListItem : ticketListItem;
  if (args.query === undefined) {
    const page = await listVisibleTickets(context.deps.db, principal, { ...filters, sort: '-updatedAt', limit });
    return { tickets: page.items.filter(own).map(listItem), more: page.nextCursor !== null };
  }
  const page = await searchTickets(
    context.deps.db,
    principal,
    { ...filters, q: args.query, limit },
    { withoutInternalNotes: customer !== null },
  );
  return {
    tickets: page.items.filter(own).map((hit) => ({
      ...listItem(hit),
      matches: hit.highlights.map((highlight) => highlightText(highlight.text)),
    })),
    more: page.nextCursor !== null,
  };
}

export function searchTicketsTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  return makeBuiltInTool(
    toolName,
    {
      description:
        'Finds support tickets by words and filters, best match first (or the most recently updated without words). ' +
        'Answers a short line per ticket; read one in full with get_ticket.',
      arguments: SearchTicketsArguments,
      run: findTickets,
    },
    configuration,
  );
}
