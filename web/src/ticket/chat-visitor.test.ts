import { describe, expect, it } from 'vitest';
import { hasMailbox } from '../api/ticket-source';
import {
  agoInWords,
  type ChatVisitorState,
  mergeVisitorState,
  msUntilPresenceChanges,
  PRESENCE_STALE_MS,
  presenceAt,
  replyDestination,
  stopTyping,
  TYPING_SHOWN_MS,
  visitorStateOf,
} from './chat-visitor';

const TICKET = '01J000000000000000000CHAT1';
/** The server's clock. */
const server = (seconds: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + seconds * 1000).toISOString();
/** This browser's clock: two minutes ahead of the server's, as a badly set laptop may be. */
const BROWSER_AHEAD_MS = 120_000;
const browser = (seconds: number) => Date.parse(server(seconds)) + BROWSER_AHEAD_MS;

const report = (overrides: Partial<{ online: boolean; typing: boolean; lastSeenAt: string }> = {}) => ({
  ticketId: TICKET,
  online: true,
  typing: false,
  lastSeenAt: server(0),
  ...overrides,
});

describe("a chat visitor's presence", () => {
  it("ages the last sighting by the server's own clock, whatever the browser's says", () => {
    // Seen 10 s before the server answered; the answer arrived when the browser read 20 s.
    const state = visitorStateOf(report({ lastSeenAt: server(10) }), server(20), browser(20));
    expect(state.seenAt).toBe(browser(10));
    expect(presenceAt(state, browser(20))).toEqual({ online: true, typing: false });
    // Silent for a minute after the sighting: shown as gone, though no report said so.
    expect(presenceAt(state, browser(10) + PRESENCE_STALE_MS - 1)).toEqual({ online: true, typing: false });
    expect(presenceAt(state, browser(10) + PRESENCE_STALE_MS)).toEqual({ online: false, leftAgoMs: PRESENCE_STALE_MS });
  });

  it('shows an offline report as left, counted from the last sighting', () => {
    const state = visitorStateOf(report({ online: false, lastSeenAt: server(0) }), server(45), browser(45));
    expect(presenceAt(state, browser(300))).toEqual({ online: false, leftAgoMs: 300_000 });
  });

  it('shows typing for a few seconds after the last report, and never for a visitor gone', () => {
    const typing = visitorStateOf(report({ typing: true }), server(5), browser(5));
    expect(presenceAt(typing, browser(5) + TYPING_SHOWN_MS - 1)).toEqual({ online: true, typing: true });
    expect(presenceAt(typing, browser(5) + TYPING_SHOWN_MS)).toEqual({ online: true, typing: false });
    const goneWhileTyping = mergeVisitorState(typing, visitorStateOf(report({ online: false }), server(6), browser(6)));
    expect(presenceAt(goneWhileTyping, browser(7))).toEqual({ online: false, leftAgoMs: 7000 });
  });

  it('stops typing when the visitor sends their message, and leaves a state without typing as it is', () => {
    const typing = visitorStateOf(report({ typing: true }), server(5), browser(5));
    expect(presenceAt(stopTyping(typing) as ChatVisitorState, browser(6))).toEqual({ online: true, typing: false });
    const quiet = visitorStateOf(report(), server(5), browser(5));
    expect(stopTyping(quiet)).toBe(quiet);
    expect(stopTyping(undefined)).toBeUndefined();
  });

  it('keeps the newer report when an answer asked for earlier arrives after a live event', () => {
    const typing = visitorStateOf(report({ typing: true, lastSeenAt: server(8) }), server(10), browser(10));
    const olderAnswer = visitorStateOf(report({ online: false, lastSeenAt: server(0) }), server(9), browser(11));
    expect(mergeVisitorState(typing, olderAnswer)).toBe(typing);
    // A newer presence report while typing shows: the typing runs its time.
    const stillThere = visitorStateOf(report({ lastSeenAt: server(11) }), server(11), browser(11));
    expect(mergeVisitorState(typing, stillThere).typingUntil).toBe(typing.typingUntil);
    // Another ticket's state is replaced, not merged.
    const other = { ...stillThere, ticketId: '01J000000000000000000CHAT2' };
    expect(mergeVisitorState(typing, other)).toBe(other);
    expect(mergeVisitorState(undefined, other)).toBe(other);
  });

  it('reads a sighting in the future (a clock the report disagrees with) as just now, and a broken date as now', () => {
    const ahead = visitorStateOf(report({ lastSeenAt: server(30) }), server(20), browser(20));
    expect(ahead.seenAt).toBe(browser(20));
    const broken = visitorStateOf(report({ lastSeenAt: 'yesterday' }), server(20), browser(20));
    expect(broken.seenAt).toBe(browser(20));
  });

  it('asks to be drawn again when typing ends, when silence turns into "left", and as the minutes pass', () => {
    const typing = visitorStateOf(report({ typing: true }), server(0), browser(0));
    expect(msUntilPresenceChanges(typing, browser(1))).toBe(TYPING_SHOWN_MS - 1000);
    const quiet = visitorStateOf(report(), server(0), browser(0));
    expect(msUntilPresenceChanges(quiet, browser(50))).toBe(10_000);
    const gone = visitorStateOf(report({ online: false }), server(0), browser(0));
    expect(msUntilPresenceChanges(gone, browser(90))).toBe(30_000);
    // Never a busy loop, even at the very moment of a change.
    expect(msUntilPresenceChanges(gone, browser(60))).toBeGreaterThanOrEqual(100);
  });

  it('says how long ago in words', () => {
    expect(agoInWords(0)).toBe('just now');
    expect(agoInWords(59_999)).toBe('just now');
    expect(agoInWords(5 * 60_000)).toBe('5 min ago');
    expect(agoInWords(3 * 3_600_000 + 59 * 60_000)).toBe('3 h ago');
    expect(agoInWords(24 * 3_600_000)).toBe('1 day ago');
    expect(agoInWords(50 * 3_600_000)).toBe('2 days ago');
  });
});

describe('where a reply goes', () => {
  it('to the chat for a messenger ticket, by email only once the visitor has left and only to a real address', () => {
    expect(replyDestination({ source: null, requestorEmail: 'ann@customer.test' })).toBe('Emailed to ann@customer.test.');
    expect(replyDestination({ source: 'email', requestorEmail: 'ann@customer.test' })).toBe('Emailed to ann@customer.test.');
    expect(replyDestination({ source: 'chat', requestorEmail: 'ann@customer.test' })).toBe(
      'Sent to the chat; emailed to ann@customer.test if the visitor has left.',
    );
    expect(replyDestination({ source: 'chat', requestorEmail: 'visitor-01j@messenger.invalid' })).toBe('Sent to the chat.');
  });

  it('knows an address in .invalid reaches no one', () => {
    expect(hasMailbox('visitor-01j@messenger.invalid')).toBe(false);
    expect(hasMailbox('VISITOR@MESSENGER.INVALID ')).toBe(false);
    expect(hasMailbox('ann@customer.test')).toBe(true);
    expect(hasMailbox('ann@invalid.example')).toBe(true);
  });
});
