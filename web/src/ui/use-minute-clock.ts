import { useSyncExternalStore } from 'react';

/** How often the console's SLA countdowns read the clock again: often enough for "in 42 min". */
const TICK_MS = 30_000;

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) {
        notify();
      }
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The client's time, read again every 30 s by one timer that every row shares (not one per row):
 * the inbox's Due column and the ticket's SLA section count down and turn to breached without refetching.
 */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, () => now);
}
