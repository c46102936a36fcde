import { createServer, type IncomingHttpHeaders } from 'node:http';
import { signSlackRequest } from '../src/channels/slack/slack-signature.js';
import { closeServer, listen } from './mcp/authorization-server.js';

/**
 * Slack's Web API on loopback (`POST /api/<method>`, form or JSON bodies, `Authorization: Bearer`),
 * answering with Slack's shapes: `{ok: true, …}`, or `{ok: false, error}` with HTTP 200, and
 * `ratelimited` as HTTP 429 with `Retry-After`. Each test scripts the answers of the methods it
 * uses, in order per method; a method with nothing scripted answers `{ok: false, error:
 * "unknown_method"}` so an unexpected call fails visibly. Every call is recorded. `sendEvent` posts
 * an Events API envelope to Switchboard signed as Slack signs it.
 */

export type SlackAnswer =
  | { ok: true; [field: string]: unknown }
  | { ok: false; error: string; [field: string]: unknown }
  | { ratelimited: true; retryAfterSeconds: number };

export interface SlackCall {
  method: string;
  token: string | null;
  params: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

export interface TestSlackServer {
  /** What SLACK_API_URL is set to: ends in `/api/`. */
  apiUrl: string;
  /** What SLACK_AUTHORIZE_URL is set to (nothing is served there: the tests read the redirect). */
  authorizeUrl: string;
  calls: SlackCall[];
  /** Queues answers for `method`, used one per call in order; a function answers from the call. */
  script(method: string, ...answers: (SlackAnswer | ((call: SlackCall) => SlackAnswer))[]): void;
  /**
   * Serves `data` at `GET /files/<name>` to a request with `Authorization: Bearer <token>` (else 403),
   * as `url_private`; answers that URL. Downloads are recorded in `calls` as method `files/<name>`.
   */
  serveFile(name: string, data: Buffer, token: string): string;
  close(): Promise<void>;
}

export async function startSlackServer(): Promise<TestSlackServer> {
  const scripts = new Map<string, (SlackAnswer | ((call: SlackCall) => SlackAnswer))[]>();
  const calls: SlackCall[] = [];
  const files = new Map<string, { data: Buffer; token: string }>();
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url?.startsWith('/files/')) {
      const name = request.url.slice('/files/'.length);
      const file = files.get(name);
      calls.push({ method: `files/${name}`, token: null, params: {}, headers: request.headers });
      const authorized = file && request.headers.authorization === `Bearer ${file.token}`;
      response.writeHead(authorized ? 200 : 403, { 'content-type': 'application/octet-stream' });
      response.end(authorized ? file.data : undefined);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
      const text = Buffer.concat(chunks).toString('utf8');
      const params: Record<string, unknown> = (request.headers['content-type'] ?? '').includes('application/json')
        ? (JSON.parse(text || '{}') as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(text));
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? null;
      const call: SlackCall = {
        method,
        token: bearer ?? (typeof params.token === 'string' ? params.token : null),
        params,
        headers: request.headers,
      };
      calls.push(call);
      const next = scripts.get(method)?.shift();
      const answer = typeof next === 'function' ? next(call) : (next ?? { ok: false, error: 'unknown_method' });
      if ('ratelimited' in answer) {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(answer.retryAfterSeconds) });
        response.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(answer));
    });
  });
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    apiUrl: `${origin}/api/`,
    authorizeUrl: `${origin}/oauth/v2/authorize`,
    calls,
    script(method, ...answers) {
      scripts.set(method, [...(scripts.get(method) ?? []), ...answers]);
    },
    serveFile(name, data, token) {
      files.set(name, { data, token });
      return `${origin}/files/${name}`;
    },
    close: () => closeServer(server),
  };
}

/** The headers Slack sends with a body: its signature at `timestamp` (seconds), and a retry's number. */
export function slackHeaders(
  signingSecret: string,
  body: string,
  options: { timestamp: number; retryNum?: number; contentType?: string },
): Record<string, string> {
  const timestamp = String(options.timestamp);
  return {
    'content-type': options.contentType ?? 'application/json',
    'x-slack-request-timestamp': timestamp,
    'x-slack-signature': signSlackRequest(signingSecret, timestamp, body),
    ...(options.retryNum === undefined
      ? {}
      : { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' }),
  };
}

/**
 * An interactivity request as Slack posts it (a click on a message's button): the form with its one
 * `payload` field, and the headers signing it at `timestamp` (seconds). Hand both to `app.inject`.
 */
export function slackInteraction(
  signingSecret: string,
  payload: object,
  options: { timestamp: number },
): { payload: string; headers: Record<string, string> } {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  return {
    payload: body,
    headers: slackHeaders(signingSecret, body, { ...options, contentType: 'application/x-www-form-urlencoded' }),
  };
}

/** What `users.info` answers for a person of workspace `teamId` whose profile shows `email` (none: null). */
export function slackPerson(id: string, teamId: string, email: string | null): SlackAnswer {
  return {
    ok: true,
    user: { id, team_id: teamId, name: id.toLowerCase(), deleted: false, is_bot: false, profile: email ? { email } : {} },
  };
}
