import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type AskEvent, type ConversationMessage, type MessengerClient } from './messenger-client';

/** A message as the panel shows it: `key` stays the same when the visitor's own message comes back as stored. */
export interface ShownMessage extends ConversationMessage {
  key: string;
}

/**
 * What the panel says under the messages: the assistant asked for a person (or could not answer);
 * the answer was interrupted (`resend`: the message was perhaps not stored, so Retry sends it
 * again; otherwise Retry reads the conversation back); or a refusal, in the server's words.
 */
export type Notice =
  | { kind: 'handoff' }
  | { kind: 'interrupted'; resend: string | null }
  | { kind: 'refused'; text: string }
  | null;

export interface ConversationState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  conversationId: string | null;
  messages: ShownMessage[];
  /** The answer as it is written (`''` before its first words); null when no answer is on its way. */
  streaming: string | null;
  notice: Notice;
}

const INITIAL: ConversationState = { status: 'idle', conversationId: null, messages: [], streaming: null, notice: null };

let nextKey = 0;
const shown = (message: ConversationMessage, key = message.id): ShownMessage => ({ ...message, key });

/** The words the panel shows for a refusal before the stream started. */
function refusalText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'verification_required') {
    return 'Only signed-in customers can chat here. Sign in on this website, then ask again.';
  }
  if (error instanceof ApiError && (error.status === 429 || error.status === 400)) {
    return error.message;
  }
  return 'Your message could not be sent. Try again in a moment.';
}

/** The state once an event of the answer's stream is read; `key`: the visitor's message the stream answers. */
function withEvent(previous: ConversationState, key: string, event: AskEvent): ConversationState {
  switch (event.event) {
    case 'message':
      return {
        ...previous,
        messages: previous.messages.map((message) => (message.key === key ? shown(event.message, key) : message)),
      };
    case 'delta':
      return { ...previous, streaming: (previous.streaming ?? '') + event.text };
    case 'answer':
      return { ...previous, streaming: null, messages: [...previous.messages, shown(event.message)] };
    default:
      return { ...previous, streaming: null, notice: event.handoffRequested ? { kind: 'handoff' } : null };
  }
}

/** The visitor's message as shown before the server has it: a key of its own, kept when it comes back as stored. */
function pendingMessage(content: string): ShownMessage {
  const key = `local-${++nextKey}`;
  return { key, id: key, author: 'visitor', content, citations: [], helpful: null, createdAt: new Date().toISOString() };
}

/** "That helped" on an answer: shown as rated once the server has it; a failure leaves it as it was. */
async function rateAnswer(
  client: MessengerClient,
  conversationId: string | null,
  messageId: string,
  setState: (change: (previous: ConversationState) => ConversationState) => void,
): Promise<void> {
  if (!conversationId) {
    return;
  }
  try {
    const rated = await client.rate(conversationId, messageId, true);
    setState((previous) => ({
      ...previous,
      messages: previous.messages.map((message) => (message.id === rated.id ? { ...message, helpful: rated.helpful } : message)),
    }));
  } catch {
    // Nothing to undo: the button stays for another try.
  }
}

/**
 * The visitor's conversation with the help center's assistant, held by the panel so that an answer
 * still streaming goes on while the visitor reads elsewhere. Loads when first `enabled` (the
 * latest conversation, read back from the API, so it survives reloads) and again for a new
 * `visitorKey` (a visitor who signs in sees their own). `onAnswer` hears each final answer.
 */
export function useConversation(
  client: MessengerClient,
  options: { enabled: boolean; visitorKey: string | null; onAnswer: () => void },
) {
  const [state, setState] = useState<ConversationState>(INITIAL);
  const onAnswer = useRef(options.onAnswer);
  onAnswer.current = options.onAnswer;
  const streaming = useRef<AbortController | null>(null);
  const update = (change: Partial<ConversationState>) => setState((previous) => ({ ...previous, ...change }));

  const load = (signal?: AbortSignal) => {
    update({ status: 'loading', notice: null });
    return client
      .conversations()
      .then(async ([latest]) => {
        const messages = latest ? await client.messages(latest.id, signal) : [];
        if (!signal?.aborted) {
          update({ status: 'ready', conversationId: latest?.id ?? null, messages: messages.map((message) => shown(message)) });
        }
      })
      .catch(() => {
        if (!signal?.aborted) {
          update({ status: 'failed' });
        }
      });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again for another client or visitor; `load` is remade each render
  useEffect(() => {
    if (!options.enabled) {
      return;
    }
    const controller = new AbortController();
    setState(INITIAL);
    void load(controller.signal);
    return () => {
      controller.abort();
      streaming.current?.abort();
    };
  }, [client, options.enabled, options.visitorKey]);

  /** Reads one event of the answer's stream into the state. */
  const apply = (key: string, event: AskEvent) => {
    setState((previous) => withEvent(previous, key, event));
    if (event.event === 'answer') {
      onAnswer.current();
    }
  };

  /**
   * Sends the visitor's message (starting the conversation on the first one), shown at once; the
   * answer grows as it streams. Resolves false when the message was refused (it is taken back,
   * for the composer to offer again).
   */
  const send = async (content: string): Promise<boolean> => {
    const pending = pendingMessage(content);
    const { key } = pending;
    setState((previous) => ({ ...previous, streaming: '', notice: null, messages: [...previous.messages, pending] }));
    const controller = new AbortController();
    streaming.current = controller;
    let stored = false;
    try {
      const conversationId = state.conversationId ?? (await client.startConversation()).id;
      update({ conversationId });
      const { finished } = await client.ask(
        conversationId,
        content,
        (event) => {
          stored ||= event.event === 'message';
          apply(key, event);
        },
        controller.signal,
      );
      if (!finished) {
        update({ streaming: null, notice: { kind: 'interrupted', resend: stored ? null : content } });
      }
      return true;
    } catch (error) {
      if (controller.signal.aborted) {
        return true;
      }
      if (error instanceof ApiError) {
        setState((previous) => ({
          ...previous,
          streaming: null,
          messages: previous.messages.filter((message) => message.key !== key),
          notice: { kind: 'refused', text: refusalText(error) },
        }));
        return false;
      }
      // The request never reached the server, or its answer never started.
      update({ streaming: null, notice: { kind: 'interrupted', resend: stored ? null : content } });
      return true;
    } finally {
      if (streaming.current === controller) {
        streaming.current = null;
      }
    }
  };

  /** After an interrupted answer: sends again a message that was perhaps not stored, else reads the conversation back. */
  const retry = () => {
    const notice = state.notice;
    if (notice?.kind !== 'interrupted') {
      return;
    }
    if (notice.resend !== null) {
      const resend = notice.resend;
      setState((previous) => ({
        ...previous,
        notice: null,
        messages: previous.messages.filter((message) => !(message.key.startsWith('local-') && message.content === resend)),
      }));
      void send(resend);
      return;
    }
    void load().then(() =>
      setState((previous) =>
        previous.messages[previous.messages.length - 1]?.author === 'assistant'
          ? previous
          : { ...previous, notice: { kind: 'interrupted', resend: null } },
      ),
    );
  };

  const rate = (messageId: string) => rateAnswer(client, state.conversationId, messageId, setState);

  return { ...state, send, retry, rate };
}
