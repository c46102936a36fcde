import { Link } from '@tanstack/react-router';
import { FilePlus } from 'lucide-react';
import { useId } from 'react';
import type { KnowledgeGap } from '../../api/agent-studio-client';
import { DateTime } from '../../ui/DateTime';
import { newArticleHref } from './gap-queries';

/** One group of like questions: how often it was asked, its newest ticket, and the article to write for it. */
export function GapItem({ gap, helpCenterId }: { gap: KnowledgeGap; helpCenterId: string | null }) {
  const questionId = useId();
  const ticket = gap.newest.ticket;
  return (
    <li className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={questionId} className="min-w-0 font-medium break-words">
          {gap.question}
        </h2>
        {helpCenterId ? (
          <a
            href={newArticleHref(helpCenterId, gap.question)}
            aria-describedby={questionId}
            className="inline-flex shrink-0 items-center gap-1.5 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700"
          >
            <FilePlus size={14} aria-hidden /> Write an article
          </a>
        ) : null}
      </div>
      <p className="flex flex-wrap gap-x-3 text-sm text-zinc-600 dark:text-zinc-400">
        <span>{gap.count === 1 ? 'Asked once' : `Asked ${gap.count} times`}</span>
        <span>
          {'Newest: '}
          {ticket.identifier ? (
            <Link to="/tickets/$ticketId" params={{ ticketId: ticket.id }} className="text-blue-700 underline dark:text-blue-400">
              {`${ticket.identifier}${ticket.title ? ` ${ticket.title}` : ''}`}
            </Link>
          ) : (
            'a deleted ticket'
          )}
          {', '}
          <DateTime value={gap.newest.handed_off_at} />
        </span>
      </p>
    </li>
  );
}
