import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
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

/**
 * The live agent `agentId` of the organization, or undefined once it is deleted: for work done
 * without a caller (a run, a ticket's job) that decides for itself what a missing agent means.
 */
export async function findLiveAgent(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  agentId: string,
): Promise<AgentRow | undefined> {
  return findAgentById(db, organizationId, agentId);
}

/**
 * Whether the caller may set up agents: create them, change them, their tools and their MCP
 * servers, and see every run. Only organization admins: an agent acts for the organization (it
 * answers a team's customers, with the tools and keys it is given), whoever made it.
 */
export function canManageAgent(principal: Principal): boolean {
  return isOrgAdmin(principal);
}

/** 403 `Access denied` unless the caller may set up agents (see `canManageAgent`). */
export function requireAgentManager(principal: Principal): void {
  if (!canManageAgent(principal)) {
    throw AppError.forbidden(ACCESS_DENIED);
  }
}

/**
 * `requireAgent`, then 403 `Access denied` unless the caller is an admin of its organization.
 * Every write on an agent, its tools and its MCP servers goes through here.
 */
export async function requireManageableAgent(
  db: Kysely<DB> | Transaction<DB>,
  principal: Principal,
  agentId: string,
): Promise<AgentRow> {
  const agent = await requireAgent(db, principal, agentId);
  requireAgentManager(principal);
  return agent;
}
