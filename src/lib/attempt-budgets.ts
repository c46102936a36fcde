/**
 * Limits kept as counters of attempts per key over a window (the app's attempt counters, in Redis
 * or the database): what counting one attempt against several budgets comes to.
 */

/** One key's count after an attempt was added, and the time left in its window. */
interface Counted {
  count: number;
  msLeft: number;
}

/** The counters a budget is kept in (`http/attempt-counters.ts` makes them). */
export interface BudgetCounters {
  /** Adds one to each key; answers each key's count, in order. Null when the store cannot be reached. */
  increment(keys: string[], windowMs: number): Promise<Counted[] | null>;
  /** Takes one back from each key, in its current window. */
  decrement(keys: string[]): Promise<void>;
}

/** A key's counter and how many attempts its window allows. */
export interface AttemptBudget {
  key: string;
  max: number;
}

/** What counting one attempt against budgets came to: `overIndex` is the first budget it went past (-1: none). */
export interface BudgetVerdict {
  exceeded: boolean;
  retryAfterSeconds: number;
  overIndex: number;
  /** The keys that keep the attempt (none when it was refused, or nothing could be counted). */
  keptKeys: string[];
}

/**
 * One attempt added to every budget's counter in one step per counter. Past any budget it is
 * given back at once (refused attempts count nothing) and refused, with the seconds until the
 * longest of the exceeded windows ends. A store that cannot be reached counts nothing and refuses
 * nothing.
 */
export async function countAgainstBudgets(
  attempts: BudgetCounters,
  budgets: readonly AttemptBudget[],
  windowMs: number,
): Promise<BudgetVerdict> {
  const keys = budgets.map((budget) => budget.key);
  const counted = keys.length > 0 ? await attempts.increment(keys, windowMs) : null;
  if (!counted) {
    return { exceeded: false, retryAfterSeconds: 0, overIndex: -1, keptKeys: [] };
  }
  const over = (entry: Counted | undefined, index: number) =>
    (entry?.count ?? 0) > (budgets[index]?.max ?? Number.POSITIVE_INFINITY);
  const overIndex = budgets.findIndex((_budget, index) => over(counted[index], index));
  if (overIndex < 0) {
    return { exceeded: false, retryAfterSeconds: 0, overIndex, keptKeys: keys };
  }
  await attempts.decrement(keys);
  const msLeft = Math.max(...counted.filter(over).map((entry) => entry.msLeft));
  return { exceeded: true, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)), overIndex, keptKeys: [] };
}
