import { describe, expect, it } from 'vitest';
import { createByteBudget } from './smtp-spool.js';

describe('the byte budget of messages read at once', () => {
  it('lets messages in while they fit, the rest in their order as bytes come back; a larger one alone', async () => {
    const budget = createByteBudget(100);
    const started: string[] = [];
    const start = (name: string, bytes: number) => budget.acquire(bytes).then(() => started.push(name));
    await start('a', 60);
    await start('b', 40);
    const waiting = [start('c', 30), start('d', 150), start('e', 10)];
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    budget.release(60);
    await new Promise((resolve) => setImmediate(resolve));
    // c fits; d, larger than the whole budget, waits until nothing is read, and e waits behind it.
    expect(started).toEqual(['a', 'b', 'c']);
    budget.release(40);
    budget.release(30);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    budget.release(150);
    await Promise.all(waiting);
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
