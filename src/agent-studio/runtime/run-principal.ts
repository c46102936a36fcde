import type { AgentRunRow } from './agent-run.repository.js';
import type { AgentRunTrigger } from './agent-run.table.js';

/**
 * Whom a run acts for. A chat run acts for the user chatting; a run started by text from outside
 * (a customer's email or reply on a ticket, later the messenger and Slack) acts either for the
 * customer who wrote it, with only that customer's reach, or, when its answer is a draft for
 * agents, for the agent's creator with every tool that sends anything outside held for approval.
 */
export type RunPrincipal =
  | { type: 'user'; userId: string }
  /** The requester of the run's ticket; a requester with no contact record has a null `contactId`. */
  | { type: 'customer_contact'; contactId: string | null };

/** What the principal of a customer run may see through tools: the ticket answered, and the requester's own. */
export interface CustomerReach {
  ticketId: string;
  contactId: string | null;
}

export function principalOfRun(row: Pick<AgentRunRow, 'principal_type' | 'principal_id' | 'acting_user_id'>): RunPrincipal {
  return row.principal_type === 'customer_contact'
    ? { type: 'customer_contact', contactId: row.principal_id }
    : { type: 'user', userId: row.principal_id ?? row.acting_user_id };
}

/** The stored columns of a principal. */
export function principalColumns(principal: RunPrincipal) {
  return principal.type === 'customer_contact'
    ? { principal_type: 'customer_contact' as const, principal_id: principal.contactId }
    : { principal_type: 'user' as const, principal_id: principal.userId };
}

/** The principal as the runs API shows it. */
export function presentPrincipal(principal: RunPrincipal) {
  return principal.type === 'customer_contact'
    ? { type: principal.type, id: principal.contactId }
    : { type: principal.type, id: principal.userId };
}

/** Runs that text from outside started: their tools are limited by the rules above. */
export function startedByOutsideText(trigger: AgentRunTrigger): boolean {
  return trigger === 'ticket';
}

/** The customer a run's tools act for, or null when it acts for a user. */
export function customerReachOf(principal: RunPrincipal, ticketId: string | null): CustomerReach | null {
  if (principal.type !== 'customer_contact') {
    return null;
  }
  if (!ticketId) {
    throw new Error('A run acting for a customer must be about a ticket');
  }
  return { ticketId, contactId: principal.contactId };
}
