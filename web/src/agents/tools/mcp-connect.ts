/**
 * The MCP authorization popup. "Connect" opens a window at once (a popup opened after an await is
 * blocked), points it at the authorization server, and waits: the console's return page
 * (`McpConnectedPage`, where the callback sends the browser) says how it went on a
 * BroadcastChannel and closes; a window closed before that is a cancelled authorization.
 */

/** The channel the return page and the agent's page share (same origin only). */
export const MCP_CONNECT_CHANNEL = 'switchboard-mcp-connect';

export type CallbackStatus = 'connected' | 'auth_required' | 'error';

export interface CallbackNews {
  status: CallbackStatus;
  agentId: string;
  serverId: string;
}

export type PopupOutcome = CallbackNews | { status: 'cancelled' };

const CLOSED_POLL_MS = 400;
const STATUSES: readonly string[] = ['connected', 'auth_required', 'error'];

/** The return page's news from its query string, or null when it is not a callback's. */
export function callbackNewsOf(search: URLSearchParams): CallbackNews | null {
  const status = search.get('mcp');
  const agentId = search.get('agent_id');
  const serverId = search.get('server_id');
  if (!status || !STATUSES.includes(status) || !agentId || !serverId) {
    return null;
  }
  return { status: status as CallbackStatus, agentId, serverId };
}

/** Opens the (blank) authorization window; null when the browser blocked it. */
export function openAuthorizationWindow(): Window | null {
  return window.open('about:blank', 'switchboard-mcp-authorization', 'popup,width=520,height=720');
}

/**
 * Sends the window to the authorization URL and resolves with the callback's news for this server,
 * or `cancelled` once the window is closed without any.
 */
export function awaitAuthorization(popup: Window, authorizationUrl: string, serverId: string): Promise<PopupOutcome> {
  // The authorization server's pages get no handle on the console.
  popup.opener = null;
  popup.location.href = authorizationUrl;
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(MCP_CONNECT_CHANNEL);
    const finish = (outcome: PopupOutcome) => {
      channel.close();
      window.clearInterval(watch);
      resolve(outcome);
    };
    channel.onmessage = (event: MessageEvent<CallbackNews>) => {
      if (event.data?.serverId === serverId) {
        finish(event.data);
      }
    };
    const watch = window.setInterval(() => {
      if (popup.closed) {
        // The news may still be on its way: give the channel one more turn.
        window.setTimeout(() => finish({ status: 'cancelled' }), CLOSED_POLL_MS);
        window.clearInterval(watch);
      }
    }, CLOSED_POLL_MS);
  });
}
