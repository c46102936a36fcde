import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { lastEventSeq } from '../../platform/events/event-log.service.js';
import { findLiveAgentId, insertTicketAgentCursor } from './ticket-agent.repository.js';

// What a team's configuration does to the ticket agents when it names an agent and a mode, in the
// transaction that writes the configuration (so the check and the cursor hold with the change).

/** Whether `agentId` is a live agent of the organization. */
export async function isLiveAgentOfOrganization(trx: Transaction<DB>, organizationId: string, agentId: string): Promise<boolean> {
  return (await findLiveAgentId(trx, organizationId, agentId)) !== undefined;
}

/**
 * The organization's ticket-agent cursor, made at the end of its log if it has none; an existing
 * one is kept (a team switching its agent on while another team's runs must not skip that team's events).
 */
export async function startTicketAgentCursor(trx: Transaction<DB>, organizationId: string, now: string): Promise<void> {
  await insertTicketAgentCursor(trx, organizationId, await lastEventSeq(trx, organizationId), now);
}
