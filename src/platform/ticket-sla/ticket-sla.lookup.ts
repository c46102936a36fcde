import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { instantOfJson, readJson } from '../../db/dialect.js';
import { SLA_METRICS, type SlaMetric } from '../../shared/sla.js';
import { listTargetsOfTickets, type TargetStateRow } from './ticket-sla.repository.js';

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
  return slaByTicket(await listTargetsOfTickets(db, ticketIds), now);
}

/**
 * `slaOfTickets` of one ticket whose read brought its targets along as JSON
 * (`targetStatesOfEnclosingTicket`): no statement of its own.
 */
export function slaOfJson(json: string, now?: Date): TicketSla | null {
  const rows = (readJson<TargetStateRow[]>(json) ?? []).map((row) => ({
    ...row,
    due_at: instantOfJson(row.due_at),
    met_at: instantOfJson(row.met_at),
    breached_at: instantOfJson(row.breached_at),
  }));
  const [first] = rows;
  return first ? (slaByTicket(rows, now).get(first.ticket_id) ?? null) : null;
}

function slaByTicket(rows: readonly TargetStateRow[], now: Date | undefined): Map<string, TicketSla> {
  const byTicket = new Map<string, TicketSla>();
  for (const row of rows) {
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
