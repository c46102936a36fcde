/**
 * The panel's client of the messenger API (`/widget/{slug}/api`, same origin as the panel), and the
 * visitor token's life: kept in this origin's localStorage under `switchboard.visitor.{slug}`,
 * created with `POST /visitors` when there is none, made again once when the stored one answers 401.
 */
import { createSseParser } from './sse-parser.js';

export interface HelpCenterConfig {
  helpCenter: { name: string; slug: string; siteUrl: string };
  widget: {
    greeting: string | null;
    launcherColor: string | null;
    position: 'right' | 'left';
    identityVerificationRequired: boolean;
    chatAvailable: boolean;
    /** The widget names a team that takes conversations over ("Talk to a person"). */
    handoffAvailable: boolean;
  };
}

export interface Visitor {
  id: string;
  verified: boolean;
  contact: { name: string | null; email: string | null } | null;
}

export interface SearchResult {
  title: string;
  slug: string;
  /** Escaped by the server, with `<mark>` around the words that matched. */
  excerptHtml: string;
  url: string;
}

export interface SearchPage {
  results: SearchResult[];
  page: number;
  hasMore: boolean;
}

export interface Article {
  title: string;
  slug: string;
  /** The published article, sanitised by the server. */
  html: string;
  url: string;
  updatedAt: string;
}

export interface Citation {
  title: string;
  /** The article's address on the public site. */
  url: string;
}

/** A file sent in the conversation (read with the visitor's token: `file`). */
export interface Attachment {
  id: string;
  name: string;
  contentType: string;
  size: number;
}

export interface ConversationMessage {
  id: string;
  /** `agent`: a person of the support team, once the conversation was handed off. */
  author: 'visitor' | 'assistant' | 'agent';
  /** The person's name for `agent`, else null. */
  authorName: string | null;
  /** Plain text (an answer may hold Markdown links): rendered as text, never as HTML. */
  content: string;
  citations: Citation[];
  /** The visitor's rating of an answer ("That helped"); null until rated, and for their own words. */
  helpful: boolean | null;
  /** Files sent with the message (a visitor's upload to a person); missing from servers older than files. */
  attachments?: Attachment[];
  createdAt: string;
}

/** The conversation as a ticket a person answers, once handed off. */
export interface Handoff {
  requestedAt: string;
  requestedBy: 'visitor' | 'assistant';
  /** The ticket's identifier ("SUP-12"), shown as the visitor's reference. */
  ticket: string;
  teamName: string;
  /** Where replies go while the visitor is away. */
  email: string | null;
  /** Outside hours with no address yet: the panel asks for one. */
  emailRequired: boolean;
  hours: { open: boolean; nextOpeningAt: string | null; expectedWaitMinutes: number | null };
  /** The ticket is closed; a new message reopens it. */
  closed: boolean;
}

export interface Conversation {
  id: string;
  title: string | null;
  createdAt: string;
  lastActivityAt: string;
  handoff: Handoff | null;
}

/** What the stream of an answer says, in order: the visitor's message as stored, pieces of the answer, the answer, the end. */
export type AskEvent =
  | { event: 'message'; message: ConversationMessage }
  | { event: 'delta'; text: string }
  | { event: 'answer'; message: ConversationMessage }
  | { event: 'done'; handoffRequested: boolean; answered: boolean; conversation: Conversation | null };

/** What the live stream of a handed-off conversation says: a new message, or the handoff changed. */
export type LiveEvent =
  | { event: 'message'; message: ConversationMessage }
  | { event: 'conversation'; conversation: Conversation };

/** An answer in the API's error shape, `{"error": {"code", "message"}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where the token is kept: the frame's localStorage in the browser (the methods used, so the client runs outside one too). */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface Call {
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
  accept?: string;
}

/** Storage that may refuse (a browser blocking a framed site's storage): the token then lasts as long as the page. */
function tokenStore(storage: TokenStorage | null, key: string) {
  let kept: string | null = null;
  return {
    read(): string | null {
      try {
        return storage?.getItem(key) ?? kept;
      } catch {
        return kept;
      }
    },
    write(token: string | null): void {
      kept = token;
      try {
        if (token === null) {
          storage?.removeItem(key);
        } else {
          storage?.setItem(key, token);
        }
      } catch {
        // Kept in memory only.
      }
    },
  };
}

/** A frame of the answer's stream as the panel uses it; a frame it does not know (or cannot read) is skipped. */
function askEventOf(name: string, data: string): AskEvent | null {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(data) as Record<string, unknown>;
  } catch {
    return null;
  }
  const message = parsed.message as ConversationMessage | undefined;
  switch (name) {
    case 'message':
    case 'answer':
      return message && typeof message.content === 'string' ? { event: name, message } : null;
    case 'delta':
      return typeof parsed.text === 'string' ? { event: 'delta', text: parsed.text } : null;
    case 'done':
      return {
        event: 'done',
        handoffRequested: parsed.handoffRequested === true,
        answered: parsed.answered === true,
        conversation: conversationOf(parsed.conversation),
      };
    default:
      return null;
  }
}

/** A conversation as the server sent it, or null when the field is missing or not one. */
function conversationOf(value: unknown): Conversation | null {
  const conversation = value as Conversation | null | undefined;
  return conversation && typeof conversation.id === 'string' ? { ...conversation, handoff: conversation.handoff ?? null } : null;
}

/** A frame of the live stream as the panel uses it; anything else (or unreadable) is skipped. */
export function liveEventOf(name: string, data: string): LiveEvent | null {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(data) as Record<string, unknown>;
  } catch {
    return null;
  }
  const message = parsed.message as ConversationMessage | undefined;
  if (name === 'message') {
    return message && typeof message.id === 'string' && typeof message.content === 'string'
      ? { event: 'message', message }
      : null;
  }
  const conversation = conversationOf(parsed.conversation);
  return name === 'conversation' && conversation ? { event: 'conversation', conversation } : null;
}

/** Feeds a response's body to an event-stream parser until it ends; `false` when the connection failed while reading. */
async function readStream(response: Response, parser: ReturnType<typeof createSseParser>, signal?: AbortSignal) {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  try {
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
      parser.push(decoder.decode(chunk.value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
    return true;
  } catch (error) {
    if (signal?.aborted) {
      throw error;
    }
    return false;
  }
}

/**
 * Reads an answer's stream to its end, handing on each event; whether it ended with `done`
 * (`false`: cut short, or the connection failed while reading).
 */
async function readAnswer(response: Response, onEvent: (event: AskEvent) => void, signal?: AbortSignal) {
  let finished = false;
  const parser = createSseParser((frame) => {
    const event = askEventOf(frame.event, frame.data);
    if (event) {
      finished ||= event.event === 'done';
      onEvent(event);
    }
  });
  // A connection dropped while reading: what arrived was handed on; the caller offers a retry.
  await readStream(response, parser, signal);
  return { finished };
}

/** The response of a call that succeeded; an `ApiError` with the server's code and message otherwise. */
async function fetchFrom(
  apiBase: string,
  method: string,
  path: string,
  { body, token, signal, accept }: Call = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: accept ?? 'application/json' };
  // A form sets its own multipart content type, boundary included.
  const form = body instanceof FormData;
  if (body !== undefined && !form) {
    headers['content-type'] = 'application/json';
  }
  if (token) {
    headers.authorization = `Bearer ${token}`;
  }
  const response = await fetch(`${apiBase}${path}`, {
    method,
    headers,
    body: form ? body : body === undefined ? undefined : JSON.stringify(body),
    signal,
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ApiError(
      response.status,
      answer?.error?.code ?? 'error',
      answer?.error?.message ?? `The server answered ${response.status}.`,
    );
  }
  return response;
}

export type MessengerClient = ReturnType<typeof createMessengerClient>;

/** How a call is sent as the visitor (their token, made again once on a 401), for the calls built apart below. */
interface VisitorCalls {
  asVisitor<T>(send: (token: string) => Promise<T>): Promise<T>;
  call<T>(method: string, path: string, options?: Call): Promise<T>;
  fetchApi(method: string, path: string, options?: Call): Promise<Response>;
}

const conversationPath = (conversationId: string) => `/conversations/${encodeURIComponent(conversationId)}`;

/** The calls of a conversation handed to a person: read it, hand it off (with an address for replies), follow it live. */
function handoffCalls({ asVisitor, call, fetchApi }: VisitorCalls) {
  return {
    conversation: (conversationId: string, signal?: AbortSignal) =>
      asVisitor((token) => call<{ conversation: Conversation }>('GET', conversationPath(conversationId), { token, signal })).then(
        (answer) => answer.conversation,
      ),
    /**
     * Hands the conversation to a person (a ticket for the widget's team); again with `email`, sets
     * where replies go while the visitor is away. Answers the conversation with its handoff.
     */
    handoff: (conversationId: string, email?: string) =>
      asVisitor((token) =>
        call<{ conversation: Conversation }>('POST', `${conversationPath(conversationId)}/handoff`, {
          token,
          body: email === undefined ? {} : { email },
        }),
      ).then((answer) => answer.conversation),
    /** Sends a file to the person who has the conversation (one part named `file`); answers the message with it. */
    sendFile: (conversationId: string, file: File) =>
      asVisitor((token) => {
        const body = new FormData();
        body.append('file', file, file.name);
        return call<{ message: ConversationMessage }>('POST', `${conversationPath(conversationId)}/files`, { token, body });
      }).then((answer) => answer.message),
    /** The visitor is typing in the conversation: the person answering sees it in the console. */
    typing: (conversationId: string) =>
      asVisitor((token) => fetchApi('POST', `${conversationPath(conversationId)}/typing`, { token })).then(() => undefined),
    /** A file of the conversation's messages, read with the bearer header (a plain link could not send it). */
    file: (conversationId: string, fileId: string) =>
      asVisitor((token) =>
        fetchApi('GET', `${conversationPath(conversationId)}/files/${encodeURIComponent(fileId)}`, { token, accept: '*/*' }),
      ).then((response) => response.blob()),
    /**
     * Reads the conversation's live stream (fetch with the bearer header: EventSource cannot send
     * it) until it ends or `signal` aborts: `onOpen` once the server accepted it, then each event.
     * Throws an `ApiError` when it is refused; resolves when the stream ends or the connection drops.
     */
    async follow(
      conversationId: string,
      handlers: { onOpen: () => void; onEvent: (event: LiveEvent) => void },
      signal: AbortSignal,
    ) {
      const response = await asVisitor((token) =>
        fetchApi('GET', `${conversationPath(conversationId)}/events`, { token, signal, accept: 'text/event-stream' }),
      );
      handlers.onOpen();
      const parser = createSseParser((frame) => {
        const event = liveEventOf(frame.event, frame.data);
        if (event) {
          handlers.onEvent(event);
        }
      });
      await readStream(response, parser, signal);
    },
  };
}

export function createMessengerClient(options: { apiBase: string; slug: string; storage: TokenStorage | null }) {
  const tokens = tokenStore(options.storage, `switchboard.visitor.${options.slug}`);
  let creating: Promise<string> | null = null;

  const fetchApi = (method: string, path: string, call: Call = {}) => fetchFrom(options.apiBase, method, path, call);

  async function call<T>(method: string, path: string, options: Call = {}): Promise<T> {
    return (await (await fetchApi(method, path, options)).json()) as T;
  }

  /** One `POST /visitors` at a time: calls that find no token at once share it. */
  function createVisitor(): Promise<string> {
    creating ??= call<{ visitorToken: string }>('POST', '/visitors')
      .then((answer) => {
        tokens.write(answer.visitorToken);
        return answer.visitorToken;
      })
      .finally(() => {
        creating = null;
      });
    return creating;
  }

  /** Sends with the visitor's token; on a 401 the token is forgotten, a new visitor made, and the call sent once more. */
  async function asVisitor<T>(send: (token: string) => Promise<T>): Promise<T> {
    const token = tokens.read() ?? (await createVisitor());
    try {
      return await send(token);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        throw error;
      }
      if (tokens.read() === token) {
        tokens.write(null);
      }
      return send(tokens.read() ?? (await createVisitor()));
    }
  }

  return {
    ...handoffCalls({ asVisitor, call, fetchApi }),
    config: () => call<HelpCenterConfig>('GET', '/config'),
    /** The visitor this panel speaks for, made first if there is none yet. */
    me: () => asVisitor((token) => call<{ visitor: Visitor }>('GET', '/me', { token })).then((answer) => answer.visitor),
    search: (query: string, page: number, signal?: AbortSignal) =>
      asVisitor((token) => call<SearchPage>('GET', `/search?q=${encodeURIComponent(query)}&page=${page}`, { token, signal })),
    article: (slug: string, signal?: AbortSignal) =>
      asVisitor((token) => call<Article>('GET', `/articles/${encodeURIComponent(slug)}`, { token, signal })),
    /** The visitor's conversations with the help center's assistant, latest activity first. */
    conversations: () =>
      asVisitor((token) => call<{ conversations: Conversation[] }>('GET', '/conversations', { token })).then(
        (answer) => answer.conversations,
      ),
    startConversation: () =>
      asVisitor((token) => call<{ conversation: Conversation }>('POST', '/conversations', { token })).then(
        (answer) => answer.conversation,
      ),
    messages: (conversationId: string, signal?: AbortSignal) =>
      asVisitor((token) =>
        call<{ messages: ConversationMessage[] }>('GET', `/conversations/${encodeURIComponent(conversationId)}/messages`, {
          token,
          signal,
        }),
      ).then((answer) => answer.messages),
    /**
     * Sends the visitor's message and reads the answer's Server-Sent Events as they arrive (fetch
     * and a stream reader: EventSource cannot POST). Throws an `ApiError` when the message is
     * refused before the stream starts; resolves once the stream ends, with whether it ended with
     * `done` (`false`: it was cut short, or the connection failed while reading).
     */
    async ask(conversationId: string, content: string, onEvent: (event: AskEvent) => void, signal?: AbortSignal) {
      const response = await asVisitor((token) =>
        fetchApi('POST', `/conversations/${encodeURIComponent(conversationId)}/messages`, {
          token,
          body: { content },
          signal,
          accept: 'text/event-stream',
        }),
      );
      return readAnswer(response, onEvent, signal);
    },
    /** The visitor's rating of one of the assistant's answers; answers the answer as rated. */
    rate: (conversationId: string, messageId: string, helpful: boolean) =>
      asVisitor((token) =>
        call<{ message: ConversationMessage }>(
          'POST',
          `/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/feedback`,
          { token, body: { helpful } },
        ),
      ).then((answer) => answer.message),
    /**
     * Trades the host's signed JWT for a verified visitor's token, carrying the anonymous visitor's
     * token along so their conversation follows; without it if that token is refused.
     */
    async identify(jwt: string): Promise<Visitor> {
      const current = tokens.read();
      const send = (token: string | null) =>
        call<{ visitorToken: string; visitor: Visitor }>('POST', '/identify', { body: { token: jwt }, token });
      let answer: { visitorToken: string; visitor: Visitor };
      try {
        answer = await send(current);
      } catch (error) {
        if (!(current && error instanceof ApiError && error.status === 401)) {
          throw error;
        }
        answer = await send(null);
      }
      tokens.write(answer.visitorToken);
      return answer.visitor;
    },
  };
}
