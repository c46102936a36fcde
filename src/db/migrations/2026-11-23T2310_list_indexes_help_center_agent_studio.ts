import { type Kysely, sql } from 'kysely';

/**
 * Indexes of the help-center and agent-studio lists: each covers a list's filter columns, its
 * order and the id tiebreak, so a first page, a keyset page (`cursor`) and the id query of a deep
 * `offset` page are one index range. Lists of live rows only (`deleted_at is null`) and the
 * top-level collections (`parent_id is null`) get partial indexes: an `is null` test does not pin
 * a column for the order, so a full index would still leave a sort on PostgreSQL.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const index = (name: string, table: string, columns: string[], onlyWhereNull?: 'deleted_at' | 'parent_id') => {
    const builder = db.schema.createIndex(name).ifNotExists().on(table).columns(columns);
    return (onlyWhereNull ? builder.where(sql.ref(onlyWhereNull), 'is', null) : builder).execute();
  };

  await index('help_centers_organization_created', 'help_centers', ['organization_id', 'created_at', 'id']);
  await index(
    'help_center_collections_top_level_order',
    'help_center_collections',
    ['organization_id', 'help_center_id', 'position', 'id'],
    'parent_id',
  );
  await index('help_center_collections_children_order', 'help_center_collections', [
    'organization_id',
    'parent_id',
    'position',
    'id',
  ]);
  await index('help_center_articles_live_uid', 'help_center_articles', ['organization_id', 'uid', 'id'], 'deleted_at');
  await index(
    'help_center_articles_live_state_uid',
    'help_center_articles',
    ['organization_id', 'state', 'uid', 'id'],
    'deleted_at',
  );
  await index('help_center_tags_organization_name_order', 'help_center_tags', ['organization_id', 'lower_name', 'id']);

  await index('agents_live_created', 'agents', ['organization_id', 'created_at', 'id'], 'deleted_at');
  await index('agents_live_status_created', 'agents', ['organization_id', 'status', 'created_at', 'id'], 'deleted_at');
  await index('agent_tools_agent_created', 'agent_tools', ['agent_id', 'created_at', 'id']);
  await index('agent_tools_agent_type_created', 'agent_tools', ['agent_id', 'tool_type', 'created_at', 'id']);
  await index('agent_tools_agent_enabled_created', 'agent_tools', ['agent_id', 'is_enabled', 'created_at', 'id']);
  // Removing an MCP server disables the tools that use it.
  await index('agent_tools_mcp_server', 'agent_tools', ['mcp_server_id']);
  await index('mcp_servers_live_agent_created', 'mcp_servers', ['agent_id', 'created_at', 'id'], 'deleted_at');
  await index('mcp_servers_live_agent_status_created', 'mcp_servers', ['agent_id', 'status', 'created_at', 'id'], 'deleted_at');
  await index('chat_threads_user_agent_activity', 'chat_threads', [
    'organization_id',
    'user_id',
    'agent_id',
    'last_activity_at',
    'id',
  ]);
  await index('chat_messages_thread_order_id', 'chat_messages', ['thread_id', 'sort_key', 'id']);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'chat_messages_thread_order_id',
    'chat_threads_user_agent_activity',
    'mcp_servers_live_agent_status_created',
    'mcp_servers_live_agent_created',
    'agent_tools_mcp_server',
    'agent_tools_agent_enabled_created',
    'agent_tools_agent_type_created',
    'agent_tools_agent_created',
    'agents_live_status_created',
    'agents_live_created',
    'help_center_tags_organization_name_order',
    'help_center_articles_live_state_uid',
    'help_center_articles_live_uid',
    'help_center_collections_children_order',
    'help_center_collections_top_level_order',
    'help_centers_organization_created',
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
