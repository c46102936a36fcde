import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  await db.schema
    .createTable('agents')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('created_by_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('configuration', types.json, (col) => col.notNull())
    .addColumn('template_id', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('metadata', types.json)
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  await db.schema.createIndex('agents_organization').on('agents').columns(['organization_id', 'created_at']).execute();

  // An MCP server an agent may use, with its connection state (mcp-connect.md §2, option: columns
  // on the server row). Secrets are stored encrypted (AES-256-GCM) in the *_encrypted columns.
  await db.schema
    .createTable('mcp_servers')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('agent_id', 'text', (col) => col.notNull().references('agents.id'))
    .addColumn('created_by_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('auth_type', 'text', (col) => col.notNull())
    .addColumn('auth_config', types.json)
    .addColumn('client_secret_encrypted', 'text')
    .addColumn('static_header_encrypted', 'text')
    .addColumn('tool_discovery_endpoint', 'text')
    .addColumn('health_check_url', 'text')
    .addColumn('transport', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('connection_state', 'text', (col) => col.notNull())
    .addColumn('status_message', 'text')
    .addColumn('is_enabled', types.boolean, (col) => col.notNull())
    .addColumn('discovered_tools', types.json)
    .addColumn('last_connected_at', types.timestamp)
    .addColumn('connected_by_user_id', 'text', (col) => col.references('users.id'))
    .addColumn('last_health_check', types.timestamp)
    .addColumn('token_expires_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  await db.schema.createIndex('mcp_servers_agent').on('mcp_servers').column('agent_id').execute();

  await db.schema
    .createTable('mcp_oauth_credentials')
    .addColumn('server_id', 'text', (col) => col.primaryKey().references('mcp_servers.id'))
    .addColumn('agent_id', 'text', (col) => col.notNull().references('agents.id'))
    .addColumn('client_information_encrypted', 'text')
    .addColumn('tokens_encrypted', 'text')
    .addColumn('discovery_state_encrypted', 'text')
    .addColumn('obtained_at', types.timestamp)
    .addColumn('expires_at', types.timestamp)
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('mcp_oauth_pending_flows')
    .addColumn('state_hash', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('agent_id', 'text', (col) => col.notNull().references('agents.id'))
    .addColumn('server_id', 'text', (col) => col.notNull().references('mcp_servers.id'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('code_verifier_encrypted', 'text', (col) => col.notNull())
    .addColumn('resource_metadata_url', 'text')
    .addColumn('scope', 'text')
    .addColumn('issuer', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('expires_at', types.timestamp, (col) => col.notNull())
    .addColumn('consumed_at', types.timestamp)
    .execute();
  await db.schema.createIndex('mcp_oauth_pending_flows_server').on('mcp_oauth_pending_flows').column('server_id').execute();

  await db.schema
    .createTable('agent_tools')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('agent_id', 'text', (col) => col.notNull().references('agents.id'))
    .addColumn('tool_name', 'text', (col) => col.notNull())
    .addColumn('tool_type', 'text', (col) => col.notNull())
    .addColumn('configuration', types.json)
    .addColumn('is_enabled', types.boolean, (col) => col.notNull())
    .addColumn('mcp_server_id', 'text', (col) => col.references('mcp_servers.id'))
    .addColumn('external_tool_connection_id', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('agent_tools_agent_name', ['agent_id', 'tool_name'])
    .execute();

  await db.schema
    .createTable('chat_threads')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('agent_id', 'text', (col) => col.notNull().references('agents.id'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('title', 'text')
    .addColumn('metadata', types.json)
    .addColumn('last_activity_at', types.timestamp, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('chat_threads_user_activity')
    .on('chat_threads')
    .columns(['organization_id', 'user_id', 'last_activity_at', 'id'])
    .execute();

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('thread_id', 'text', (col) => col.notNull().references('chat_threads.id'))
    // Time-sortable (ULID) so messages written in the same millisecond keep their order.
    .addColumn('sort_key', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('content_html', 'text')
    .addColumn('tool_calls', types.json)
    .addColumn('attachments', types.json)
    .addColumn('metadata', types.json)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('chat_messages_thread_order').on('chat_messages').columns(['thread_id', 'sort_key']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'chat_messages',
    'chat_threads',
    'agent_tools',
    'mcp_oauth_pending_flows',
    'mcp_oauth_credentials',
    'mcp_servers',
    'agents',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
