import { useQuery } from '@tanstack/react-query';
import { ThumbsDown, ThumbsUp } from 'lucide-react';
import { Badge } from '../ui/Badge';
import { satisfactionQuery } from './ticket-queries';

/** The requestor's answer to the satisfaction survey: Good or Bad, their comment and when; nothing until they answer. */
export function SatisfactionRating({ ticketId }: { ticketId: string }) {
  const survey = useQuery(satisfactionQuery(ticketId));
  const rated = survey.data;
  if (!rated?.rating || !rated.ratedAt) {
    return null;
  }
  const good = rated.rating === 'good';
  return (
    <section aria-label="Satisfaction" className="flex flex-col gap-2 border-b border-zinc-200 p-4 dark:border-zinc-800">
      <h2 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">Satisfaction</h2>
      <p className="flex items-center gap-2">
        <Badge tone={good ? 'green' : 'red'}>
          {good ? <ThumbsUp size={12} aria-hidden /> : <ThumbsDown size={12} aria-hidden />}
          {good ? 'Good' : 'Bad'}
        </Badge>
        <time dateTime={rated.ratedAt} className="text-xs text-zinc-500 dark:text-zinc-400">
          {new Date(rated.ratedAt).toLocaleString()}
        </time>
      </p>
      {rated.comment ? (
        <blockquote className="whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{rated.comment}</blockquote>
      ) : null}
      {rated.reopenedAt ? <p className="text-xs text-zinc-500 dark:text-zinc-400">The ticket was reopened since.</p> : null}
    </section>
  );
}
