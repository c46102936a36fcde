import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

type Headers = Record<string, string>;

/** One page of a platform list as a client reads it: the items and the cursor of the next page. */
export type PageReader = (response: LightMyRequestResponse) => { items: { [key: string]: unknown }[]; nextCursor: string | null };

/** Lists in an envelope: `data` is the page, `nextCursor` sits beside it. */
export const envelopePage: PageReader = (response) => {
  const body = response.json();
  return { items: body.data, nextCursor: body.nextCursor };
};

/** Lists answered as a bare array: the next cursor is the `x-next-cursor` header, absent on the last page. */
export const bareArrayPage: PageReader = (response) => {
  const header = response.headers['x-next-cursor'];
  return { items: response.json(), nextCursor: typeof header === 'string' ? header : null };
};

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

/** Every page of a list, following `nextCursor` from the first page until it is null. */
export async function walkPages(
  app: FastifyInstance,
  url: string,
  headers: Headers,
  read: PageReader,
): Promise<{ [key: string]: unknown }[][]> {
  const pages: { [key: string]: unknown }[][] = [];
  let cursor: string | null = null;
  do {
    const response = await app.inject({ url: cursor === null ? url : withQuery(url, `cursor=${cursor}`), headers });
    expect(response.statusCode, response.body).toBe(200);
    const page = read(response);
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length <= 100);
  return pages;
}

export interface ListUnderTest {
  app: FastifyInstance;
  /** The list's URL with its filters and `limit=10`; the 25 rows of `expected` match it. */
  url: string;
  headers: Headers;
  read: PageReader;
  /** The ids of the caller's rows matching `url`, in the list's order. */
  expected: string[];
  /** How a row of this list names its id. */
  idOf?: (row: { [key: string]: unknown }) => unknown;
  /** Whether the list has always taken `page` (0-based), which must keep working beside `cursor`. */
  pageNumbers: boolean;
  /** Another organization calling the same list (the same URL, its own ids), whose rows must stay apart. */
  other: { url: string; headers: Headers; ids: string[] };
}

/**
 * The shared contract of a keyset-paged list, checked through HTTP: the cursor walk returns every
 * row once in order (25 rows, 10 a page: 3 pages, the last without a next cursor); `page` gives
 * the same pages and a cursor too; a cursor that the list did not hand out is a 400 naming
 * cursor, as is a cursor sent with a page; another organization never sees the caller's rows,
 * not even through the caller's cursor.
 */
export async function expectCursorPagedList(list: ListUnderTest): Promise<void> {
  const idOf = list.idOf ?? ((row) => row.id);
  expect(list.expected).toHaveLength(25);
  const pages = await walkPages(list.app, list.url, list.headers, list.read);
  expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
  expect(pages.flat().map(idOf)).toEqual(list.expected);

  const get = (url: string, headers = list.headers) => list.app.inject({ url, headers });
  if (list.pageNumbers) {
    for (const [page, ids] of pages.entries()) {
      const response = await get(withQuery(list.url, `page=${page}`));
      expect(response.statusCode, response.body).toBe(200);
      const read = list.read(response);
      expect(read.items.map(idOf)).toEqual(ids.map(idOf));
      expect(read.nextCursor === null).toBe(page === pages.length - 1);
    }
    // A client can switch to cursors from any numbered page.
    const second = list.read(await get(withQuery(list.url, 'page=1')));
    const third = list.read(await get(withQuery(list.url, `cursor=${second.nextCursor}`)));
    expect(third.items.map(idOf)).toEqual(list.expected.slice(20));

    const first = list.read(await get(list.url));
    const combined = await get(withQuery(list.url, `page=0&cursor=${first.nextCursor}`));
    expect(combined.statusCode).toBe(400);
    expect(combined.json().message).toContain('cursor and page cannot be combined');
  }

  for (const garbage of ['not-a-cursor', Buffer.from('["only one key"]').toString('base64url'), 'a%20b']) {
    const response = await get(withQuery(list.url, `cursor=${garbage}`));
    expect(response.statusCode, garbage).toBe(400);
    expect(response.json().message).toMatch(/cursor/);
  }

  const otherPages = await walkPages(list.app, list.other.url, list.other.headers, list.read);
  const otherIds = otherPages.flat().map(idOf);
  expect(otherIds.length).toBeGreaterThan(0);
  expect(otherIds.every((id) => list.other.ids.includes(id as string))).toBe(true);
  expect(list.expected.some((id) => otherIds.includes(id))).toBe(false);

  // The caller's cursor, replayed by the other organization: only its own rows, if any.
  const cursor = list.read(await get(list.url)).nextCursor;
  const replayed = await get(withQuery(list.other.url, `cursor=${cursor}`), list.other.headers);
  expect([200, 404]).toContain(replayed.statusCode);
  if (replayed.statusCode === 200) {
    const ids = list.read(replayed).items.map(idOf);
    expect(ids.every((id) => list.other.ids.includes(id as string))).toBe(true);
  }
}

/** Ids as a list orders its rows: by a time (usually the creation time), then by id; both descending with `desc`. */
export function idsInOrder(rows: { id: string; at: string }[], direction: 'asc' | 'desc' = 'asc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows].sort((a, b) => sign * (compare(a.at, b.at) || compare(a.id, b.id))).map((row) => row.id);
}
