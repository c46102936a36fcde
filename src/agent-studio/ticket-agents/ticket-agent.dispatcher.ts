import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import type { EventRow } from '../../platform/events/event.repository.js';
import { readEventBatch } from '../../platform/events/event-log.service.js';
import { advanceCursor, findTeamsWithAgents, insertJobs, lockCursorBehindLog } from './ticket-agent.repository.js';

/**
 * Turns new tickets and customer replies into jobs for the agents of the teams they belong to. One
 * cursor per organization into its event log; a pass locks it (other processes skip it), reads the
 * events after it, inserts a job for each that a team's agent answers, and moves the cursor, in
 * one transaction. UNIQUE (organization_id, event_seq) stops a second job for one event even if
 * two passes overlap, so each event is answered once however many processes run.
 */

export interface DispatchDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

const EVENTS_PER_BATCH = 200;

/**
 * What an agent answers: a ticket just created (by anyone but an agent), and a public comment a
 * customer wrote. Its own comments and notes, and every agent's or teammate's, are never answered.
 */
export function isAnswerable(
  row: Pick<EventRow, 'type' | 'actor_type' | 'is_internal' | 'ticket_id' | 'team_id' | 'data'>,
): boolean {
  if (row.ticket_id === null || row.team_id === null) {
    return false;
  }
  if (row.type === 'ticket.created') {
    // A ticket an agent opened itself (its create_ticket tool) is not answered by an agent again.
    const fromAgent = readJson<{ source?: unknown }>(row.data)?.source === 'ai_agent';
    return !fromAgent && (row.actor_type === 'user' || row.actor_type === 'customer_contact' || row.actor_type === 'system');
  }
  return row.type === 'comment.created' && row.actor_type === 'customer_contact' && !readBoolean(row.is_internal);
}

/** Dispatches one batch per organization behind its log; answers how many organizations moved on. */
export async function dispatchTicketEvents(deps: DispatchDeps, maxOrganizations = 50): Promise<number> {
  const done: string[] = [];
  while (done.length < maxOrganizations) {
    const organizationId = await deps.db.transaction().execute((trx) => dispatchBatch(trx, deps, done));
    if (organizationId === undefined) {
      break;
    }
    done.push(organizationId);
  }
  return done.length;
}

async function dispatchBatch(trx: Transaction<DB>, deps: DispatchDeps, exclude: readonly string[]) {
  const cursor = await lockCursorBehindLog(trx, exclude);
  if (!cursor) {
    return undefined;
  }
  const organizationId = cursor.organization_id;
  const { events: batch, nextSeq } = await readEventBatch(trx, organizationId, {
    types: ['ticket.created', 'comment.created'],
    afterSeq: Number(cursor.dispatched_seq),
    limit: EVENTS_PER_BATCH,
  });

  const answerable = batch.filter(isAnswerable);
  const teams = new Map(
    (
      await findTeamsWithAgents(
        trx,
        organizationId,
        answerable.map((row) => row.team_id ?? ''),
      )
    ).map((team) => [team.team_id, team]),
  );
  const now = deps.clock.now().toISOString();
  await insertJobs(
    trx,
    answerable.flatMap((row) => {
      const team = teams.get(row.team_id ?? '');
      if (!team?.ai_agent_id || team.ai_agent_mode === 'off') {
        return [];
      }
      return [
        {
          id: deps.ids.ulid(),
          organization_id: organizationId,
          event_seq: Number(row.seq),
          event_type: row.type,
          ticket_id: row.ticket_id ?? '',
          team_id: team.team_id,
          agent_id: team.ai_agent_id,
          mode: team.ai_agent_mode,
          status: 'pending' as const,
          attempts: 0,
          created_at: now,
          updated_at: now,
        },
      ];
    }),
  );
  await advanceCursor(trx, organizationId, nextSeq, now);
  return organizationId;
}
