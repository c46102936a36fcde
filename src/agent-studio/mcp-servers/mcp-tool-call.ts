import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { trackingFetch, urlAllowed } from '../../lib/guarded-fetch.js';
import { describeFailure, MESSAGES } from './connect.js';
import { type McpRuntime, type ServerAuth, serverAuth } from './mcp-runtime.js';
import { loadMcpSdk } from './mcp-sdk.js';
import { findCredentials, type McpServerRow } from './mcp-server.repository.js';
import { McpOAuthProvider, refreshTokensOnce, tokensExpiring } from './oauth.js';

const CLIENT_INFO = { name: 'switchboard', version: '0.1.0' };
/** The SDK's own per-request timeout, far past any tool timeout: the caller's signal ends a call. */
const REQUEST_TIMEOUT_MS = 3_600_000;

/** Why a tool call failed, in words the run records and the model reads. */
export class McpToolCallError extends Error {
  override readonly name = 'McpToolCallError';
}

type Outcome = { kind: 'done'; result: unknown } | { kind: 'unauthorized' };

/**
 * Calls one tool of a connected MCP server during a run, with the credentials the connect stored:
 * its static header, or its OAuth tokens, refreshed first when about to lapse and once more
 * (single-flight, as the connect does) when the server refuses the access token. A server that
 * still refuses needs a person to authorise it again, and the error says so.
 */
export async function callMcpServerTool(
  runtime: McpRuntime,
  server: McpServerRow,
  toolName: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<unknown> {
  if (!(await urlAllowed(server.url, runtime.policy))) {
    throw new McpToolCallError(`MCP server '${server.name}': ${MESSAGES.urlNotAllowed}`);
  }
  const settings = serverAuth(runtime, server);
  const oauth = !settings.header && server.auth_type === 'oauth';
  const refreshOptions = { fetchFn: runtime.outbound.fetch, staticClient: settings.staticClient };
  if (oauth) {
    const credentials = await findCredentials(runtime.db, server.id);
    if (credentials?.tokens_encrypted && tokensExpiring(credentials.expires_at, runtime.clock)) {
      await refreshTokensOnce(runtime.oauth, server, { kind: 'expiring' }, refreshOptions);
    }
  }
  const first = await attempt(runtime, server, settings, oauth, toolName, args, signal);
  if (first.outcome.kind === 'done') {
    return first.outcome.result;
  }
  const rejected = first.rejectedBearer;
  if (oauth && rejected) {
    const refresh = await refreshTokensOnce(runtime.oauth, server, { kind: 'rejected', accessToken: rejected }, refreshOptions);
    if (refresh.kind === 'refreshed' || refresh.kind === 'fresh') {
      const second = await attempt(runtime, server, settings, oauth, toolName, args, signal);
      if (second.outcome.kind === 'done') {
        return second.outcome.result;
      }
    }
  }
  throw new McpToolCallError(
    `MCP server '${server.name}' needs to be authorised again: an admin of the agent must connect it (POST /api/v1/mcp/agents/{agent_id}/servers/{server_id}/connect)`,
  );
}

async function attempt(
  runtime: McpRuntime,
  server: McpServerRow,
  settings: ServerAuth,
  oauth: boolean,
  toolName: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ outcome: Outcome; rejectedBearer: string | undefined }> {
  const sdk = await loadMcpSdk();
  const tracker = trackingFetch(runtime.outbound.fetch);
  const transportOptions = {
    fetch: tracker.fetch,
    ...(oauth
      ? {
          authProvider: new McpOAuthProvider(runtime.oauth, server, {
            mode: 'probe',
            staticClient: settings.staticClient,
            scope: settings.scope,
          }),
        }
      : {}),
    ...(settings.header ? { requestInit: { headers: { [settings.header.name]: settings.header.value } } } : {}),
  };
  const transport =
    server.transport === 'sse'
      ? new sdk.sse.SSEClientTransport(new URL(server.url), transportOptions)
      : new sdk.streamableHttp.StreamableHTTPClientTransport(new URL(server.url), transportOptions);
  const client: Client = new sdk.client.Client(CLIENT_INFO);
  try {
    await client.connect(transport, { signal, timeout: REQUEST_TIMEOUT_MS });
    const result = await client.callTool({ name: toolName, arguments: args }, undefined, { signal, timeout: REQUEST_TIMEOUT_MS });
    if (transport instanceof sdk.streamableHttp.StreamableHTTPClientTransport && transport.sessionId) {
      await transport.terminateSession().catch(() => undefined);
    }
    return { outcome: { kind: 'done', result: toolResult(server, result) }, rejectedBearer: undefined };
  } catch (error) {
    if (error instanceof McpToolCallError || signal.aborted) {
      throw error;
    }
    const status = (error as { code?: unknown }).code;
    if (error instanceof sdk.clientAuth.UnauthorizedError || (!oauth && (status === 401 || status === 403))) {
      return { outcome: { kind: 'unauthorized' }, rejectedBearer: tracker.rejectedBearer() };
    }
    if (
      error instanceof sdk.types.McpError &&
      error.code !== sdk.types.ErrorCode.RequestTimeout &&
      error.code !== sdk.types.ErrorCode.ConnectionClosed
    ) {
      // The server answered the call with a JSON-RPC error (an unknown tool, bad arguments): its words.
      throw new McpToolCallError(`MCP server '${server.name}' refused the call: ${error.message.slice(0, 500)}`);
    }
    const described = await describeFailure(error, tracker.blocked());
    throw new McpToolCallError(`MCP server '${server.name}' failed: ${described.message}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

interface CallResult {
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** Structured content when the tool gives it, else its text, else its content blocks as they are. */
function toolResult(server: McpServerRow, raw: unknown): unknown {
  const result = raw as CallResult;
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.every((block) => block.type === 'text') ? content.map((block) => block.text ?? '').join('\n') : null;
  if (result.isError) {
    throw new McpToolCallError(
      `The tool of MCP server '${server.name}' reported an error: ${(text ?? JSON.stringify(content)).slice(0, 1000)}`,
    );
  }
  if (result.structuredContent !== undefined) {
    return result.structuredContent;
  }
  return text ?? content;
}
