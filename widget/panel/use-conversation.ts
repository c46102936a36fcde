import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { fileRefusalText } from './file-text';
import { type ShownMessage, shown, withLiveMessage, withStoredMessage } from './live-conversation';
import { ApiError, type AskEvent, type Conversation, type MessengerClient } from './messenger-client';
import { useLiveConversation } from './use-live-conversation';

export type { ShownMessage } from './live-conversation';

/**
 * What the panel says under the messages: the assistant asked for a person (or could not answer;
 * the panel offers "Talk to a person" where the widget has a team for it);
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
  /** The conversation as the server last described it (its handoff to a person, once there is one). */
  conversation: Conversation | null;
  messages: ShownMessage[];
  /** The answer as it is written (`''` before its first words); null when no answer is on its way. */
  streaming: string | null;
  notice: Notice;
}

const INITIAL: ConversationState = {
  status: 'idle',
  conversationId: null,
  conversation: null,
  messages: [],
  streaming: null,
  notice: null,
};

let nextKey = 0;

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
      return { ...previous, messages: withStoredMessage(previous.messages, key, event.message) };
    case 'delta':
      return { ...previous, streaming: (previous.streaming ?? '') + event.text };
    case 'answer':
      return { ...previous, streaming: null, messages: [...previous.messages, shown(event.message)] };
    default:
      return {
        ...previous,
        streaming: null,
        conversation: event.conversation ?? previous.conversation,
        notice: event.handoffRequested ? { kind: 'handoff' } : null,
      };
  }
}

/** The visitor's message as shown before the server has it: a key of its own, kept when it comes back as stored. */
function pendingMessage(content: string): ShownMessage {
  const key = `local-${++nextKey}`;
  return {
    key,
    id: key,
    author: 'visitor',
    authorName: null,
    content,
    citations: [],
    helpful: null,
    createdAt: new Date().toISOString(),
  };
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

/** The words the panel shows when handing the conversation to a person failed: the server's for a bad address or a limit. */
function handoffRefusalText(error: unknown): string {
  if (error instanceof ApiError && (error.status === 400 || error.status === 429)) {
    return error.message;
  }
  if (error instanceof ApiError && error.status === 404) {
    return 'Talking to a person is not available here.';
  }
  return 'The team could not be reached. Try again in a moment.';
}

/**
 * Hands the conversation to a person (with `email`: where replies go while the visitor is away);
 * the words of the failure, or null once the server has it.
 */
async function handOff(
  client: MessengerClient,
  conversationId: string | null,
  email: string | undefined,
  setState: (change: (previous: ConversationState) => ConversationState) => void,
): Promise<string | null> {
  if (!conversationId) {
    return 'Ask your question first: the person will read the conversation.';
  }
  try {
    const conversation = await client.handoff(conversationId, email);
    setState((previous) => ({ ...previous, conversation, notice: previous.notice?.kind === 'handoff' ? null : previous.notice }));
    return null;
  } catch (error) {
    return handoffRefusalText(error);
  }
}

/** Reads back the visitor's latest conversation and its messages (none yet: an empty one). */
function loadLatest(
  client: MessengerClient,
  setState: (change: (previous: ConversationState) => ConversationState) => void,
  signal?: AbortSignal,
): Promise<void> {
  const update = (change: Partial<ConversationState>) => setState((previous) => ({ ...previous, ...change }));
  update({ status: 'loading', notice: null });
  return client
    .conversations()
    .then(async ([latest]) => {
      const messages = latest ? await client.messages(latest.id, signal) : [];
      if (!signal?.aborted) {
        update({
          status: 'ready',
          conversationId: latest?.id ?? null,
          conversation: latest ?? null,
          messages: messages.map((message) => shown(message)),
        });
      }
    })
    .catch(() => {
      if (!signal?.aborted) {
        update({ status: 'failed' });
      }
    });
}

/** What the visitor can ask of a person: take the conversation over, and reply by email while they are away. */
function handoffActions(
  client: MessengerClient,
  conversationId: string | null,
  setState: (change: (previous: ConversationState) => ConversationState) => void,
) {
  return {
    /** "Talk to a person": a failure is said under the messages; whether the conversation was handed off. */
    async talkToPerson(): Promise<boolean> {
      const problem = await handOff(client, conversationId, undefined, setState);
      if (problem !== null) {
        setState((previous) => ({ ...previous, notice: { kind: 'refused', text: problem } }));
      }
      return problem === null;
    },
    /** The address for replies while the visitor is away; the server's words when it refuses it. */
    leaveEmail: (email: string) => handOff(client, conversationId, email, setState),
    /** Sends a file to the person (shown once, whether the answer or the live stream brings it first); why not, in words. */
    async sendFile(file: File): Promise<string | null> {
      if (!conversationId) {
        return fileRefusalText(new ApiError(409, 'not_handed_off', 'No conversation yet'));
      }
      try {
        const message = await client.sendFile(conversationId, file);
        setState((previous) => ({ ...previous, messages: withLiveMessage(previous.messages, message) }));
        return null;
      } catch (error) {
        return fileRefusalText(error);
      }
    },
  };
}

/** The server announces typing at most this often (`TYPING_EVERY_MS`), so the panel reports it no more often. */
const TYPING_REPORT_EVERY_MS = 3_000;

/**
 * Tells the person who has the conversation that the visitor is typing; null before a handoff
 * (the assistant does not need to know). A report lost on the way is not worth a word to the visitor.
 */
function useTypingReport(client: MessengerClient, handedOffConversationId: string | null): (() => void) | null {
  const lastSent = useRef(0);
  const report = useCallback(() => {
    if (!handedOffConversationId || Date.now() - lastSent.current < TYPING_REPORT_EVERY_MS) {
      return;
    }
    lastSent.current = Date.now();
    client.typing(handedOffConversationId).catch(() => undefined);
  }, [client, handedOffConversationId]);
  return handedOffConversationId ? report : null;
}

/** The calls the conversation's messages and composer make, kept across renders: its files, and typing once a person has it. */
function useConversationCalls(client: MessengerClient, state: ConversationState) {
  return {
    loadFile: useFileLoader(client, state.conversationId),
    reportTyping: useTypingReport(client, state.conversation?.handoff ? state.conversationId : null),
  };
}

/** Reads a file of the conversation; the same function while the conversation is, so a thumbnail reads its image once. */
function useFileLoader(client: MessengerClient, conversationId: string | null) {
  return useCallback(
    (fileId: string) => (conversationId ? client.file(conversationId, fileId) : Promise.reject(new Error('No conversation yet'))),
    [client, conversationId],
  );
}

/**
 * The visitor's conversation with the help center's assistant, held by the panel so that an answer
 * still streaming goes on while the visitor reads elsewhere. Loads when first `enabled` (the
 * latest conversation, read back from the API, so it survives reloads) and again for a new
 * `visitorKey` (a visitor who signs in sees their own). Once handed to a person it is followed
 * live. `onAnswer` hears each final answer of the assistant, `onReply` each new reply of a person.
 */
export function useConversation(
  client: MessengerClient,
  options: { enabled: boolean; visitorKey: string | null; onAnswer: () => void; onReply: () => void },
) {
  const [state, setState] = useState<ConversationState>(INITIAL);
  // The latest listeners, heard from callbacks made on an earlier render.
  const listeners = useRef(options);
  listeners.current = options;
  const streaming = useRef<AbortController | null>(null);
  const update = (change: Partial<ConversationState>) => setState((previous) => ({ ...previous, ...change }));

  const load = (signal?: AbortSignal) => loadLatest(client, setState, signal);

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
      listeners.current.onAnswer();
    }
  };

  /** Starts the conversation on the visitor's first message. */
  const start = async () => {
    const started = await client.startConversation();
    update({ conversationId: started.id, conversation: started });
    return started.id;
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
      const conversationId = state.conversationId ?? (await start());
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
        // Once a person has the conversation no answer is due: the message read back is enough.
        previous.conversation?.handoff || previous.messages[previous.messages.length - 1]?.author === 'assistant'
          ? previous
          : { ...previous, notice: { kind: 'interrupted', resend: null } },
      ),
    );
  };

  const rate = (messageId: string) => rateAnswer(client, state.conversationId, messageId, setState);
  const { loadFile, reportTyping } = useConversationCalls(client, state);

  useLiveConversation(client, {
    conversationId: state.conversation?.handoff ? state.conversationId : null,
    messages: state.messages,
    setState,
    onReply: () => listeners.current.onReply(),
  });

  return { ...state, send, retry, rate, loadFile, reportTyping, ...handoffActions(client, state.conversationId, setState) };
}
