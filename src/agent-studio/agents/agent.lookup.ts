import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Principal } from '../../http/api-key-auth.js';
import { AppError } from '../../http/errors.js';
import { isOrgAdmin } from '../../platform/authorization.js';
import { type AgentRow, findAgentById } from './agent.repository.js';

export const AGENT_NOT_FOUND = 'Agent not found';
export const ACCESS_DENIED = 'Access denied';

/**
 * The live agent `agentId` of the caller's organization, or 404 `Agent not found`: another
 * organization's agent and a deleted one are indistinguishable from a missing one. Any member of
 * the organization may read an agent and chat with it.
 */
export async function requireAgent(db: Kysely<DB> | Transaction<DB>, principal: Principal, agentId: string): Promise<AgentRow> {
  const agent = await findAgentById(db, principal.organizationId, agentId);
  if (!agent) {
    throw AppError.notFound(AGENT_NOT_FOUND);
  }
  return agent;
}

/** Whether the caller may change the agent, its tools and its MCP servers: its creator or an org admin. */
export function canManageAgent(principal: Principal, agent: Pick<AgentRow, 'created_by_id'>): boolean {
  return agent.created_by_id === principal.userId || isOrgAdmin(principal);
}

/**
 * `requireAgent`, then 403 `Access denied` unless the caller created the agent or is an admin of
 * its organization. Every write on an agent, its tools and its MCP servers goes through here.
 */
export async function requireManageableAgent(
  db: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  agentId: string,
): Promise<AgentRow> {
  const agent = await requireAgent(db, principal, agentId);
  if (!canManageAgent(principal, agent)) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
  return agent;
}
