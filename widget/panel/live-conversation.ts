import { ApiError, type Conversation, type ConversationMessage, type MessengerClient } from './messenger-client.js';

/** A message as the panel shows it: `key` stays the same when the visitor's own message comes back as stored. */
export interface ShownMessage extends ConversationMessage {
  key: string;
}

export const shown = (message: ConversationMessage, key = message.id): ShownMessage => ({ ...message, key });

/**
 * Whether a message is the visitor's, shown before the server answered with it stored (once stored it
 * keeps its local key, but takes the server's id).
 */
export const isPending = (message: ShownMessage) => message.key.startsWith('local-') && message.id === message.key;

/** A message shown again as it came back; the files it was shown with kept when it came back naming none (the live stream may not). */
function withFilesKept(message: ShownMessage, incoming: ConversationMessage): ShownMessage {
  const attachments = incoming.attachments?.length ? incoming.attachments : message.attachments;
  return shown({ ...incoming, attachments }, message.key);
}

/**
 * The messages with one from the live stream: once only (ids are stable, and the visitor's own
 * message may come both from their question's answer and from the stream), where it was when it is
 * already shown, else at the end before the visitor's messages still on their way.
 */
export function withLiveMessage(messages: ShownMessage[], incoming: ConversationMessage): ShownMessage[] {
  if (messages.some((message) => message.id === incoming.id)) {
    return messages.map((message) => (message.id === incoming.id ? withFilesKept(message, incoming) : message));
  }
  const firstPending = messages.findIndex(isPending);
  if (incoming.author !== 'visitor' || firstPending < 0) {
    return [...messages, shown(incoming)];
  }
  return [...messages.slice(0, firstPending), shown(incoming), ...messages.slice(firstPending)];
}

/**
 * The visitor's pending message `key` as the server stored it; dropped instead when the stored
 * message is already shown (the live stream brought it first).
 */
export function withStoredMessage(messages: ShownMessage[], key: string, stored: ConversationMessage): ShownMessage[] {
  if (messages.some((message) => message.id === stored.id && message.key !== key)) {
    return messages.filter((message) => message.key !== key);
  }
  return messages.map((message) => (message.key === key ? shown(stored, key) : message));
}

/** The conversation read back (after a reconnect): the server's messages, then the visitor's still on their way. */
export function withMessagesReadBack(messages: ShownMessage[], readBack: ConversationMessage[]): ShownMessage[] {
  const ids = new Set(readBack.map((message) => message.id));
  return [
    ...readBack.map((message) => shown(message)),
    ...messages.filter((message) => isPending(message) && !ids.has(message.id)),
  ];
}

/** How long to wait before the `attempt`-th reconnection (0 first): doubling from a second, at most half a minute, a little random so that panels do not come back together. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export interface LiveHandlers {
  onMessage: (message: ConversationMessage) => void;
  onConversation: (conversation: Conversation) => void;
  /** The stream is open again after it dropped: what was missed is read back. */
  onReconnected: () => void;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** A refusal that no retry changes (the conversation is not the visitor's, or not there), unlike a limit or a server error. */
const isFinal = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

/**
 * Follows a conversation's live stream until `signal` aborts: each event handed on, and when the
 * stream ends or fails, opened again after a growing pause (back to the shortest once it opened),
 * with `onReconnected` once it is open again after a failure. Stops for good on a refusal no retry changes.
 */
export async function followConversation(
  client: MessengerClient,
  conversationId: string,
  handlers: LiveHandlers,
  signal: AbortSignal,
  delay: (attempt: number) => number = reconnectDelay,
): Promise<void> {
  let attempt = 0;
  let dropped = false;
  while (!signal.aborted) {
    try {
      await client.follow(
        conversationId,
        {
          onOpen: () => {
            attempt = 0;
            if (dropped) {
              handlers.onReconnected();
            }
          },
          onEvent: (event) =>
            event.event === 'message' ? handlers.onMessage(event.message) : handlers.onConversation(event.conversation),
        },
        signal,
      );
    } catch (error) {
      if (signal.aborted || isFinal(error)) {
        return;
      }
    }
    dropped = true;
    await wait(delay(attempt++), signal);
  }
}
