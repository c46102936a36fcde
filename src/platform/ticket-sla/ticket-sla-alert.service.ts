import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import type { Metrics } from '../../lib/metrics.js';
import { recordEvents } from '../events/event.recorder.js';
import { notifyTicketChange } from '../notifications/ticket-notification.service.js';
import { recordSlaOutcomesForReports } from '../reports/report-outcomes.service.js';
import { insertSlaEvents } from './ticket-sla.repository.js';
import {
  type AlertedTarget,
  claimBreachNotice,
  claimWarning,
  findAlertContext,
  findOldestPending,
  listDueBreaches,
  listDueWarnings,
  markBreached,
} from './ticket-sla-alert.repository.js';

/**
 * SLA warnings and breaches, announced exactly once per target (per run of its clock: a target
 * started again, a periodic update after a reply, is a new run). Each is decided by one conditional
 * UPDATE … RETURNING of the target in the transaction that announces it: `warned_at` or
 * `breach_notified_at` set where it was null, so of several processes running the same pass one
 * gets the row and the others nothing, and a failed announcement rolls the claim back for the next
 * pass. A target breached is first marked so (`breached_at`, status) unless a ticket change did it.
 *
 * A warning is given once per run: a due time that moves later after it (a higher priority's
 * target, new business hours) warns nobody again, since the people told are already looking at
 * the ticket and a second email about one target would read as noise; the breach still follows.
 * A paused target (On hold, closed) or a met one is never warned nor breached; a breach already
 * marked is still announced after a pause or a late reply, since it happened.
 */

export interface SlaAlertDeps extends TicketEmailDeps {
  db: Kysely<DB>;
  metrics: Pick<Metrics, 'slaBreached' | 'setSlaWorkerLag'>;
}

type Alert = 'warning' | 'breached';

const SYSTEM = { type: 'system' as const, id: null, name: null };

/** One pass: breaches first (a target past due is never warned after), then warnings; answers how many it decided. */
export async function announceDueSlaAlerts(deps: SlaAlertDeps, batchSize: number): Promise<number> {
  const now = deps.clock.now().toISOString();
  let decided = 0;
  for (const due of await listDueBreaches(deps.db, now, batchSize)) {
    await announce(deps, due.id, 'breached');
    decided += 1;
  }
  for (const due of await listDueWarnings(deps.db, now, batchSize)) {
    await announce(deps, due.id, 'warning');
    decided += 1;
  }
  const oldest = await findOldestPending(deps.db, deps.clock.now().toISOString());
  const lag = oldest ? Math.max(0, (deps.clock.now().getTime() - new Date(oldest).getTime()) / 1000) : 0;
  deps.metrics.setSlaWorkerLag(lag);
  return decided;
}

/** One target's alert, in one transaction; nothing when another process (or a ticket change) got there first. */
async function announce(deps: SlaAlertDeps, targetId: string, alert: Alert): Promise<void> {
  const breach = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now().toISOString();
    const claimed =
      alert === 'warning'
        ? { target: await claimWarning(trx, targetId, now), marked: false }
        : await claimBreach(trx, deps, targetId, now);
    const target = claimed.target;
    if (!target) {
      return null;
    }
    const context = await findAlertContext(trx, target);
    if (!context.ticket) {
      // Deleted: the claim stands, so the target leaves the worker's indexes, and nobody is told.
      return null;
    }
    const policyName = context.policyName ?? 'a deleted policy';
    if (alert === 'warning') {
      await insertSlaEvents(trx, [slaEvent(deps, target, 'warning', `warning: due at ${target.due_at}`, now)]);
    }
    await notifyTicketChange(trx, deps, {
      organizationId: target.organization_id,
      ticketId: target.ticket_id,
      actor: { userId: null, name: 'SLA' },
      changeKey: `sla-${alert}:${target.id}:${now}`,
      events: [{ type: 'sla', alert, metric: target.metric, policyName, dueAt: target.due_at ?? now }],
    });
    // Last: the event log's sequence lock is held from here to the commit.
    await recordEvents(trx, deps, target.organization_id, [
      {
        type: alert === 'warning' ? 'sla.warning' : 'sla.breached',
        actor: SYSTEM,
        data: {
          ticketId: target.ticket_id,
          policyId: target.policy_id,
          policyName: context.policyName,
          metric: target.metric,
          dueAt: target.due_at,
          breachedAt: alert === 'breached' ? target.breached_at : null,
        },
        ticket: { id: context.ticket.id, teamId: context.ticket.team_id, isPrivate: readBoolean(context.ticket.is_private) },
      },
    ]);
    if (claimed.marked) {
      // Under the event log's lock, as every report row; a breach a ticket change marked, it counted.
      const outcome = { policyId: target.policy_id, metric: target.metric, met: 0, breached: 1 };
      await recordSlaOutcomesForReports(
        trx,
        { organizationId: target.organization_id, ticketId: target.ticket_id },
        [{ ...outcome, at: new Date(target.breached_at ?? now) }],
        { write: true },
      );
    }
    return alert === 'breached' ? { policy: policyName, metric: target.metric } : null;
  });
  if (breach) {
    deps.metrics.slaBreached(breach);
  }
}

/**
 * Marks the target breached if no ticket change did (the timeline's `breach`, as the clock writes
 * it in a change's transaction), then takes its announcement.
 */
async function claimBreach(trx: Transaction<DB>, deps: SlaAlertDeps, targetId: string, now: string) {
  const marked = await markBreached(trx, targetId, now);
  if (marked) {
    await insertSlaEvents(trx, [slaEvent(deps, marked, 'breach', `due at ${marked.due_at} passed`, now)]);
  }
  return { target: await claimBreachNotice(trx, targetId, now), marked: marked !== undefined };
}

/** The timeline's entry of a warning or a breach the worker found, by the system. */
function slaEvent(deps: SlaAlertDeps, target: AlertedTarget, kind: 'warning' | 'breach', reason: string, now: string) {
  return {
    id: deps.ids.ulid(),
    organization_id: target.organization_id,
    ticket_id: target.ticket_id,
    policy_id: target.policy_id,
    target_id: target.id,
    metric: target.metric,
    kind,
    reason,
    due_at: target.due_at,
    actor_type: 'system',
    actor_id: null,
    created_at: now,
  };
}
