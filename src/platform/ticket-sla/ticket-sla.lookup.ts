import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { SLA_METRICS, type SlaMetric } from '../../shared/sla.js';
import { listTargetsOfTickets } from './ticket-sla.repository.js';

export interface TicketSla {
  policyId: string;
  targets: {
    metric: SlaMetric;
    dueAt: string | null;
    status: 'active' | 'paused' | 'met' | 'breached';
    breachedAt: string | null;
    metAt: string | null;
  }[];
}

const order = (metric: SlaMetric) => SLA_METRICS.indexOf(metric);

/**
 * The SLA of a page of tickets, in one statement. With `now`, a running target past its due time
 * reads `breached` before the worker marks it. Targets not started yet are left out.
 */
export async function slaOfTickets(
  db: Kysely<DB> | Transaction<DB>,
  ticketIds: readonly string[],
  now?: Date,
): Promise<Map<string, TicketSla>> {
  const byTicket = new Map<string, TicketSla>();
  for (const row of await listTargetsOfTickets(db, ticketIds)) {
    const sla = byTicket.get(row.ticket_id) ?? { policyId: row.policy_id, targets: [] };
    byTicket.set(row.ticket_id, sla);
    if (row.status === 'idle') {
      continue;
    }
    const overdue = row.status === 'active' && now !== undefined && row.due_at !== null && new Date(row.due_at) < now;
    sla.targets.push({
      metric: row.metric,
      dueAt: row.due_at,
      status: overdue ? 'breached' : row.status,
      breachedAt: overdue ? row.due_at : row.breached_at,
      metAt: row.met_at,
    });
  }
  for (const sla of byTicket.values()) {
    sla.targets.sort((a, b) => order(a.metric) - order(b.metric));
  }
  return byTicket;
}
