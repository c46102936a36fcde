import { hasMailbox, isChatTicket } from '../api/ticket-source';
import type { Ticket } from '../api/types';

/**
 * Whether a chat ticket's visitor is in the messenger and typing, as the ticket page shows it.
 * Reports come from `GET /v1/tickets/{id}/chat-visitor` and the live `chat.visitor_presence` and
 * `chat.visitor_typing` events. Times the server gives are turned into this browser's clock at
 * receipt (by the server's own "now" of the report), so a tab whose clock is off still ages them right.
 */

/** A visitor the console has not heard from for this long is shown as gone, whatever the last report said. */
export const PRESENCE_STALE_MS = 60_000;
/** Typing is shown this long after the last report (the server sends one every 3 s at most while the visitor types). */
export const TYPING_SHOWN_MS = 6_000;

/** A report as the API gives it (the answer's `data`, or an event's `data`). */
export interface ChatVisitorReport {
  ticketId: string;
  online: boolean;
  lastSeenAt: string;
  typing: boolean;
}

export interface ChatVisitorState {
  ticketId: string;
  online: boolean;
  /** When the visitor was last seen, in this browser's clock (ms). */
  seenAt: number;
  /** Until when "typing" shows, in this browser's clock (ms); 0 when not typing. */
  typingUntil: number;
  /** The server's time of the report this state comes from: an older report never replaces it. */
  reportedAt: string;
}

/**
 * A report received at `receivedAt` (this browser's clock) that the server made at `reportedAt`
 * (the answer's `timestamp`, an event's `occurredAt`).
 */
export function visitorStateOf(report: ChatVisitorReport, reportedAt: string, receivedAt: number): ChatVisitorState {
  const ageAtReport = Math.max(0, Date.parse(reportedAt) - Date.parse(report.lastSeenAt));
  return {
    ticketId: report.ticketId,
    online: report.online,
    seenAt: receivedAt - (Number.isFinite(ageAtReport) ? ageAtReport : 0),
    typingUntil: report.typing ? receivedAt + TYPING_SHOWN_MS : 0,
    reportedAt,
  };
}

/** The newer of what is shown and a new report (reports can cross: an answer asked for before a live event). */
export function mergeVisitorState(current: ChatVisitorState | undefined, next: ChatVisitorState): ChatVisitorState {
  if (!current || current.ticketId !== next.ticketId) {
    return next;
  }
  if (Date.parse(next.reportedAt) < Date.parse(current.reportedAt)) {
    return current;
  }
  // A presence report says nothing of typing while the visitor stays: typing already shown runs its time.
  const typingUntil = next.online ? Math.max(next.typingUntil, current.typingUntil) : 0;
  return { ...next, typingUntil };
}

/** The visitor sent their message: whatever they were typing has arrived. */
export function stopTyping(current: ChatVisitorState | undefined): ChatVisitorState | undefined {
  return current && current.typingUntil !== 0 ? { ...current, typingUntil: 0 } : current;
}

export type ChatPresence = { online: true; typing: boolean } | { online: false; leftAgoMs: number };

/** What the page shows at `now`: online (and typing) while the last word is fresh, else how long ago they left. */
export function presenceAt(state: ChatVisitorState, now: number): ChatPresence {
  const quietFor = Math.max(0, now - state.seenAt);
  if (state.online && quietFor < PRESENCE_STALE_MS) {
    return { online: true, typing: now < state.typingUntil };
  }
  return { online: false, leftAgoMs: quietFor };
}

/** When what `presenceAt` shows changes next: typing ends, the visitor turns stale, or the "ago" moves on. */
export function msUntilPresenceChanges(state: ChatVisitorState, now: number): number {
  const moments = [state.typingUntil, state.online ? state.seenAt + PRESENCE_STALE_MS : 0].filter((at) => at > now);
  const nextMinute = 60_000 - (Math.max(0, now - state.seenAt) % 60_000);
  return Math.max(100, Math.min(nextMinute, ...moments.map((at) => at - now)));
}

/** "just now", "5 min ago", "3 h ago", "2 days ago": how long ago the visitor left, in words. */
export function agoInWords(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) {
    return 'just now';
  }
  if (minutes < 60) {
    return `${minutes} min ago`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return `${hours} h ago`;
  }
  const days = Math.floor(hours / 24);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** Where a public reply goes, in the words below the composer: the chat for a messenger ticket (email only once the visitor has gone). */
export function replyDestination(ticket: Pick<Ticket, 'source' | 'requestorEmail'>): string {
  if (!isChatTicket(ticket)) {
    return `Emailed to ${ticket.requestorEmail}.`;
  }
  return hasMailbox(ticket.requestorEmail)
    ? `Sent to the chat; emailed to ${ticket.requestorEmail} if the visitor has left.`
    : 'Sent to the chat.';
}
