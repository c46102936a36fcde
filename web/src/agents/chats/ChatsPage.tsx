import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { DateTime } from '../../ui/DateTime';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { EmptyNote } from '../runs/EmptyNote';
import { agentsQuery } from '../studio-queries';
import { type HistoryThread, historyKey, historyPage, threadTitle } from './chat-queries';

/** The signed-in user's chats with the agents, latest first, searched by title and message text; each opens read-only. */
export function ChatsPage() {
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed.trim());
  const chats = useCursorPages(historyKey(search), (cursor) => historyPage(search, cursor));
  const agents = useQuery(agentsQuery);
  const agentNames = new Map((agents.data ?? []).map((agent) => [agent.id, agent.name]));
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader title="Chat history" description="Your conversations with the AI agents, latest first." />
      <div className="mx-auto flex max-w-4xl flex-col gap-4 p-4">
        <Link to="/agents" className="text-sm text-blue-700 hover:underline dark:text-blue-400">
          ← AI agents
        </Link>
        <search className="relative">
          <Search size={14} aria-hidden className="absolute top-1/2 left-2.5 -translate-y-1/2 text-zinc-500" />
          <input
            type="search"
            aria-label="Search chats"
            placeholder="Search titles and messages"
            value={typed}
            maxLength={200}
            onChange={(event) => setTyped(event.target.value)}
            className="w-full rounded-md border border-zinc-300 bg-white py-1.5 pr-2 pl-8 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
        </search>
        <ErrorNotice error={chats.error} />
        {!chats.isPending && !chats.error && chats.items.length === 0 ? (
          search ? (
            <EmptyNote title="No chats match">{`None of your chats has “${search}” in its title or messages. Try other words.`}</EmptyNote>
          ) : (
            <EmptyNote title="No chats yet">
              Conversations you have with an agent, through the API or an integration, are listed here to read again.
            </EmptyNote>
          )
        ) : chats.items.length > 0 ? (
          <ul
            aria-label="Chats"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {chats.items.map((thread) => (
              <ChatRow key={thread.id} thread={thread} agentName={agentNames.get(thread.agent_id)} />
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={chats.hasMore} loading={chats.loadingMore} onLoadMore={() => void chats.loadMore()} />
      </div>
    </div>
  );
}

function ChatRow({ thread, agentName }: { thread: HistoryThread; agentName: string | undefined }) {
  const count = thread.messages.length;
  return (
    <li className="flex flex-col gap-1 px-3 py-2 hover:bg-zinc-50 dark:hover:bg-zinc-900">
      <Link
        to="/agents/chats/$agentId/$threadId"
        params={{ agentId: thread.agent_id, threadId: thread.id }}
        className="truncate font-medium text-blue-700 hover:underline dark:text-blue-400"
      >
        {threadTitle(thread)}
      </Link>
      <p className="flex flex-wrap gap-x-3 text-sm text-zinc-600 dark:text-zinc-400">
        <span>{agentName ?? 'An agent'}</span>
        <span>{`${count} ${count === 1 ? 'message' : 'messages'}`}</span>
        <DateTime value={thread.last_activity_at} />
      </p>
    </li>
  );
}
