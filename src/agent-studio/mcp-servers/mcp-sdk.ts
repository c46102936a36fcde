import type * as clientAuth from '@modelcontextprotocol/sdk/client/auth.js';
import type * as client from '@modelcontextprotocol/sdk/client/index.js';
import type * as sse from '@modelcontextprotocol/sdk/client/sse.js';
import type * as streamableHttp from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as authErrors from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type * as types from '@modelcontextprotocol/sdk/types.js';
import { loadOnce } from '../../lib/load-once.js';

/** The parts of the MCP SDK the agent studio uses. */
export interface McpSdk {
  clientAuth: typeof clientAuth;
  client: typeof client;
  sse: typeof sse;
  streamableHttp: typeof streamableHttp;
  authErrors: typeof authErrors;
  types: typeof types;
}

/**
 * The MCP SDK, imported when a process first connects to an MCP server, completes, refreshes or
 * revokes an authorization: most processes never do, yet every start paid for importing it.
 * An SDK error can only exist once this has loaded, so code that tells them apart awaits it too.
 */
export const loadMcpSdk = loadOnce(async (): Promise<McpSdk> => {
  const [clientAuthModule, clientModule, sseModule, streamableHttpModule, authErrorsModule, typesModule] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/auth.js'),
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/server/auth/errors.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    clientAuth: clientAuthModule,
    client: clientModule,
    sse: sseModule,
    streamableHttp: streamableHttpModule,
    authErrors: authErrorsModule,
    types: typesModule,
  };
});
