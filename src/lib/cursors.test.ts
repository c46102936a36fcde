import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, keysetPage } from './cursors.js';

describe('keyset cursors', () => {
  it('round-trips strings, numbers and null', () => {
    const keys = ['2026-01-15T09:00:00.000Z', 42, null, 'é|"x"'];
    expect(decodeCursor(encodeCursor(keys), 4)).toEqual(keys);
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['not an array', Buffer.from('{"a":1}').toString('base64url')],
    ['the wrong number of keys', encodeCursor(['a'])],
    ['a key of another type', Buffer.from('[{"a":1},"x"]').toString('base64url')],
    ['empty', ''],
    ['too long', 'a'.repeat(3000)],
  ])('refuses a cursor that is %s', (_, cursor) => {
    expect(decodeCursor(cursor, 2)).toBeNull();
  });

  it('a page of limit + 1 rows has a next cursor holding the last shown row', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `id${n}`, at: n }));
    const page = keysetPage(rows, 2, (row) => [row.at, row.id]);
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(page.nextCursor ?? '', 2)).toEqual([2, 'id2']);
    expect(keysetPage(rows.slice(0, 2), 2, (row) => [row.at, row.id]).nextCursor).toBeNull();
  });
});
