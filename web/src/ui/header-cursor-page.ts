import { ApiError, messageOf } from '../api/client';
import type { CursorPage } from './use-cursor-pages';

const NEXT_CURSOR_HEADER = 'x-next-cursor';

/**
 * A page of a list the API answers as a bare array, with the next page's cursor in the
 * `x-next-cursor` header (accounts, contacts, notes): as `useCursorPages` takes it.
 */
export async function headerCursorPage<Item>(
  call: Promise<{ data?: Item[]; error?: unknown; response: Response }>,
): Promise<CursorPage<Item>> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch (error) {
    throw new ApiError(0, `The server could not be reached (${error instanceof Error ? error.message : String(error)})`);
  }
  if (result.error !== undefined || !result.response.ok || !result.data) {
    throw new ApiError(result.response.status, messageOf(result.error, result.response));
  }
  return { data: result.data, nextCursor: result.response.headers.get(NEXT_CURSOR_HEADER) };
}
