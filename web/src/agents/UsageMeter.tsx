import type { StudioAgent } from '../api/agent-studio-client';
import { monthName, usageSummary } from './agent-usage';

/** The agent's tokens this month (UTC) against its monthly budget, as a bar and in words. */
export function UsageMeter({ usage }: { usage: StudioAgent['usage'] }) {
  const share = usage.budget === null ? null : Math.min(1, usage.tokens / usage.budget);
  const tone = share === null ? '' : share >= 1 ? 'bg-red-600' : share >= 0.8 ? 'bg-amber-500' : 'bg-blue-600';
  return (
    <section
      aria-labelledby="agent-usage"
      className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
    >
      <h2 id="agent-usage" className="font-semibold">
        {`Usage in ${monthName(usage.month)} (UTC)`}
      </h2>
      <p className="text-sm">{usageSummary(usage)}</p>
      {share === null ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Set a monthly token budget below to cap what the agent may use.
        </p>
      ) : (
        // A drawn bar rather than <meter>, whose look browsers do not let both themes set; its name reads the numbers.
        <div
          role="img"
          aria-label={`Share of the month’s budget used: ${usageSummary(usage)}`}
          className="h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
        >
          <div className={`h-full ${tone}`} style={{ width: `${share * 100}%` }} />
        </div>
      )}
      {share !== null && share >= 1 ? (
        <p className="text-sm text-red-700 dark:text-red-300">
          The budget is used up: new runs are refused until next month or a higher budget.
        </p>
      ) : null}
    </section>
  );
}
