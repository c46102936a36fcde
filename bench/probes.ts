import type { CollectionSet, DatasetMeta, DeepPage } from './datasets.js';
import type { HttpRequest } from './load.js';
import { api, type BenchServer } from './servers.js';

/**
 * What is measured: the same work asked of Switchboard (its real routes) and of the raw server
 * (which pages by keyset, given the sort keys of the row before the page as `after`).
 */
export interface Probe {
  name: string;
  switchboard: HttpRequest;
  raw: HttpRequest;
}

export type ListName = 'tickets' | 'comments' | 'customFields' | 'chatHistory';
export const LIST_NAMES: readonly ListName[] = ['tickets', 'comments', 'customFields', 'chatHistory'];

export const LIST_LABELS: Record<ListName, string> = {
  tickets: 'tickets list',
  comments: 'comments of a ticket',
  customFields: 'custom fields',
  chatHistory: 'chat history',
};

/** `first`: page 0; `deep page`: the last full page by `page`; `deep cursor`: the same page by cursor. */
export type ListVariant = 'first' | 'deep page' | 'deep cursor';

/**
 * A reply as agents write them: three paragraphs with blank lines between them, a link and a
 * mention, about 230 characters. A one-line body kept the content's conversion (paragraphs, links)
 * out of the measurement.
 */
export const COMMENT_BODY = {
  content:
    'Hi Dana, thanks for the detailed report.\n\n' +
    'I reproduced it on our side: the export stops at 10,000 rows. See https://docs.example.com/exports for the limit; ' +
    '@sam is raising it today.\n\n' +
    'I will update this ticket as soon as the fix ships.',
};

export function headlineProbes(meta: DatasetMeta): Probe[] {
  const get = (path: string): HttpRequest => ({ method: 'GET', path, apiKey: meta.apiKey, expect: 200 });
  const comment: HttpRequest = {
    method: 'POST',
    path: `/v1/tickets/${meta.writeTicketId}/comment`,
    apiKey: meta.apiKey,
    body: COMMENT_BODY,
    expect: 201,
  };
  return [
    { name: 'comment create', switchboard: comment, raw: comment },
    { name: 'ticket by id', switchboard: get(`/v1/tickets/${meta.readTicketId}`), raw: get(`/v1/tickets/${meta.readTicketId}`) },
  ];
}

/** Path and query of a list without paging parameters, on each server. */
function listBase(meta: DatasetMeta, list: ListName): { path: string; query: Record<string, string> } {
  switch (list) {
    case 'tickets':
      return { path: '/v1/tickets', query: { teamId: meta.teamId, limit: String(meta.deep.tickets.limit) } };
    case 'comments':
      return { path: `/v1/tickets/${meta.commentsTicketId}/comments`, query: { limit: String(meta.deep.comments.limit) } };
    case 'customFields':
      return { path: '/v1/custom-field', query: { limit: String(meta.deep.customFields.limit) } };
    case 'chatHistory':
      return { path: '/api/v1/chat/history', query: { limit: String(meta.deep.chatHistory.limit) } };
  }
}

function url(path: string, query: Record<string, string>): string {
  return `${path}?${new URLSearchParams(query).toString()}`;
}

/** base64url of a JSON array: the project's shared cursor format (src/lib/cursors.ts), also the raw server's `after`. */
export function jsonCursor(keys: readonly string[]): string {
  return Buffer.from(JSON.stringify(keys), 'utf8').toString('base64url');
}

export function listProbe(meta: DatasetMeta, list: ListName, variant: ListVariant, cursor?: string): Probe {
  const { path, query } = listBase(meta, list);
  const deep: DeepPage = meta.deep[list];
  const get = (target: string): HttpRequest => ({ method: 'GET', path: target, apiKey: meta.apiKey, expect: 200 });
  const raw = get(
    url(path, variant === 'first' || deep.afterKeys.length === 0 ? query : { ...query, after: jsonCursor(deep.afterKeys) }),
  );
  const switchboardQuery =
    variant === 'first'
      ? query
      : variant === 'deep page'
        ? { ...query, page: String(deep.page) }
        : { ...query, cursor: cursor ?? '' };
  return { name: `${LIST_LABELS[list]} ${variant}`, switchboard: get(url(path, switchboardQuery)), raw };
}

/** Lists that take `page`: the chat history only pages by cursor. */
export function pagedByNumber(list: ListName): boolean {
  return list !== 'chatHistory';
}

/**
 * The collections of one help center as Switchboard answers them: the whole list, or its first page
 * when the answer carries a `nextCursor`; the raw server then answers a page of the same size.
 */
export async function collectionProbe(set: CollectionSet, switchboard: BenchServer): Promise<Probe> {
  const path = url('/collections', { helpCenterId: set.helpCenterId });
  const get = (target: string): HttpRequest => ({ method: 'GET', path: target, apiKey: set.apiKey, expect: 200 });
  const answer = await api(switchboard, set.apiKey, 'GET', path);
  const items = itemsOf(answer);
  if (nextCursorOf(answer) === undefined || items === undefined) {
    return { name: `collections ${set.count} (whole list)`, switchboard: get(path), raw: get(path) };
  }
  return {
    name: `collections ${set.count} (first page of ${items.length})`,
    switchboard: get(path),
    raw: get(url('/collections', { helpCenterId: set.helpCenterId, limit: String(items.length) })),
  };
}

function itemsOf(body: unknown): Record<string, unknown>[] | undefined {
  const record = body as Record<string, unknown> | undefined;
  const data = record?.data as Record<string, unknown> | unknown[] | undefined;
  return (Array.isArray(data) ? data : (data?.items ?? record?.items)) as Record<string, unknown>[] | undefined;
}

/** The id of the first item of a list answer, whatever its envelope (`data`, `items`, `data.items`). */
export function firstItemId(body: unknown): string | undefined {
  const first = itemsOf(body)?.[0];
  return [first?.id, first?._id, first?.uid].find((id): id is string => typeof id === 'string');
}

/** `nextCursor` / `next_cursor` of a list answer, at the top or inside `data`, when the list offers one. */
export function nextCursorOf(body: unknown): string | undefined {
  const record = body as Record<string, unknown> | undefined;
  const data = record?.data as Record<string, unknown> | undefined;
  for (const holder of [record, Array.isArray(data) ? undefined : data]) {
    const cursor = holder?.nextCursor ?? holder?.next_cursor;
    if (typeof cursor === 'string' && cursor !== '') {
      return cursor;
    }
  }
  return undefined;
}

/**
 * A cursor that makes Switchboard answer the deep page, when it offers cursors: the `nextCursor`
 * of the page before, or the shared format built from the sort keys; for the chat history also its
 * own `at|id` form. Each candidate is checked to start where the raw server's deep page starts.
 */
export async function findDeepCursor(
  switchboard: BenchServer,
  raw: BenchServer,
  meta: DatasetMeta,
  list: ListName,
): Promise<{ cursor?: string; note: string }> {
  const { path, query } = listBase(meta, list);
  const deep = meta.deep[list];
  if (deep.afterKeys.length === 0) {
    return { note: 'one page only' };
  }
  const probe = listProbe(meta, list, 'first');
  const expected = firstItemId(await api(raw, meta.apiKey, 'GET', listProbe(meta, list, 'deep page').raw.path));
  const firstPage = await api(switchboard, meta.apiKey, 'GET', probe.switchboard.path);
  const candidates: string[] = [];
  if (pagedByNumber(list) && nextCursorOf(firstPage) !== undefined) {
    const before = await api(switchboard, meta.apiKey, 'GET', url(path, { ...query, page: String(deep.page - 1) }));
    const next = nextCursorOf(before);
    if (next) {
      candidates.push(next);
    }
  }
  if (nextCursorOf(firstPage) === undefined) {
    return { note: 'no nextCursor in the answer' };
  }
  candidates.push(jsonCursor(deep.afterKeys));
  if (list === 'chatHistory') {
    candidates.push(Buffer.from(deep.afterKeys.join('|'), 'utf8').toString('base64url'));
  }
  for (const cursor of candidates) {
    const answer = await api(switchboard, meta.apiKey, 'GET', url(path, { ...query, cursor }), undefined, [200, 400, 422]);
    if (expected !== undefined && firstItemId(answer) === expected) {
      return { cursor, note: 'ok' };
    }
  }
  return { note: 'no cursor found that reaches the deep page' };
}
