import type { AgentRunRow } from './agent-run.repository.js';
import type { AgentRunTrigger } from './agent-run.table.js';

/**
 * Whom a run acts for. A chat run acts for the user chatting; a run started by text from outside
 * (a customer's email or reply on a ticket, a messenger visitor's message, later Slack) acts either
 * for the customer or visitor who wrote it, with only their reach, or, when its answer is a draft
 * for agents, for the agent's creator with every tool that sends anything outside held for approval.
 */
export type RunPrincipal =
  | { type: 'user'; userId: string }
  /** The requester of the run's ticket; a requester with no contact record has a null `contactId`. */
  | { type: 'customer_contact'; contactId: string | null }
  /** A visitor of a help center's messenger, before any ticket: they may read what anyone may. */
  | { type: 'visitor'; visitorId: string };

/**
 * What the principal of a customer or visitor run may see through tools: the ticket answered and
 * the requester's own (none for a visitor), and published articles anyone may read.
 */
export interface CustomerReach {
  ticketId: string | null;
  contactId: string | null;
}

export function principalOfRun(row: Pick<AgentRunRow, 'principal_type' | 'principal_id' | 'acting_user_id'>): RunPrincipal {
  switch (row.principal_type) {
    case 'customer_contact':
      return { type: 'customer_contact', contactId: row.principal_id };
    case 'visitor':
      if (!row.principal_id) {
        throw new Error('A visitor run must name its visitor');
      }
      return { type: 'visitor', visitorId: row.principal_id };
    default:
      return { type: 'user', userId: row.principal_id ?? row.acting_user_id };
  }
}

/** The stored columns of a principal. */
export function principalColumns(principal: RunPrincipal) {
  switch (principal.type) {
    case 'customer_contact':
      return { principal_type: principal.type, principal_id: principal.contactId };
    case 'visitor':
      return { principal_type: principal.type, principal_id: principal.visitorId };
    default:
      return { principal_type: principal.type, principal_id: principal.userId };
  }
}

/** The principal as the runs API shows it. */
export function presentPrincipal(principal: RunPrincipal) {
  const { principal_type: type, principal_id: id } = principalColumns(principal);
  return { type, id };
}

/** Runs that text from outside started: their tools are limited by the rules above. */
export function startedByOutsideText(trigger: AgentRunTrigger): boolean {
  return trigger === 'ticket' || trigger === 'messenger';
}

/** The customer or visitor a run's tools act for, or null when it acts for a user. */
export function customerReachOf(principal: RunPrincipal, ticketId: string | null): CustomerReach | null {
  if (principal.type === 'visitor') {
    // No ticket and no contact: every ticket and contact lookup answers "not found".
    return { ticketId: null, contactId: null };
  }
  if (principal.type !== 'customer_contact') {
    return null;
  }
  if (!ticketId) {
    throw new Error('A run acting for a customer must be about a ticket');
  }
  return { ticketId, contactId: principal.contactId };
}
