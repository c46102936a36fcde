/**
 * Work that takes turns per key, gathered into batches: while a key's batch runs, the items that
 * arrive for it wait, and go together as its next batch. An item alone is run at once, so nothing
 * waits that need not; under load, each turn carries everything that queued behind the last.
 *
 * For writes that serialise on a row anyway (an organization's event sequence): the writers of
 * one process stop queueing on the row one by one, each holding it through its commit, and take
 * it once per batch instead.
 *
 * `run` answers one outcome per item, in order: a value or an Error, so one item's failure is its
 * own. A `run` that throws fails every item of its batch.
 */
export interface TurnBatches<Item, Result> {
  submit(key: string, item: Item): Promise<Result>;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export function turnBatches<Item, Result>(options: {
  run: (key: string, items: Item[]) => Promise<(Result | Error)[]>;
  /** At most this many items a batch; the rest wait for the next turn. */
  maxBatch: number;
}): TurnBatches<Item, Result> {
  /** Keys with a batch running, and what waits for their next turn. */
  const queues = new Map<string, Waiting<Item, Result>[]>();

  async function runTurns(key: string, first: Waiting<Item, Result>[]): Promise<void> {
    let batch = first;
    while (batch.length > 0) {
      try {
        const outcomes = await options.run(
          key,
          batch.map((waiting) => waiting.item),
        );
        batch.forEach((waiting, index) => {
          const outcome = outcomes[index];
          if (outcome instanceof Error) {
            waiting.reject(outcome);
          } else {
            waiting.resolve(outcome as Result);
          }
        });
      } catch (error) {
        for (const waiting of batch) {
          waiting.reject(error);
        }
      }
      const queue = queues.get(key) ?? [];
      batch = queue.splice(0, options.maxBatch);
      if (queue.length === 0 && batch.length === 0) {
        queues.delete(key);
      }
    }
  }

  return {
    submit(key, item) {
      return new Promise<Result>((resolve, reject) => {
        const waiting = { item, resolve, reject };
        const queue = queues.get(key);
        if (queue) {
          queue.push(waiting);
          return;
        }
        queues.set(key, []);
        void runTurns(key, [waiting]);
      });
    },
  };
}
