import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { DateTime } from '../../ui/DateTime';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { agentQuery } from '../studio-queries';
import { threadQuery, threadTitle } from './chat-queries';

type Message = NonNullable<ReturnType<typeof useThread>['data']>['messages'][number];

const useThread = (agentId: string, threadId: string) => useQuery(threadQuery(agentId, threadId));

const ROLES: Record<Message['role'], string> = { user: 'You', assistant: 'Agent', system: 'System', tool: 'Tool' };

/** One chat, read-only: every message in order, with the tools the agent called. */
export function ChatPage() {
  const { agentId, threadId } = useParams({ from: '/signed-in/agents/chats/$agentId/$threadId' });
  const thread = useThread(agentId, threadId);
  const agent = useQuery(agentQuery(agentId));
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader
        title={thread.data ? threadTitle(thread.data) : 'Chat'}
        description={`A conversation with ${agent.data?.name ?? 'an agent'}, read-only.`}
      />
      <div className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
        <Link to="/agents/chats" className="text-sm text-blue-700 hover:underline dark:text-blue-400">
          ← Chat history
        </Link>
        <ErrorNotice error={thread.error} />
        {thread.data?.messages.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">This chat has no messages yet.</p>
        ) : null}
        <ol aria-label="Messages" className="flex flex-col gap-3">
          {(thread.data?.messages ?? []).map((message) => (
            <MessageItem key={message.id} message={message} />
          ))}
        </ol>
      </div>
    </div>
  );
}

function MessageItem({ message }: { message: Message }) {
  const mine = message.role === 'user';
  return (
    <li
      className={`flex flex-col gap-1 rounded-md border p-3 text-sm ${
        mine ? 'border-blue-200 bg-blue-50 dark:border-blue-900 dark:bg-blue-950' : 'border-zinc-200 dark:border-zinc-800'
      }`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="font-medium">{ROLES[message.role]}</span>
        <DateTime value={message.created_at} />
      </div>
      {message.content ? <p className="whitespace-pre-wrap">{message.content}</p> : null}
      {message.tool_calls.length > 0 ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {`Tools called: ${message.tool_calls.map((call) => call.tool_name).join(', ')}`}
        </p>
      ) : null}
    </li>
  );
}
