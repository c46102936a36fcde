import { createServer, type Server } from 'node:http';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { Server as LowLevelServer } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Express, Request, Response } from 'express';
import * as z from 'zod';
import { closeServer, listen, SCOPES, type TestAuthorizationServer } from './authorization-server.js';

/**
 * Real MCP servers on loopback (mcp-connect.md §10): a public one, one protected by the test
 * authorization server, an SSE-only legacy one, and the failure cases (bare 401, an HTML page).
 * Each counts the TCP connections it accepted, so a test can tell that nothing reached it.
 */

export interface TestMcpServer {
  /** The MCP endpoint URL. */
  url: string;
  connections(): number;
  close(): Promise<void>;
}

function newMcpServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1.2.3' });
  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Answers with its input', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }),
  );
  return server;
}

/** Stateless Streamable HTTP: a fresh server and transport per request. */
function handleMcp(name: string) {
  return async (request: Request, response: Response) => {
    const server = newMcpServer(name);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  };
}

const methodNotAllowed = (_request: Request, response: Response) => {
  response.status(405).set('allow', 'POST').end();
};

async function serve(app: Express, path: string): Promise<TestMcpServer & { server: Server; port: number }> {
  const server = createServer(app);
  let connections = 0;
  server.on('connection', () => {
    connections++;
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}${path}`,
    server,
    port,
    connections: () => connections,
    close: () => closeServer(server),
  };
}

/** No OAuth; with `requireHeader`, a request without that exact header gets a bare 401. */
export async function startPublicMcpServer(
  options: { requireHeader?: { name: string; value: string } } = {},
): Promise<TestMcpServer> {
  const app = createMcpExpressApp();
  const required = options.requireHeader;
  if (required) {
    app.use('/mcp', (request, response, next) => {
      if (request.get(required.name) !== required.value) {
        response.status(401).json({ error: 'unauthorized' });
        return;
      }
      next();
    });
  }
  app.post('/mcp', handleMcp('public-test-server'));
  app.get('/mcp', methodNotAllowed);
  app.delete('/mcp', methodNotAllowed);
  return serve(app, '/mcp');
}

export interface ProtectedServerOptions {
  /** The `resource` its metadata claims (default: its own URL). */
  resource?: string;
  /** The authorization server its metadata names (default: the test AS). */
  authorizationServer?: string;
  /** The audience its bearer check insists on (default: its own URL). */
  expectedResource?: string;
}

/** An MCP server that wants a bearer token from `as`, with RFC 9728 metadata pointing there. */
export async function startProtectedMcpServer(
  as: TestAuthorizationServer,
  options: ProtectedServerOptions = {},
): Promise<TestMcpServer> {
  const app = createMcpExpressApp();
  const served = await serve(app, '/mcp');
  const mcpUrl = new URL(served.url);
  const oauthMetadata = createOAuthMetadata({
    provider: as.provider,
    issuerUrl: new URL(options.authorizationServer ?? as.url),
    scopesSupported: SCOPES,
  });
  app.use(
    mcpAuthMetadataRouter({
      oauthMetadata,
      resourceServerUrl: options.resource ? new URL(options.resource) : mcpUrl,
      scopesSupported: SCOPES,
    }),
  );
  const bearer = requireBearerAuth({
    verifier: as.provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    expectedResource: options.expectedResource ? new URL(options.expectedResource) : mcpUrl,
  });
  app.post('/mcp', bearer, handleMcp('protected-test-server'));
  app.get('/mcp', methodNotAllowed);
  app.delete('/mcp', methodNotAllowed);
  return served;
}

/**
 * Initialize is open to anyone, the tool list is not: without a valid bearer token `tools/list`
 * answers a JSON-RPC "Unauthorized" error. Its metadata points at `as` like the protected server.
 */
export async function startToolAuthMcpServer(as: TestAuthorizationServer): Promise<TestMcpServer> {
  const app = createMcpExpressApp();
  const served = await serve(app, '/mcp');
  const mcpUrl = new URL(served.url);
  app.use(
    mcpAuthMetadataRouter({
      oauthMetadata: createOAuthMetadata({ provider: as.provider, issuerUrl: new URL(as.url), scopesSupported: SCOPES }),
      resourceServerUrl: mcpUrl,
      scopesSupported: SCOPES,
    }),
  );
  const bearer = requireBearerAuth({ verifier: as.provider, expectedResource: mcpUrl });
  const optionalBearer = (request: Request, response: Response, next: () => void) =>
    request.headers.authorization ? bearer(request, response, next) : next();
  app.post('/mcp', optionalBearer, async (request, response) => {
    const server = new LowLevelServer({ name: 'tool-auth-test-server', version: '1.2.3' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      if (!extra.authInfo) {
        throw new McpError(ErrorCode.InvalidRequest, 'Unauthorized: sign in to list tools');
      }
      return { tools: [{ name: 'search', description: 'Searches', inputSchema: { type: 'object' as const } }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  app.get('/mcp', methodNotAllowed);
  return served;
}

/** The legacy HTTP+SSE transport only: GET /sse opens the stream, POST /messages carries requests. */
export async function startSseOnlyMcpServer(): Promise<TestMcpServer> {
  const app = createMcpExpressApp();
  const transports = new Map<string, SSEServerTransport>();
  app.get('/sse', async (_request, response) => {
    const transport = new SSEServerTransport('/messages', response);
    transports.set(transport.sessionId, transport);
    response.on('close', () => transports.delete(transport.sessionId));
    await newMcpServer('sse-test-server').connect(transport);
  });
  app.post('/messages', async (request, response) => {
    const transport = transports.get(String(request.query.sessionId));
    if (!transport) {
      response.status(404).end();
      return;
    }
    await transport.handlePostMessage(request, response, request.body);
  });
  return serve(app, '/sse');
}

/** Answers 401 with no WWW-Authenticate and no metadata anywhere. */
export async function startBareUnauthorizedServer(): Promise<TestMcpServer> {
  const app = createMcpExpressApp();
  app.all('/mcp', (_request, response) => {
    response.status(401).json({ error: 'unauthorized' });
  });
  return serve(app, '/mcp');
}

/** A web page, not an MCP endpoint. */
export async function startHtmlServer(): Promise<TestMcpServer> {
  const app = createMcpExpressApp();
  app.all('/page', (_request, response) => {
    response.type('html').send('<!doctype html><html><body>Welcome</body></html>');
  });
  return serve(app, '/page');
}
