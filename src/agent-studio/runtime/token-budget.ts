import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { AppDeps } from '../../deps.js';
import {
  addRunReservation,
  clearRunReservation,
  ensureUsageRow,
  findRunReservation,
  findUsage,
  listMonthUsage,
  reserveIfRoom,
  settleUsage,
  type UsageKey,
} from './agent-token-usage.repository.js';

/**
 * An agent's monthly token budget, shared by every run of every process. A stretch of a run
 * reserves tokens before it calls the model, a chunk at a time and atomically against the budget
 * (one conditional UPDATE), and asks for another chunk when it has spent what it holds; when it
 * ends, what it spent is counted and what it held is released, in the transaction that records it.
 * So N runs at once are limited as N runs one after another: each can overshoot by at most the
 * step it was in, never by what the others spend meanwhile. A run whose process died is released
 * when it is failed as abandoned.
 */

/** Tokens reserved at a time: several model calls of a typical run, a small part of a real budget. */
export const RESERVATION_TOKENS = 8_000;
/** Tries at a reservation that other runs' reservations keep beating, before giving up. */
const RESERVE_TRIES = 5;

export function monthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/** `2026-11`: the calendar month (UTC) that `monthStart` begins. */
export const monthOf = (periodStart: string) => periodStart.slice(0, 7);

/**
 * The tokens each agent's runs used in the current month (UTC): what finished stretches counted,
 * without what stretches in progress hold. One statement for any number of agents.
 */
export async function tokensUsedThisMonth(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  organizationId: string,
  agentIds: readonly string[],
): Promise<{ month: string; tokens: Map<string, number> }> {
  const periodStart = monthStart(deps.clock.now());
  const rows = agentIds.length > 0 ? await listMonthUsage(deps.db, organizationId, agentIds, periodStart) : [];
  return { month: monthOf(periodStart), tokens: new Map(rows.map((row) => [row.agent_id, Number(row.used_tokens)])) };
}

export interface BudgetedRun {
  runId: string;
  agentId: string;
  organizationId: string;
}

const keyOf = (run: BudgetedRun, periodStart: string): UsageKey => ({
  agentId: run.agentId,
  organizationId: run.organizationId,
  periodStart,
});

export type Reservation = { granted: number } | { granted: 0; used: number; reserved: number };

/**
 * Reserves up to `wanted` tokens of `budget` for the run in the month `periodStart`: a full
 * chunk while there is room for one, else what is left. `granted: 0` when nothing is left, with
 * what was used and what runs in progress hold.
 */
export async function reserveTokens(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  run: BudgetedRun,
  budget: number,
  periodStart: string,
  wanted = RESERVATION_TOKENS,
): Promise<Reservation> {
  const key = keyOf(run, periodStart);
  const now = () => deps.clock.now().toISOString();
  // The month's first reservation makes its row (summing the month's runs so far): once a month.
  if (!(await findUsage(deps.db, key))) {
    await ensureUsageRow(deps.db, key, now());
  }
  for (let attempt = 0; attempt < RESERVE_TRIES; attempt++) {
    const usage = (await findUsage(deps.db, key)) ?? { used: 0, reserved: 0 };
    const room = budget - usage.used - usage.reserved;
    if (room <= 0) {
      return { granted: 0, ...usage };
    }
    const amount = Math.min(wanted, room);
    const granted = await deps.db.transaction().execute(async (trx) => {
      if (!(await reserveIfRoom(trx, key, amount, budget, now()))) {
        return false;
      }
      await addRunReservation(trx, run.runId, amount, periodStart);
      return true;
    });
    if (granted) {
      return { granted: amount };
    }
  }
  const usage = (await findUsage(deps.db, key)) ?? { used: 0, reserved: 0 };
  return { granted: 0, ...usage };
}

/**
 * In the transaction that records a stretch of the run (or fails it): counts `spent` tokens as
 * used in the month the run reserved from (else the current one) and releases what the run held.
 * Every stretch is counted, budget or not, so a budget set later starts from the truth.
 */
export async function settleTokens(trx: Transaction<DB> | Kysely<DB>, run: BudgetedRun, spent: number, now: Date): Promise<void> {
  const held = await findRunReservation(trx, run.runId);
  const key = keyOf(run, held?.reserved_period ?? monthStart(now));
  if (spent === 0 && !held?.reserved_tokens) {
    return;
  }
  const change = { spent, released: Number(held?.reserved_tokens ?? 0) };
  if (!(await settleUsage(trx, key, change, now.toISOString()))) {
    // The month's first count: its row sums the month's runs so far, then counts this stretch.
    await ensureUsageRow(trx, key, now.toISOString());
    await settleUsage(trx, key, change, now.toISOString());
  }
  if (held?.reserved_tokens) {
    await clearRunReservation(trx, run.runId);
  }
}
