import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { causeChain, isBlockedError } from '../../lib/guarded-fetch.js';
import { loadMcpSdk, type McpSdk } from './mcp-sdk.js';

/**
 * Speaking MCP to a server once (mcp-connect.md §3 step 5): Streamable HTTP, falling back to the
 * legacy SSE transport when the endpoint answers 400, 404 or 405; on success the tools are listed
 * and the session ended. Nothing here touches the database.
 */

const CONNECT_TIMEOUT_MS = 10_000;
const MAX_TOOL_PAGES = 20;
const MAX_TOOLS = 1000;
const CLIENT_INFO = { name: 'switchboard', version: '0.1.0' };

export type McpTransportKind = 'streamable_http' | 'sse';

export interface DiscoveredTool {
  name: string;
  title: string | null;
  description: string | null;
  input_schema: Record<string, unknown>;
}

export type ProbeResult =
  | { kind: 'connected'; transport: McpTransportKind; serverName: string; serverVersion: string; tools: DiscoveredTool[] }
  /** The server wants authorization; with a provider, the SDK has prepared an authorization URL on it. */
  | { kind: 'unauthorized'; transport: McpTransportKind }
  | { kind: 'failed'; transport: McpTransportKind; error: unknown };

export interface ProbeOptions {
  fetch: FetchLike;
  authProvider?: OAuthClientProvider;
  /** A static header sent on every request. */
  headers?: Record<string, string>;
}

export async function probeServer(url: string, options: ProbeOptions): Promise<ProbeResult> {
  const sdk = await loadMcpSdk();
  const first = await probeWith(sdk, 'streamable_http', url, options);
  if (
    first.kind === 'failed' &&
    first.error instanceof sdk.streamableHttp.StreamableHTTPError &&
    [400, 404, 405].includes(first.error.code ?? 0)
  ) {
    return probeWith(sdk, 'sse', url, options);
  }
  return first;
}

async function probeWith(sdk: McpSdk, kind: McpTransportKind, url: string, options: ProbeOptions): Promise<ProbeResult> {
  const { StreamableHTTPClientTransport } = sdk.streamableHttp;
  const { UnauthorizedError } = sdk.clientAuth;
  const client = new sdk.client.Client(CLIENT_INFO);
  const transportOptions = {
    authProvider: options.authProvider,
    fetch: options.fetch,
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  };
  const transport =
    kind === 'streamable_http'
      ? new StreamableHTTPClientTransport(new URL(url), transportOptions)
      : new sdk.sse.SSEClientTransport(new URL(url), transportOptions);
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    const tools = await listTools(client).catch(async (error: unknown) => {
      // Initialize was open to anyone but the tools are not: run the OAuth discovery now.
      if (options.authProvider && isToolAuthError(sdk, error)) {
        const result = await sdk.clientAuth.auth(options.authProvider, { serverUrl: url, fetchFn: options.fetch });
        throw result === 'REDIRECT' ? new UnauthorizedError() : error;
      }
      throw error;
    });
    const info = client.getServerVersion();
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      // A 405 means the server keeps no sessions to end; anything else is its business.
      await transport.terminateSession().catch(() => undefined);
    }
    return {
      kind: 'connected',
      transport: kind,
      serverName: info?.name ?? 'MCP server',
      serverVersion: info?.version ?? '',
      tools,
    };
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      return { kind: 'unauthorized', transport: kind };
    }
    return { kind: 'failed', transport: kind, error };
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function listTools(client: Client): Promise<DiscoveredTool[]> {
  if (!client.getServerCapabilities()?.tools) {
    return [];
  }
  const tools: DiscoveredTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES && tools.length < MAX_TOOLS; page++) {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: CONNECT_TIMEOUT_MS });
    for (const tool of result.tools) {
      tools.push({
        name: tool.name,
        title: tool.title ?? tool.annotations?.title ?? null,
        description: tool.description ?? null,
        input_schema: tool.inputSchema as Record<string, unknown>,
      });
    }
    cursor = result.nextCursor;
    if (!cursor) {
      break;
    }
  }
  return tools.slice(0, MAX_TOOLS);
}

/** A JSON-RPC error of a tool listing that says the caller is not authorized. */
function isToolAuthError(sdk: McpSdk, error: unknown): boolean {
  return (
    error instanceof sdk.types.McpError &&
    /unauthori[sz]ed|unauthenticated|authentication required|forbidden/i.test(error.message)
  );
}

/** A failure worded for the caller: fixed phrases only, never an upstream body or description. */
export interface FailureDescription {
  message: string;
  /** 400 policy, 502 upstream, 504 timeout. */
  httpStatus: 400 | 502 | 504;
  /** The failure came from OAuth discovery: the cached discovery state should be dropped. */
  discoveryProblem?: boolean;
}

export const MESSAGES = {
  urlNotAllowed: 'server URL not allowed',
  blocked: 'blocked by network policy',
  unreachable: 'server unreachable',
  timeout: 'timeout',
  notMcp: 'URL is not an MCP endpoint',
  noMetadata: 'server requires auth but advertises no OAuth metadata; configure a static token',
  noRegistration: 'configure a pre-registered client_id',
  noS256: 'PKCE S256 not supported',
  resourceMismatch: 'resource metadata not bound to this server',
  tokenRejected: 'token rejected after authorization (audience or resource misconfigured)',
  protocolVersion: 'protocol version not supported',
  headerRejected: 'server rejected the configured header',
  issuerMismatch: 'authorization server metadata does not match its issuer',
  endpointMismatch: 'authorization URL does not match the authorization endpoint',
  registrationFailed: 'client registration rejected by the authorization server',
  authorizationServerError: 'authorization server error',
  refreshFailed: 'token refresh failed',
  denied: 'authorization denied',
  codeRejected: 'authorization code rejected; connect again',
  insufficientScope: 'insufficient scope',
  tooLarge: 'response too large',
  failed: 'connection failed',
} as const;

export async function describeFailure(error: unknown, blocked: boolean): Promise<FailureDescription> {
  if (blocked || isBlockedError(error)) {
    return { message: MESSAGES.blocked, httpStatus: 400 };
  }
  const sdk = await loadMcpSdk();
  const { StreamableHTTPError } = sdk.streamableHttp;
  const { InvalidClientMetadataError, OAuthError } = sdk.authErrors;
  const chain = causeChain(error);
  const codes = chain.map((entry) => (entry as { code?: unknown }).code);
  const names = chain.map((entry) => (entry as { name?: unknown }).name);
  if (
    (error instanceof sdk.types.McpError && error.code === sdk.types.ErrorCode.RequestTimeout) ||
    names.includes('TimeoutError') ||
    codes.includes('UND_ERR_CONNECT_TIMEOUT') ||
    codes.includes('UND_ERR_HEADERS_TIMEOUT') ||
    codes.includes('UND_ERR_BODY_TIMEOUT')
  ) {
    return { message: MESSAGES.timeout, httpStatus: 504 };
  }
  if (codes.includes('ERR_RESPONSE_TOO_LARGE')) {
    return { message: MESSAGES.tooLarge, httpStatus: 502 };
  }
  const text = error instanceof Error ? error.message : '';
  if (error instanceof StreamableHTTPError) {
    if (error.code === -1 && text.includes('Unexpected content type')) {
      return { message: MESSAGES.notMcp, httpStatus: 502 };
    }
    if (error.code === 401 && text.includes('after successful authentication')) {
      return { message: MESSAGES.tokenRejected, httpStatus: 502 };
    }
    if (error.code === 403 && text.includes('upscoping')) {
      return { message: MESSAGES.insufficientScope, httpStatus: 502 };
    }
    if (error.code === 401 || error.code === 403) {
      return { message: MESSAGES.headerRejected, httpStatus: 502 };
    }
    if (error.code === 400 || error.code === 404 || error.code === 405) {
      return { message: MESSAGES.notMcp, httpStatus: 502 };
    }
    return { message: `server answered HTTP ${error.code}`, httpStatus: 502 };
  }
  if (error instanceof sdk.sse.SseError) {
    if (error.code === 401 || error.code === 403) {
      return { message: MESSAGES.headerRejected, httpStatus: 502 };
    }
    return { message: MESSAGES.notMcp, httpStatus: 502 };
  }
  if (text.startsWith('Incompatible auth server: does not support dynamic client registration')) {
    return { message: MESSAGES.noRegistration, httpStatus: 502, discoveryProblem: true };
  }
  if (text.startsWith('Incompatible auth server: does not support code challenge method')) {
    return { message: MESSAGES.noS256, httpStatus: 502, discoveryProblem: true };
  }
  if (/^Protected resource .* does not match expected/.test(text)) {
    return { message: MESSAGES.resourceMismatch, httpStatus: 502, discoveryProblem: true };
  }
  if (text.startsWith("Server's protocol version is not supported")) {
    return { message: MESSAGES.protocolVersion, httpStatus: 502 };
  }
  if (error instanceof InvalidClientMetadataError) {
    return { message: MESSAGES.registrationFailed, httpStatus: 502, discoveryProblem: true };
  }
  if (error instanceof OAuthError) {
    return { message: MESSAGES.authorizationServerError, httpStatus: 502, discoveryProblem: true };
  }
  if (error instanceof TypeError || codes.some((code) => typeof code === 'string' && /^(E[A-Z]+|UND_ERR)/.test(code))) {
    return { message: MESSAGES.unreachable, httpStatus: 502 };
  }
  return { message: MESSAGES.failed, httpStatus: 502 };
}
