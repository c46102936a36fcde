import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { keysetPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { DEFAULT_LIST_LIMIT, readListCursor } from '../agent-studio.pagination.js';
import { canManageAgent, requireAgent } from '../agents/agent.lookup.js';
import { findThreadMessage } from '../chats/chat.service.js';
import { type FinishedRun, toRun } from './agent-run.presenter.js';
import { findRun, findRunOfAgent, listRunsOfAgent, listTicketHandoffsOfAgent } from './agent-run.repository.js';
import type { ListRunsQuerySchema } from './agent-run.schemas.js';

export const RUN_NOT_FOUND = 'Run not found';

/** A run of the agent the caller may see: their own, or any when they manage the agent. */
export async function requireVisibleRun(db: Kysely<DB>, principal: Principal, agentId: string, runId: string) {
  const agent = await requireAgent(db, principal, agentId);
  const run = await findRunOfAgent(db, principal.organizationId, agent.id, runId);
  if (!run || (run.acting_user_id !== principal.userId && !canManageAgent(principal))) {
    throw AppError.notFound(RUN_NOT_FOUND);
  }
  return run;
}

/** Newest first (sort_key, then id): a keyset page; members see the runs they started, managers all. */
export async function listAgentRuns(
  db: Kysely<DB>,
  principal: Principal,
  agentId: string,
  query: Static<typeof ListRunsQuerySchema>,
) {
  const agent = await requireAgent(db, principal, agentId);
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readListCursor(query, ['text', 'text']);
  const filter = {
    actingUserId: canManageAgent(principal) ? undefined : principal.userId,
    threadId: query.thread_id,
    status: query.status,
  };
  const rows = await listRunsOfAgent(db, agent.id, filter, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.sort_key, row.id]);
  return { items: page.items.map(toRun), nextCursor: page.nextCursor };
}

export async function getAgentRun(db: Kysely<DB>, principal: Principal, agentId: string, runId: string) {
  return toRun(await requireVisibleRun(db, principal, agentId, runId));
}

/** A run as `GET …/runs/{run_id}` shows it, by id alone: for the work that started it (a ticket's job). */
export async function findRunById(db: Kysely<DB>, runId: string): Promise<FinishedRun | null> {
  const row = await findRun(db, runId);
  return row ? toRun(row) : null;
}

/** The thread message a finished chat run answers with: its result message. */
export async function resultMessageOf(db: Kysely<DB>, run: FinishedRun) {
  if (!run.thread_id || !run.result_message_id) {
    return null;
  }
  return (await findThreadMessage(db, run.thread_id, run.result_message_id)) ?? null;
}

/** The agent's runs on tickets handed to a person for one of `filter.reasons`, newest first (the knowledge gaps read them). */
export async function listTicketHandoffs(
  db: Kysely<DB>,
  organizationId: string,
  agentId: string,
  filter: { reasons: readonly string[]; since: string; limit: number },
) {
  return listTicketHandoffsOfAgent(db, organizationId, agentId, filter);
}
