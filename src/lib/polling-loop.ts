/**
 * Runs `pass` now and then every `intervalMs` until stopped; a pass that did a full batch of work
 * is followed at once by the next. Passes never overlap, a failed pass is reported and retried
 * after the interval, and the timer never keeps the process alive on its own.
 */
export interface PollingLoop {
  start(): void;
  /** Stops scheduling and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function createPollingLoop(options: {
  pass: () => Promise<number>;
  intervalMs: number;
  batchSize: number;
  onError: (error: unknown) => void;
}): PollingLoop {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> = Promise.resolve();
  let running = false;

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      current = options.pass().then(
        (done) => (running ? schedule(done >= options.batchSize ? 0 : options.intervalMs) : undefined),
        (error: unknown) => {
          options.onError(error);
          if (running) {
            schedule(options.intervalMs);
          }
        },
      );
    }, delayMs);
    timer.unref();
  }

  return {
    start() {
      if (!running) {
        running = true;
        schedule(0);
      }
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}
