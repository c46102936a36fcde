import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PlatformEvent, Ticket, TicketComment } from '../api/types';
import { useMe } from '../auth/session';
import { useLiveEvents } from '../live/events';
import { ErrorNotice } from '../ui/ErrorNotice';
import { type Collision, CollisionBanner } from './CollisionBanner';
import { Composer } from './Composer';
import { Conversation } from './Conversation';
import { upsertComment } from './conversation';
import { RequestorPanel } from './RequestorPanel';
import { RoutingHistory } from './RoutingHistory';
import { slaEventsKey } from './SlaHistory';
import { SlaPanel } from './SlaPanel';
import { TicketHeader } from './TicketHeader';
import { useTicketChange } from './ticket-mutations';
import { activitiesQuery, commentsQuery, emailsQuery, satisfactionQuery, ticketQuery } from './ticket-queries';
import { useChatVisitor } from './use-chat-visitor';
import { VisitorTyping } from './VisitorTyping';

const FIELD_WORDS: Record<string, string> = {
  assignee: 'the assignee',
  isPrivate: 'the privacy',
  dueDate: 'the due date',
  customField: 'a field',
};

/** What another person's event did, in words for the collision warning. */
function describeEvent(event: PlatformEvent): string {
  if (event.type === 'comment.created') {
    return (event.data as TicketComment).commentVisibility === 'private' ? 'added an internal note' : 'commented';
  }
  if (event.type === 'comment.updated') {
    return 'edited a comment';
  }
  const fields = (event.changes ?? []).map((change) => FIELD_WORDS[change.field] ?? `the ${change.field}`);
  return fields.length > 0 ? `changed ${fields.join(', ')}` : 'changed the ticket';
}

/**
 * One ticket: its fields, conversation and composer, and who asked. Live: others' comments and
 * changes appear as they happen, and for a messenger chat whether the visitor is there and typing.
 */
export function TicketPage() {
  const { ticketId } = useParams({ from: '/signed-in/tickets/$ticketId' });
  const me = useMe();
  const queryClient = useQueryClient();
  const ticket = useQuery(ticketQuery(ticketId));
  const change = useTicketChange(ticketId);
  const chatVisitor = useChatVisitor(ticket.data, ticketId);
  const [showActivity, setShowActivity] = useState(false);
  const [collisions, setCollisions] = useState<Collision[]>([]);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [deletedBy, setDeletedBy] = useState<string | null>(null);
  const writing = useRef(false);
  const header = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (ticket.data) {
      document.title = `${ticket.data.ticketIdentifier} ${ticket.data.title} · Switchboard`;
    }
  }, [ticket.data]);

  const onDraftChange = useCallback((active: boolean) => {
    writing.current = active;
    if (!active) {
      setCollisions([]);
    }
  }, []);

  const warn = (event: PlatformEvent, commentId: string | null) => {
    if (!writing.current || event.actor.id === me.user.id) {
      return;
    }
    setCollisions((current) => [
      ...current,
      { key: event.id, actor: event.actor.name ?? 'Someone', what: describeEvent(event), commentId },
    ]);
  };

  useLiveEvents(
    (event) => {
      const shown = ticket.data;
      if (!shown) {
        return;
      }
      if (event.type === 'comment.created' || event.type === 'comment.updated') {
        const comment = event.data as TicketComment;
        if (comment?.ticketId !== shown.id) {
          return;
        }
        queryClient.setQueryData(commentsQuery(ticketId).queryKey, (list) => upsertComment(list, comment));
        void queryClient.invalidateQueries({ queryKey: emailsQuery(ticketId).queryKey });
        warn(event, comment.id);
        return;
      }
      if (event.type === 'satisfaction.rated') {
        if ((event.data as { ticketId?: string } | null)?.ticketId === shown.id) {
          void queryClient.invalidateQueries({ queryKey: satisfactionQuery(ticketId).queryKey });
        }
        return;
      }
      if (event.type === 'sla.warning' || event.type === 'sla.breached') {
        // The worker marked a target: the ticket's `sla` and its SLA history both changed.
        if ((event.data as { ticketId?: string } | null)?.ticketId === shown.id) {
          void queryClient.invalidateQueries({ queryKey: ['tickets', ticketId] });
        }
        return;
      }
      if (!event.type.startsWith('ticket.')) {
        return;
      }
      const changed = event.data as Ticket;
      if (changed?.id !== shown.id) {
        return;
      }
      if (event.type === 'ticket.deleted') {
        setDeletedBy(event.actor.name ?? 'Someone');
        return;
      }
      // While a change of ours is on its way, its answer sets the ticket; an event in between would flicker.
      if (change.isPending) {
        void queryClient.invalidateQueries({ queryKey: ticketQuery(ticketId).queryKey, exact: true });
      } else {
        queryClient.setQueryData(ticketQuery(ticketId).queryKey, changed);
      }
      void queryClient.invalidateQueries({ queryKey: activitiesQuery(ticketId).queryKey });
      void queryClient.invalidateQueries({ queryKey: slaEventsKey(ticketId) });
      warn(event, null);
    },
    () => void queryClient.invalidateQueries({ queryKey: ['tickets', ticketId] }),
  );

  const show = (collision: Collision) => {
    if (collision.commentId) {
      document.getElementById(`comment-${collision.commentId}`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      setHighlighted(collision.commentId);
    } else {
      header.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    }
    setCollisions([]);
  };

  if (!ticket.data) {
    return (
      <div className="h-full overflow-y-auto p-4">
        <ErrorNotice error={ticket.error} />
        {ticket.isPending ? <p className="text-sm text-zinc-500">Loading the ticket…</p> : null}
      </div>
    );
  }
  const data = ticket.data;
  return (
    <div className="h-full overflow-y-auto lg:grid lg:grid-cols-[minmax(0,1fr)_20rem] lg:overflow-hidden">
      <div className="flex min-w-0 flex-col lg:h-full lg:overflow-y-auto">
        <div ref={header}>
          <TicketHeader ticket={data} change={(next) => change.mutate(next)} error={change.error} />
        </div>
        {deletedBy ? (
          <p
            role="status"
            className="mx-4 mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {deletedBy} deleted this ticket.
          </p>
        ) : null}
        <div className="flex items-center justify-end px-4 pt-3">
          <label className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400">
            <input type="checkbox" checked={showActivity} onChange={(event) => setShowActivity(event.target.checked)} />
            Show activity
          </label>
        </div>
        <Conversation
          ticketKey={ticketId}
          description={data.description}
          showActivity={showActivity}
          highlightedId={highlighted}
        />
        <div className="flex flex-col gap-2 bg-white/90 px-4 pb-4 backdrop-blur lg:sticky lg:bottom-0 dark:bg-zinc-950/90">
          <CollisionBanner collisions={collisions} onShow={show} onDismiss={() => setCollisions([])} />
          {chatVisitor ? <VisitorTyping visitor={chatVisitor} /> : null}
          <Composer ticket={data} ticketKey={ticketId} me={me} onDraftChange={onDraftChange} />
        </div>
      </div>
      <div className="border-t border-zinc-200 lg:h-full lg:overflow-y-auto lg:border-t-0 lg:border-l dark:border-zinc-800">
        <RequestorPanel ticket={data} chatVisitor={chatVisitor} />
        <SlaPanel ticket={data} ticketKey={ticketId} />
        <RoutingHistory ticketId={data.id} />
      </div>
    </div>
  );
}
