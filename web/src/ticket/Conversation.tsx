import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { TicketComment, TicketEmail } from '../api/types';
import { ErrorNotice } from '../ui/ErrorNotice';
import { ActivityItem } from './ActivityItem';
import { CommentItem } from './CommentItem';
import { buildConversation } from './conversation';
import { activitiesQuery, commentsQuery, emailsQuery } from './ticket-queries';

/** The ticket's threads in order, with the timeline between them when `showActivity`. */
export function Conversation({
  ticketKey,
  description,
  showActivity,
  highlightedId,
}: {
  ticketKey: string;
  description: string | null;
  showActivity: boolean;
  highlightedId: string | null;
}) {
  const comments = useQuery(commentsQuery(ticketKey));
  const emails = useQuery(emailsQuery(ticketKey));
  const activities = useQuery({ ...activitiesQuery(ticketKey), enabled: showActivity });
  const emailByComment = useMemo(() => {
    const map = new Map<string, TicketEmail>();
    for (const email of emails.data ?? []) {
      if (email.commentId) {
        map.set(email.commentId, email);
      }
    }
    return map;
  }, [emails.data]);
  const items = useMemo(
    () =>
      buildConversation<TicketComment, NonNullable<typeof activities.data>[number]>(
        comments.data ?? [],
        showActivity ? (activities.data ?? []) : null,
      ),
    [comments.data, activities.data, showActivity],
  );
  return (
    <section aria-label="Conversation" className="flex flex-col gap-3 p-4">
      {description ? (
        <div className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
          <p className="mb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400">Description</p>
          <p className="whitespace-pre-wrap text-sm">{description}</p>
        </div>
      ) : null}
      <ErrorNotice error={comments.error ?? (showActivity ? activities.error : null)} />
      {comments.isPending ? <p className="text-sm text-zinc-500">Loading the conversation…</p> : null}
      {comments.data && comments.data.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No comments yet.</p>
      ) : null}
      <ol className="flex flex-col gap-3">
        {items.map((item) =>
          item.kind === 'activity' ? (
            <li key={item.key}>
              <ActivityItem activity={item.activity} />
            </li>
          ) : (
            <li key={item.key} className="flex flex-col gap-2">
              <CommentItem
                comment={item.root}
                email={emailByComment.get(item.root.id)}
                highlighted={highlightedId === item.root.id}
              />
              {item.replies.length > 0 ? (
                <ol
                  aria-label="Replies"
                  className="ml-4 flex flex-col gap-2 border-l-2 border-zinc-200 pl-3 sm:ml-8 dark:border-zinc-800"
                >
                  {item.replies.map((reply) => (
                    <li key={reply.id}>
                      <CommentItem
                        comment={reply}
                        email={emailByComment.get(reply.id)}
                        highlighted={highlightedId === reply.id}
                      />
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ),
        )}
      </ol>
    </section>
  );
}
