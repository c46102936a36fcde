import { request } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { DatasetLocation } from './datasets.js';
import { api, type BenchServer, switchboardCli } from './servers.js';

/**
 * What `npm run bench:messenger` needs of the messenger: an organization whose help center has the
 * widget on (an agent, a handoff team), visitors with handed-off conversations, the panels' live
 * streams as the panel opens them, and the built files as they are served.
 */

export interface Organization {
  apiKey: string;
  organizationId: string;
}

export interface Messenger {
  organization: Organization;
  slug: string;
}

/** A visitor's conversation, handed off to a person: `ticket` is the identifier (DESK-12) the handoff answers. */
export interface ChatConversation {
  visitorToken: string;
  conversationId: string;
  ticket: string;
}

/** The organization, made by the CLI as bench:stream makes its own, then its team and help center through the API. */
export async function createOrganization(location: DatasetLocation): Promise<Organization> {
  const out = await switchboardCli(location, ['orgs', 'create', '--name', 'Chat', '--admin-email', 'admin@chat.test', '--json']);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as Organization;
}

/**
 * A team that takes handoffs and a help center whose widget names it and an agent. The agent's model
 * provider is at an address that never resolves: nothing here asks the agent, conversations are handed off directly.
 */
export async function enableWidget(server: BenchServer, organization: Organization): Promise<Messenger> {
  const { apiKey } = organization;
  const team = await api<{ data: { id: string } }>(server, apiKey, 'POST', '/v1/teams', {
    name: 'Front desk',
    identifier: 'DESK',
  });
  const provider = await api<{ id: string }>(server, apiKey, 'POST', '/api/v1/model-providers', {
    name: 'Unused',
    kind: 'openai_compatible',
    base_url: 'https://models.invalid/v1',
    api_key: 'sk-unused',
    default_model: 'unused',
  });
  const agent = await api<{ id: string }>(server, apiKey, 'POST', '/api/v1/agents', {
    name: 'Answers',
    configuration: { model_provider_id: provider.id },
  });
  const helpCenter = await api<{ data: { _id: string; slug: string } }>(server, apiKey, 'POST', '/help-centers', {
    name: 'Chat bench',
  });
  await api(server, apiKey, 'PATCH', `/help-centers/${helpCenter.data._id}`, {
    widget: { enabled: true, agentId: agent.id, handoffTeamId: team.data.id },
  });
  return { organization, slug: helpCenter.data.slug };
}

/** A request of the panel's own API, with the visitor's token; throws unless it answers `expected`. */
async function panelApi<T>(server: BenchServer, slug: string, token: string | null, path: string, expected: number): Promise<T> {
  const response = await fetch(`${server.baseUrl}/widget/${slug}/api${path}`, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
    },
    body: '{}',
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  if (response.status !== expected) {
    throw new Error(`POST /widget/${slug}/api${path} answered ${response.status}: ${text.slice(0, 500)}`);
  }
  return JSON.parse(text) as T;
}

/** One visitor (a new anonymous token) with one conversation, handed to a person without asking the agent. */
async function handedOffConversation(server: BenchServer, slug: string): Promise<ChatConversation> {
  const { visitorToken } = await panelApi<{ visitorToken: string }>(server, slug, null, '/visitors', 201);
  const opened = await panelApi<{ conversation: { id: string } }>(server, slug, visitorToken, '/conversations', 201);
  const conversationId = opened.conversation.id;
  const handed = await panelApi<{ conversation: { handoff: { ticket: string } | null } }>(
    server,
    slug,
    visitorToken,
    `/conversations/${conversationId}/handoff`,
    201,
  );
  const ticket = handed.conversation.handoff?.ticket;
  if (!ticket) {
    throw new Error(`the handoff of ${conversationId} answered no ticket`);
  }
  return { visitorToken, conversationId, ticket };
}

/** `count` visitors with a handed-off conversation each, `concurrency` made at a time. */
export async function handedOffConversations(
  server: BenchServer,
  slug: string,
  count: number,
  concurrency = 10,
): Promise<ChatConversation[]> {
  const made: ChatConversation[] = [];
  for (let start = 0; start < count; start += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, count - start) }, () => handedOffConversation(server, slug));
    made.push(...(await Promise.all(batch)));
  }
  return made;
}

/** One open panel's live stream as this process reads it: when each message id arrived. */
export interface Panel {
  conversation: ChatConversation;
  /** performance.now() at each `message` event, by the message's id. */
  arrivals: Map<string, number>;
  /** `conversation` events (the handoff changed): none is expected while measuring. */
  conversationEvents: number;
  ended: boolean;
  close(): void;
}

/**
 * Opens `tabs` panels on each conversation (a visitor with several tabs), `batch` at a time, each on
 * a connection of its own; resolves once every stream has sent its `: connected` comment.
 */
export async function openPanels(
  server: BenchServer,
  slug: string,
  conversations: readonly ChatConversation[],
  tabs: number,
  batch = 50,
): Promise<Panel[]> {
  const wanted = conversations.flatMap((conversation) => Array.from({ length: tabs }, () => conversation));
  const panels: Panel[] = [];
  for (let start = 0; start < wanted.length; start += batch) {
    const opening = wanted.slice(start, start + batch).map((conversation) => openPanel(server.baseUrl, slug, conversation));
    panels.push(...(await Promise.all(opening)));
  }
  return panels;
}

function openPanel(baseUrl: string, slug: string, conversation: ChatConversation): Promise<Panel> {
  const url = `${baseUrl}/widget/${slug}/api/conversations/${conversation.conversationId}/events`;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { agent: false, headers: { authorization: `Bearer ${conversation.visitorToken}`, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`a panel's stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        const panel: Panel = {
          conversation,
          arrivals: new Map(),
          conversationEvents: 0,
          ended: false,
          close: () => outgoing.destroy(),
        };
        const parser = createParser({
          onComment: (comment) => {
            if (comment.trim() === 'connected') {
              resolve(panel);
            }
          },
          onEvent: (event) => {
            if (event.event === 'message') {
              const { message } = JSON.parse(event.data) as { message: { id: string } };
              panel.arrivals.set(message.id, performance.now());
            } else if (event.event === 'conversation') {
              panel.conversationEvents += 1;
            }
          },
        });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => parser.feed(chunk));
        response.on('close', () => {
          panel.ended = true;
          reject(new Error('a panel stream closed before it was connected'));
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

export function closePanels(panels: readonly Panel[]): void {
  for (const panel of panels) {
    panel.close();
  }
}

/** A built file of the messenger as served: its bytes on the wire gzipped (as browsers ask) and not. */
export interface ServedSize {
  path: string;
  gzippedBytes: number;
  plainBytes: number;
}

export const WIDGET_PATHS = ['/widget.js', '/widget-assets/panel.js', '/widget-assets/panel.css'] as const;

/** The three built files' sizes as the running server sends them (bytes of the body, not decoded). */
export async function servedSizes(server: BenchServer): Promise<ServedSize[]> {
  const sizes: ServedSize[] = [];
  for (const path of WIDGET_PATHS) {
    const gzipped = await rawBody(`${server.baseUrl}${path}`, 'gzip');
    if (gzipped.encoding !== 'gzip') {
      throw new Error(`${path} was not sent gzipped to a client that takes gzip`);
    }
    const plain = await rawBody(`${server.baseUrl}${path}`, 'identity');
    sizes.push({ path, gzippedBytes: gzipped.bytes, plainBytes: plain.bytes });
  }
  return sizes;
}

/** GET with the given Accept-Encoding; the body's length as received (node's http does not decode it). */
function rawBody(url: string, acceptEncoding: string): Promise<{ bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`GET ${url} answered ${response.statusCode}`));
        response.resume();
        return;
      }
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
