import type { StudioAgent } from '../api/agent-studio-client';

type Usage = StudioAgent['usage'];

/** `November 2026`: the API's month (`2026-11`, in UTC) in the reader's words. */
export function monthName(month: string): string {
  const [year, index] = month.split('-').map(Number);
  if (!year || !index) {
    return month;
  }
  return new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, index - 1, 1)),
  );
}

/** `1,234 of 50,000 tokens (2%)`, or `1,234 tokens, no budget`: the month's usage in a line. */
export function usageSummary(usage: Usage): string {
  const used = usage.tokens.toLocaleString();
  if (usage.budget === null) {
    return `${used} tokens, no budget`;
  }
  const share = Math.floor((usage.tokens / usage.budget) * 100);
  return `${used} of ${usage.budget.toLocaleString()} tokens (${share}%)`;
}
