import { performance } from 'node:perf_hooks';
import { causeChain, createGuardedFetch, isBlockedError, type OutboundPolicy } from '../../lib/guarded-fetch.js';
import { type SignedHeaders, signMessage } from './webhook.signing.js';

/** Longest wait for a receiver, from connecting to the end of its answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Receivers' answers are read up to this size; the rest is not downloaded. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** How much of an answer is kept with the attempt, for the deliveries list. */
export const STORED_RESPONSE_CHARS = 4096;
const MAX_ERROR_LENGTH = 500;
/** undici's own timeouts, which may fire before the deadline's abort does. */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** What one POST to a receiver came to. */
export interface SendOutcome {
  /** 2xx. Anything else, redirects included (they are not followed), is a failure. */
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** The start of the answer (`STORED_RESPONSE_CHARS`), null when none came. */
  responseBody: string | null;
  responseTruncated: boolean;
  /** Why no 2xx came: the status, or what went wrong before one could (refused, blocked, timed out). */
  error: string | null;
}

export interface WebhookMessage {
  /** The delivery id: `webhook-id`, the same on every attempt, for receivers to drop duplicates. */
  id: string;
  at: Date;
  body: string;
}

export interface WebhookSender {
  send(url: string, secrets: readonly string[], message: WebhookMessage): Promise<SendOutcome>;
  close(): Promise<void>;
}

/**
 * POSTs signed messages through the outbound guard: no private, loopback or link-local target
 * unless `OUTBOUND_ALLOWED_HOSTS` names it, redirects answered but not followed, `timeoutMs` for
 * the whole exchange, answers cut at `MAX_RESPONSE_BYTES`.
 */
export function createWebhookSender(policy: OutboundPolicy, options: { timeoutMs?: number } = {}): WebhookSender {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const outbound = createGuardedFetch(policy, {
    connectTimeoutMs: timeoutMs,
    headersTimeoutMs: timeoutMs,
    discoveryTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    oversizedResponse: 'truncate',
  });

  async function post(url: string, headers: SignedHeaders, body: string, started: number): Promise<SendOutcome> {
    const deadline = AbortSignal.timeout(timeoutMs);
    const response = await outbound.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Switchboard-Webhooks/1', ...headers },
      body,
      redirect: 'manual',
      signal: deadline,
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const latencyMs = Math.round(performance.now() - started);
    const text = new TextDecoder().decode(bytes);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      latencyMs,
      responseBody: text.slice(0, STORED_RESPONSE_CHARS),
      responseTruncated: text.length > STORED_RESPONSE_CHARS || bytes.byteLength >= MAX_RESPONSE_BYTES,
      error: ok ? null : statusError(response),
    };
  }

  return {
    async send(url, secrets, message) {
      const headers = await signMessage(secrets, message);
      const started = performance.now();
      try {
        return await post(url, headers, message.body, started);
      } catch (error) {
        return {
          ok: false,
          statusCode: null,
          latencyMs: Math.round(performance.now() - started),
          responseBody: null,
          responseTruncated: false,
          error: describeFailure(error, timeoutMs),
        };
      }
    },
    close: () => outbound.close(),
  };
}

function statusError(response: Response): string {
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location');
    return `answered ${response.status}, a redirect${location ? ` to ${location.slice(0, 200)}` : ''}, which is not followed`;
  }
  return `answered ${response.status}`;
}

/** One line saying why no answer came, from the innermost cause that says something. */
function describeFailure(error: unknown, timeoutMs: number): string {
  const chain = causeChain(error);
  let text: string;
  const timedOut = chain.some(
    (entry) =>
      (entry instanceof Error && entry.name === 'TimeoutError') || TIMEOUT_CODES.has(String((entry as { code?: unknown }).code)),
  );
  if (timedOut) {
    text = `no answer within ${timeoutMs} ms`;
  } else if (isBlockedError(error)) {
    const blocked = chain.find((entry) => (entry as { code?: string }).code === 'ERR_OUTBOUND_BLOCKED') as Error;
    text = `refused by the outbound guard: ${blocked.message}`;
  } else {
    const innermost = chain.at(-1);
    const code = (innermost as { code?: unknown } | undefined)?.code;
    const message = innermost instanceof Error ? innermost.message : String(innermost);
    text = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return text.slice(0, MAX_ERROR_LENGTH);
}
