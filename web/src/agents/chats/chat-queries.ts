import { queryOptions } from '@tanstack/react-query';
import { studio, unwrapStudio } from '../../api/agent-studio-client';
import type { CursorPage } from '../../ui/use-cursor-pages';

const CHATS_KEY = ['agent-studio', 'chats'] as const;
const PAGE = 20;

export const historyKey = (search: string) => [...CHATS_KEY, 'history', search];

/** A page of the signed-in user's chats (contract endpoint 17), latest first, those holding `search` when given. */
export async function historyPage(search: string, cursor: string | undefined) {
  const answer = await unwrapStudio(
    studio.GET('/api/v1/chat/history', {
      params: { query: { limit: PAGE, ...(search ? { q: search } : {}), ...(cursor ? { cursor } : {}) } },
    }),
  );
  return { data: answer.items, nextCursor: answer.next_cursor } satisfies CursorPage<unknown>;
}

/** A thread of the chat history, with its messages. */
export type HistoryThread = Awaited<ReturnType<typeof historyPage>>['data'][number];

export const threadQuery = (agentId: string, threadId: string) =>
  queryOptions({
    queryKey: [...CHATS_KEY, agentId, threadId],
    queryFn: () =>
      unwrapStudio(
        studio.GET('/api/v1/chat/{agent_id}/threads/{thread_id}', {
          params: { path: { agent_id: agentId, thread_id: threadId } },
        }),
      ),
  });

/** A thread's title, or its first message when it has none. */
export function threadTitle(thread: { title: string | null; messages: { role: string; content: string }[] }): string {
  const title = thread.title?.trim();
  if (title) {
    return title;
  }
  const first = thread.messages.find((message) => message.role === 'user')?.content.trim();
  return first ? (first.length > 80 ? `${first.slice(0, 80)}…` : first) : 'Untitled chat';
}
