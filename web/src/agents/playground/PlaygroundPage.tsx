import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { agentQuery } from '../studio-queries';
import { AgentTurnView } from './AgentTurnView';
import { usePlayground } from './use-playground';

/**
 * An agent's playground: a chat of its own with the agent as it is configured, the answer
 * streaming in with every tool call, approvals asked inline, and "Reset" for a new thread.
 */
export function PlaygroundPage() {
  const { agentId } = useParams({ from: '/signed-in/agents/$agentId/playground' });
  const agent = useQuery(agentQuery(agentId));
  const playground = usePlayground(agentId);
  const [message, setMessage] = useState('');
  const messageId = useId();

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const text = message.trim();
    if (!text || playground.busy) {
      return;
    }
    setMessage('');
    if (!(await playground.send(text))) {
      // Refused: the message is still the user's to send again.
      setMessage((current) => current || text);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <div className="flex h-full flex-col">
      <PageHeader
        title={agent.data ? `${agent.data.name}: playground` : 'Playground'}
        description="Talk to the agent as it is configured now: its tools run for real, as you."
        actions={
          <Button onClick={playground.reset} disabled={playground.turns.length === 0}>
            Reset
          </Button>
        }
      />
      <div className="flex min-h-0 flex-1 flex-col">
        <div className="min-h-0 flex-1 overflow-y-auto">
          <div className="mx-auto flex max-w-3xl flex-col gap-3 p-4">
            <Link to="/agents/$agentId" params={{ agentId }} className="text-sm text-blue-700 hover:underline dark:text-blue-400">
              ← Agent settings
            </Link>
            <ErrorNotice error={agent.error} />
            {playground.turns.length === 0 ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing said yet: ask the agent something.</p>
            ) : (
              <ol aria-label="Conversation" aria-live="polite" className="flex flex-col gap-3">
                {playground.turns.map((turn) =>
                  turn.kind === 'user' ? (
                    <li
                      key={turn.key}
                      aria-label="You"
                      className="self-end whitespace-pre-wrap break-words rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-950 dark:bg-blue-950 dark:text-blue-100"
                    >
                      {turn.text}
                    </li>
                  ) : (
                    <AgentTurnView key={turn.key} turn={turn} busy={playground.busy} onDecide={playground.decide} />
                  ),
                )}
              </ol>
            )}
          </div>
        </div>
        <form onSubmit={submit} className="border-t border-zinc-200 p-3 dark:border-zinc-800">
          <div className="mx-auto flex max-w-3xl flex-col gap-2">
            {playground.problem ? (
              <p role="alert" className="text-sm text-red-800 dark:text-red-300">
                {playground.problem}
              </p>
            ) : null}
            <div className="flex items-end gap-2">
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <label htmlFor={messageId} className="text-sm font-medium">
                  Message
                </label>
                <textarea
                  id={messageId}
                  rows={2}
                  value={message}
                  onChange={(event) => setMessage(event.target.value)}
                  onKeyDown={onKeyDown}
                  className="resize-y rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
                />
              </div>
              <Button type="submit" variant="primary" disabled={playground.busy || message.trim() === ''}>
                {playground.busy ? 'Sending…' : 'Send'}
              </Button>
            </div>
          </div>
        </form>
      </div>
    </div>
  );
}
