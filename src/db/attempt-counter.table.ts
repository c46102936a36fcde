/** How many attempts a key has made in its current window (see `http/attempt-counters.ts`). */
export interface AttemptCounterTable {
  /** SHA-256 (hex) of what is counted, e.g. `sign-in-account:ada@acme.example`. */
  key: string;
  count: number;
  window_ends_at: string;
}
