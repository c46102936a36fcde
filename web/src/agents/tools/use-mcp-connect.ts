import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { awaitAuthorization, openAuthorizationWindow, type PopupOutcome } from './mcp-connect';
import { connectMcpServer, type McpServer, mcpServersQuery } from './tool-queries';

export interface ConnectOutcome {
  ok: boolean;
  text: string;
}

const BLOCKED = 'The browser blocked the authorization window: allow pop-ups for this site, then press Connect again.';
const CANCELLED = 'Authorization was cancelled: its window was closed before it finished. The server stays disconnected.';

/** Endpoint 15 with its popup: connects, authorizes in a window when the server asks, and says how it went. */
export function useMcpConnect(server: McpServer) {
  const queryClient = useQueryClient();
  const [connecting, setConnecting] = useState(false);
  const [outcome, setOutcome] = useState<ConnectOutcome | null>(null);

  /** The server as stored now, after the callback wrote how it went. */
  const reread = async () => {
    const servers = await queryClient.fetchQuery({ ...mcpServersQuery(server.agent_id), staleTime: 0 });
    return servers.find((item) => item.id === server.id);
  };

  const afterPopup = async (news: PopupOutcome): Promise<ConnectOutcome> => {
    const fresh = await reread();
    if (news.status === 'cancelled' && fresh?.status !== 'connected') {
      return { ok: false, text: CANCELLED };
    }
    if (fresh?.status === 'connected') {
      return { ok: true, text: `Connected: ${fresh.tools_count} tools found.` };
    }
    return {
      ok: false,
      text: `Authorization failed: ${fresh?.status_message ?? 'the authorization server did not grant access'}`,
    };
  };

  const connect = async () => {
    // Opened before any await, as the click's own work, so the browser lets it open.
    const popup = openAuthorizationWindow();
    setConnecting(true);
    setOutcome(null);
    try {
      const result = await connectMcpServer(server);
      if (result.status === 'auth_required' && result.authorization_url) {
        if (!popup) {
          setOutcome({ ok: false, text: BLOCKED });
          return;
        }
        setOutcome(await afterPopup(await awaitAuthorization(popup, result.authorization_url, server.id)));
        return;
      }
      popup?.close();
      await reread();
      setOutcome({ ok: result.status === 'connected', text: result.message });
    } catch (error) {
      popup?.close();
      setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setConnecting(false);
    }
  };

  return { connect, connecting, outcome };
}
