import { useEffect, useRef } from 'preact/hooks';
import { followConversation, type ShownMessage, withLiveMessage, withMessagesReadBack } from './live-conversation';
import type { Conversation, MessengerClient } from './messenger-client';

interface LiveState {
  conversation: Conversation | null;
  messages: ShownMessage[];
}

/**
 * Follows a handed-off conversation live while `conversationId` is set: new messages appended once
 * each, the handoff replaced when it changes, the messages read back after the stream dropped and
 * came back. `onReply` hears each new message of a person (for the unread count).
 */
export function useLiveConversation<State extends LiveState>(
  client: MessengerClient,
  options: {
    conversationId: string | null;
    messages: ShownMessage[];
    setState: (change: (previous: State) => State) => void;
    onReply: () => void;
  },
) {
  const { conversationId, setState } = options;
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    if (!conversationId) {
      return;
    }
    const controller = new AbortController();
    void followConversation(
      client,
      conversationId,
      {
        onMessage: (message) => {
          const isNew = !latest.current.messages.some((shownMessage) => shownMessage.id === message.id);
          setState((previous) => ({ ...previous, messages: withLiveMessage(previous.messages, message) }));
          if (isNew && message.author === 'agent') {
            latest.current.onReply();
          }
        },
        onConversation: (conversation) => setState((previous) => ({ ...previous, conversation })),
        onReconnected: () => {
          client
            .messages(conversationId, controller.signal)
            .then((readBack) =>
              setState((previous) => ({ ...previous, messages: withMessagesReadBack(previous.messages, readBack) })),
            )
            .catch(() => {
              // The next event, or the next reconnection, brings the conversation up to date.
            });
        },
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [client, conversationId, setState]);
}
