import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type * as undici from 'undici';
import { isHttpUrl } from './http-url.js';
import { loadOnce } from './load-once.js';

/**
 * The only way out to the network for destinations users configure: the agent studio's MCP
 * servers (mcp-connect.md §8: every MCP request, metadata lookup, client registration, token and
 * revocation call) and the platform's webhooks. Requests go through `createGuardedFetch`, whose
 * connector refuses private, loopback, link-local, metadata and other non-unicast addresses at
 * connect time (so redirects and DNS rebinding are covered too) and plain http to any host that
 * `OUTBOUND_ALLOWED_HOSTS` does not name.
 */

/** A fetch as the MCP SDK and the webhook sender call it. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Limits of one guarded fetch; the defaults are the agent studio's. */
export interface GuardedFetchOptions {
  connectTimeoutMs?: number;
  /** Until the response headers, for anything but a plain GET. */
  headersTimeoutMs?: number;
  /** Until the response headers of a GET that is not an event stream (metadata lookups). */
  discoveryTimeoutMs?: number;
  /** Longest silence between two chunks of a body. */
  bodyTimeoutMs?: number;
  /** Larger answers (other than event streams) are cut off at this many bytes … */
  maxResponseBytes?: number;
  /**
   * … by failing the read (the default: no MCP, metadata or token response needs more), or, with
   * `truncate`, by ending the body there, so the status and the start of the body stay readable.
   */
  oversizedResponse?: 'fail' | 'truncate';
}

const DEFAULTS: Required<GuardedFetchOptions> = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 10_000,
  discoveryTimeoutMs: 5_000,
  bodyTimeoutMs: 30_000,
  maxResponseBytes: 4 * 1024 * 1024,
  oversizedResponse: 'fail',
};
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Thrown (as the `cause` of fetch's `TypeError`) when the policy refuses a destination. */
export class OutboundBlockedError extends Error {
  override readonly name = 'OutboundBlockedError';
  readonly code = 'ERR_OUTBOUND_BLOCKED';
}

export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  readonly code = 'ERR_RESPONSE_TOO_LARGE';
}

/** `OUTBOUND_ALLOWED_HOSTS` parsed: hosts (names or IP literals) with an optional port each. */
export interface OutboundPolicy {
  isAllowlisted(host: string, port: number): boolean;
}

export function parseOutboundPolicy(allowedHosts: string | undefined): OutboundPolicy {
  const entries = (allowedHosts ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .map((entry) => {
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      if (bracketed?.[1]) {
        return { host: normalizeHost(bracketed[1]), port: bracketed[2] ? Number(bracketed[2]) : undefined };
      }
      const match = /^([^:]+)(?::(\d+))?$/.exec(entry);
      // A bare IPv6 literal (several colons, no brackets) carries no port.
      return match?.[1]
        ? { host: normalizeHost(match[1]), port: match[2] ? Number(match[2]) : undefined }
        : { host: normalizeHost(entry), port: undefined };
    });
  return {
    isAllowlisted: (host, port) =>
      entries.some((entry) => entry.host === normalizeHost(host) && (entry.port === undefined || entry.port === port)),
  };
}

function normalizeHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return ipaddr.isValid(bare) ? ipaddr.process(bare).toString() : bare.replace(/\.$/, '');
}

/**
 * `::/96`, the deprecated IPv4-compatible form: `[::127.0.0.1]` may reach 127.0.0.1 on stacks that
 * still route it, yet ipaddr.js calls the range unicast.
 */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * Public unicast only: RFC 1918, loopback, link-local (169.254.169.254), ULA, CGNAT… are not, nor
 * any IPv6 form that carries an IPv4 address: IPv4-mapped `::ffff:a.b.c.d` (judged as the IPv4
 * address it is), IPv4-compatible `::a.b.c.d` and the unspecified `::`, NAT64 (`64:ff9b::/96`,
 * `64:ff9b:1::/48`), 6to4 (`2002::/16`), Teredo (`2001::/32`) and SIIT (`::ffff:0:0:0/96`), which
 * are refused whatever they carry (ipaddr.js names those ranges; `OUTBOUND_ALLOWED_HOSTS` can
 * still name such a host).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) {
    return false;
  }
  const parsed = ipaddr.process(address.includes(':') ? hexIpv6(address) : address);
  if (parsed instanceof ipaddr.IPv6 && parsed.match(IPV4_COMPATIBLE)) {
    return false;
  }
  return parsed.range() === 'unicast';
}

/**
 * An IPv6 address as WHATWG URLs write it, all in hex: ipaddr.js reads `::a.b.c.d` as if it were
 * `::ffff:a.b.c.d` (so `::8.8.8.8` would pass as 8.8.8.8), but not `::808:808`.
 */
function hexIpv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

export function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * The static part of the policy for a URL someone configures: http(s) only, no userinfo, no
 * fragment, https unless the host is allowlisted, and an IP literal must be public unless
 * allowlisted. Returns the reason it is refused, naming `field`, or null.
 */
export function staticUrlProblem(raw: string, policy: OutboundPolicy, field = 'url'): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${field} must be an absolute http or https URL`;
  }
  // Checked on the text as sent too: `new URL` silently drops leading blanks, tabs and newlines.
  if (!isHttpUrl(raw)) {
    return `${field} must be an http or https URL`;
  }
  if (url.username || url.password) {
    return `${field} must not contain a user name or password`;
  }
  if (url.hash || raw.includes('#')) {
    return `${field} must not contain a fragment`;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowlisted = policy.isAllowlisted(host, defaultPort(url));
  if (url.protocol === 'http:' && !allowlisted) {
    return `${field} must use https (plain http only for hosts in OUTBOUND_ALLOWED_HOSTS)`;
  }
  if (ipaddr.isValid(host) && !allowlisted && !isPublicAddress(host)) {
    return `${field} points to a private or reserved address`;
  }
  return null;
}

/** `staticUrlProblem` plus DNS: every address a name resolves to must be public unless the host is allowlisted. */
export async function urlAllowed(raw: string, policy: OutboundPolicy): Promise<boolean> {
  if (staticUrlProblem(raw, policy)) {
    return false;
  }
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (policy.isAllowlisted(host, defaultPort(url)) || ipaddr.isValid(host)) {
    return true;
  }
  try {
    const addresses = await dnsLookupAll(host, { all: true });
    return addresses.length > 0 && addresses.every((entry) => isPublicAddress(entry.address));
  } catch {
    // A name that does not resolve is not refused here: the connect reports it as unreachable.
    return true;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `dns.lookup` that fails unless every address of the name is public. */
function publicOnlyLookup(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, []);
      return;
    }
    if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) {
      callback(new OutboundBlockedError(`${hostname} resolves to a private or reserved address`), []);
      return;
    }
    const [first] = addresses;
    if (options.all || !first) {
      callback(null, addresses);
    } else {
      callback(null, first.address, first.family);
    }
  });
}

type Connector = undici.buildConnector.connector;

function guardedConnector(buildConnector: typeof undici.buildConnector, policy: OutboundPolicy, timeoutMs: number): Connector {
  const direct = buildConnector({ timeout: timeoutMs });
  // biome-ignore lint/suspicious/noExplicitAny: net.connect's lookup option is typed for dns.lookup's overloads
  const resolving = buildConnector({ timeout: timeoutMs, lookup: publicOnlyLookup as any });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    const port = options.port ? Number(options.port) : options.protocol === 'https:' ? 443 : 80;
    const refuse = (reason: string) => {
      queueMicrotask(() => callback(new OutboundBlockedError(reason), null));
    };
    if (policy.isAllowlisted(host, port)) {
      return direct(options, callback);
    }
    if (options.protocol !== 'https:') {
      return refuse(`plain http to ${host} is not allowed`);
    }
    if (ipaddr.isValid(host)) {
      return isPublicAddress(host) ? direct(options, callback) : refuse(`${host} is a private or reserved address`);
    }
    return resolving(options, callback);
  };
}

export interface GuardedFetch {
  fetch: FetchLike;
  close(): Promise<void>;
}

/** undici, imported on the first request out: most processes never make one. */
const loadUndici = loadOnce(() => import('undici'));

/**
 * One pooled dispatcher per app (or worker), made on the first request. Responses are re-wrapped
 * as the global `Response` (the SDK tells OAuth error bodies apart with `instanceof Response`),
 * bodies other than event streams are capped, and a request gets `discoveryTimeoutMs` (plain GETs,
 * 5 s by default) or `headersTimeoutMs` (everything else, 10 s) until its headers.
 */
export function createGuardedFetch(policy: OutboundPolicy, options: GuardedFetchOptions = {}): GuardedFetch {
  const limits = { ...DEFAULTS, ...options };
  let dispatcher: undici.Agent | undefined;

  const guarded: FetchLike = async (url, init) => {
    const { Agent, buildConnector, fetch: undiciFetch } = await loadUndici();
    dispatcher ??= new Agent({
      connect: guardedConnector(buildConnector, policy, limits.connectTimeoutMs),
      headersTimeout: limits.headersTimeoutMs,
      bodyTimeout: limits.bodyTimeoutMs,
    });
    const headers = new Headers(init?.headers);
    const method = (init?.method ?? 'GET').toUpperCase();
    const streaming = (headers.get('accept') ?? '').includes('text/event-stream');
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException('The request timed out', 'TimeoutError')),
      method === 'GET' && !streaming ? limits.discoveryTimeoutMs : limits.headersTimeoutMs,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the global RequestInit and undici's differ only in nominal types
      const response = await undiciFetch(url, { ...(init as any), signal, dispatcher });
      return rewrap(response, limits);
    } finally {
      clearTimeout(timer);
    }
  };

  return { fetch: guarded, close: async () => dispatcher?.close() };
}

function rewrap(response: undici.Response, limits: Required<GuardedFetchOptions>): Response {
  const contentType = response.headers.get('content-type') ?? '';
  const declared = Number(response.headers.get('content-length') ?? '0');
  const truncate = limits.oversizedResponse === 'truncate';
  if (declared > limits.maxResponseBytes && !truncate) {
    void response.body?.cancel();
    throw new ResponseTooLargeError('response too large');
  }
  let body: ReadableStream<Uint8Array> | null = NULL_BODY_STATUSES.has(response.status)
    ? null
    : (response.body as ReadableStream<Uint8Array> | null);
  if (body && !contentType.includes('text/event-stream')) {
    body = body.pipeThrough(capped(limits.maxResponseBytes, truncate));
  }
  const wrapped = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers as unknown as Headers,
  });
  Object.defineProperty(wrapped, 'url', { value: response.url });
  Object.defineProperty(wrapped, 'redirected', { value: response.redirected });
  return wrapped;
}

/** Passes the first `limit` bytes; past them, fails the read, or with `truncate` ends the body there. */
function capped(limit: number, truncate: boolean): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      if (seen >= limit) {
        return;
      }
      seen += chunk.byteLength;
      if (seen <= limit) {
        controller.enqueue(chunk);
      } else if (truncate) {
        controller.enqueue(chunk.subarray(0, chunk.byteLength - (seen - limit)));
        controller.terminate();
      } else {
        controller.error(new ResponseTooLargeError('response too large'));
      }
    },
  });
}

/** Whether an error (or any error in its `cause` chain) is the policy refusing a destination. */
export function isBlockedError(error: unknown): boolean {
  return causeChain(error).some((entry) => (entry as { code?: string }).code === 'ERR_OUTBOUND_BLOCKED');
}

export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * A fetch for one operation that remembers whether the policy refused anything (the SDK swallows
 * some failed metadata fetches, and the operation's error should still say why) and which bearer
 * token a server last answered 401 to (the token actually sent, not whatever is stored by then).
 */
export function trackingFetch(base: FetchLike): { fetch: FetchLike; blocked(): boolean; rejectedBearer(): string | undefined } {
  let blocked = false;
  let rejected: string | undefined;
  return {
    fetch: async (url, init) => {
      try {
        const response = await base(url, init);
        if (response.status === 401) {
          const authorization = new Headers(init?.headers).get('authorization');
          rejected = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : rejected;
        }
        return response;
      } catch (error) {
        if (isBlockedError(error)) {
          blocked = true;
        }
        throw error;
      }
    },
    blocked: () => blocked,
    rejectedBearer: () => rejected,
  };
}
