import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { forUpdate } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { recordEvent } from '../../platform/events/event.recorder.js';
import { toMcpServer } from './mcp-server.presenter.js';
import { findMcpServer, type McpServerRow } from './mcp-server.repository.js';
import type { McpConnectionState } from './mcp-server.table.js';

/**
 * `mcp_server.connected` and `mcp_server.disconnected`: written when a server's connection state
 * crosses `connected`, in the transaction that changes it. Each writer locks the server row and reads
 * the state before it changes, so two concurrent attempts cannot both report the same crossing.
 */
export async function lockMcpServerState(trx: Transaction<DB>, serverId: string): Promise<McpConnectionState | undefined> {
  const row = await forUpdate(
    trx,
    trx.selectFrom('mcp_servers').select('connection_state').where('id', '=', serverId).where('deleted_at', 'is', null),
  ).executeTakeFirst();
  return row?.connection_state;
}

export async function recordMcpConnectionChange(
  trx: Transaction<DB>,
  clock: Clock,
  change: {
    agentId: string;
    serverId: string;
    before: McpConnectionState | undefined;
    userId: string;
    /** The server as it was, when the change removed it. */
    removed?: McpServerRow;
  },
): Promise<void> {
  const row = change.removed ?? (await findMcpServer(trx, change.agentId, change.serverId));
  if (!row || change.before === undefined) {
    return;
  }
  const connected = change.removed ? false : row.connection_state === 'connected';
  if (connected === (change.before === 'connected')) {
    return;
  }
  await recordEvent(trx, { clock }, row.organization_id, {
    type: connected ? 'mcp_server.connected' : 'mcp_server.disconnected',
    actor: { type: 'user', id: change.userId },
    data: toMcpServer(row),
  });
}
