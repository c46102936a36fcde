import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isChatTicket } from '../api/ticket-source';
import type { Ticket, TicketComment } from '../api/types';
import { useLiveEvents } from '../live/events';
import {
  type ChatPresence,
  type ChatVisitorReport,
  mergeVisitorState,
  msUntilPresenceChanges,
  presenceAt,
  stopTyping,
  visitorStateOf,
} from './chat-visitor';
import { chatVisitorQuery } from './ticket-queries';

export interface ChatVisitorView {
  /** Null until the first answer. */
  presence: ChatPresence | null;
  error: unknown;
}

/**
 * A chat ticket's visitor as the page shows them now (null for other tickets): read on load and
 * every little while, patched by the live events of this ticket, and re-rendered by a timer when
 * what shows changes with time alone (typing ends, silence turns into "left").
 */
export function useChatVisitor(ticket: Ticket | undefined, ticketKey: string): ChatVisitorView | null {
  const chat = ticket !== undefined && isChatTicket(ticket);
  const queryClient = useQueryClient();
  const query = useQuery({ ...chatVisitorQuery(ticketKey), enabled: chat });
  const key = chatVisitorQuery(ticketKey).queryKey;

  useLiveEvents((event) => {
    if (!chat) {
      return;
    }
    if (event.type === 'chat.visitor_presence' || event.type === 'chat.visitor_typing') {
      const report = event.data as ChatVisitorReport;
      if (report?.ticketId !== ticket?.id) {
        return;
      }
      const next = visitorStateOf(report, event.occurredAt, Date.now());
      queryClient.setQueryData(key, (current) => mergeVisitorState(current, next));
      return;
    }
    if (event.type === 'comment.created') {
      const comment = event.data as TicketComment;
      if (comment?.ticketId === ticket?.id && comment.authorUserType === 'CUSTOMER') {
        queryClient.setQueryData(key, stopTyping);
      }
    }
  });

  const now = useClock(query.data ? (at) => msUntilPresenceChanges(query.data, at) : null);
  if (!chat) {
    return null;
  }
  return { presence: query.data ? presenceAt(query.data, now) : null, error: query.error };
}

/** The time of this render, with a render due when `nextChangeIn` says what is shown changes. */
function useClock(nextChangeIn: ((now: number) => number) | null): number {
  const [tick, setTick] = useState(0);
  const now = Date.now();
  const delay = nextChangeIn ? nextChangeIn(now) : null;
  useEffect(() => {
    if (delay === null) {
      return;
    }
    const timer = setTimeout(() => setTick(tick + 1), delay);
    return () => clearTimeout(timer);
  }, [delay, tick]);
  return now;
}
