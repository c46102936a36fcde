import { Link } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import { PageHeader } from '../../ui/PageHeader';
import { callbackNewsOf, MCP_CONNECT_CHANNEL } from './mcp-connect';

const WORDS = {
  connected: 'The MCP server is connected.',
  auth_required: 'The MCP server still needs authorization: connect it again from the agent’s page.',
  error: 'The MCP server could not be connected: the agent’s page says why.',
} as const;

/**
 * Where the MCP OAuth callback sends the authorization window (the server's default
 * `MCP_OAUTH_RETURN_URL`): it tells the agent's page how it went, and closes. Opened any other way,
 * it says how it went and links to the agent.
 */
export function McpConnectedPage() {
  const news = useMemo(() => callbackNewsOf(new URLSearchParams(window.location.search)), []);
  useEffect(() => {
    if (!news) {
      return;
    }
    const channel = new BroadcastChannel(MCP_CONNECT_CHANNEL);
    channel.postMessage(news);
    channel.close();
    window.close();
  }, [news]);
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader title="MCP authorization" />
      <div className="mx-auto flex max-w-3xl flex-col gap-3 p-4 text-sm">
        <p role="status">{news ? WORDS[news.status] : 'This page is where an MCP server’s authorization comes back to.'}</p>
        {news ? (
          <Link
            to="/agents/$agentId"
            params={{ agentId: news.agentId }}
            className="text-blue-700 hover:underline dark:text-blue-400"
          >
            Back to the agent
          </Link>
        ) : null}
      </div>
    </div>
  );
}
