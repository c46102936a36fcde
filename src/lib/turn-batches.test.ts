import { describe, expect, it } from 'vitest';
import { turnBatches } from './turn-batches.js';

/** A `run` that records its batches and finishes each when told. */
function recorder() {
  const batches: { key: string; items: number[]; finish(outcomes?: (number | Error)[]): void }[] = [];
  const run = (key: string, items: number[]) =>
    new Promise<(number | Error)[]>((resolve) => {
      batches.push({ key, items, finish: (outcomes) => resolve(outcomes ?? items.map((item) => item * 10)) });
    });
  return { batches, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('turnBatches', () => {
  it('runs an item alone at once, and gathers what arrives meanwhile into the next turn', async () => {
    const { batches, run } = recorder();
    const turns = turnBatches({ run, maxBatch: 10 });
    const first = turns.submit('a', 1);
    expect(batches.map((batch) => batch.items)).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => turns.submit('a', item));
    await tick();
    expect(batches).toHaveLength(1);
    batches[0]?.finish();
    expect(await first).toBe(10);
    await tick();
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2, 3, 4]]);
    batches[1]?.finish();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    // Idle again: the next item runs at once.
    void turns.submit('a', 5);
    expect(batches.map((batch) => batch.items).at(-1)).toEqual([5]);
    batches[2]?.finish();
  });

  it('keeps keys apart and batches no more than maxBatch', async () => {
    const { batches, run } = recorder();
    const turns = turnBatches({ run, maxBatch: 2 });
    const a = [1, 2, 3, 4].map((item) => turns.submit('a', item));
    const b = turns.submit('b', 9);
    expect(batches.map((batch) => [batch.key, batch.items])).toEqual([
      ['a', [1]],
      ['b', [9]],
    ]);
    batches[0]?.finish();
    await tick();
    expect(batches.at(-1)?.items).toEqual([2, 3]);
    batches.at(-1)?.finish();
    await tick();
    expect(batches.at(-1)?.items).toEqual([4]);
    batches.at(-1)?.finish();
    batches[1]?.finish();
    expect(await Promise.all([...a, b])).toEqual([10, 20, 30, 40, 90]);
  });

  it('fails an item on its own Error, and every item of a turn whose run throws; the next turn still runs', async () => {
    const { batches, run } = recorder();
    let throwNext = false;
    const turns = turnBatches<number, number>({
      run: (key, items) => (throwNext ? Promise.reject(new Error('database gone')) : run(key, items)),
      maxBatch: 10,
    });
    const first = turns.submit('a', 1);
    const second = turns.submit('a', 2);
    const third = turns.submit('a', 3);
    batches[0]?.finish([new Error('conflict')]);
    await expect(first).rejects.toThrow('conflict');
    await tick();
    batches[1]?.finish([20, new Error('bad row')]);
    expect(await second).toBe(20);
    await expect(third).rejects.toThrow('bad row');
    throwNext = true;
    await expect(Promise.all([turns.submit('a', 4), turns.submit('a', 5)])).rejects.toThrow('database gone');
    throwNext = false;
    const later = turns.submit('a', 6);
    await tick();
    batches.at(-1)?.finish();
    expect(await later).toBe(60);
  });
});
