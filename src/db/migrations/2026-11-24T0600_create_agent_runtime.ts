import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Agents run. Model providers an organization configures (the API key sealed with SECRET_KEY);
 * a tool may need a person's approval before it runs; and every run of an agent: its status,
 * usage, the conversation it paused with, and the lease of the process executing it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  const real = types.json === 'jsonb' ? 'double precision' : 'real';

  await db.schema
    .createTable('model_providers')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('created_by_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('base_url', 'text', (col) => col.notNull())
    .addColumn('api_key_encrypted', 'text')
    .addColumn('default_model', 'text', (col) => col.notNull())
    .addColumn('model_prices', types.json)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('model_providers_organization_name', ['organization_id', 'name'])
    .execute();
  // The organization's providers in creation order (the list).
  await db.schema
    .createIndex('model_providers_organization_created')
    .on('model_providers')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .alterTable('agent_tools')
    .addColumn('require_approval', types.boolean, (col) => col.notNull().defaultTo(sql`false`))
    .execute();

  await db.schema
    .createTable('agent_runs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('agent_id', 'text', (col) => col.notNull().references('agents.id'))
    .addColumn('thread_id', 'text', (col) => col.references('chat_threads.id'))
    .addColumn('ticket_id', 'text', (col) => col.references('tickets.id'))
    .addColumn('acting_user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('trigger', 'text', (col) => col.notNull())
    // Time-sortable (ULID): the order of runs, and of the queue of one thread.
    .addColumn('sort_key', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('input', 'text', (col) => col.notNull())
    .addColumn('user_message_id', 'text')
    .addColumn('result_message_id', 'text')
    .addColumn('model_provider_id', 'text')
    .addColumn('model', 'text')
    .addColumn('steps', 'integer', (col) => col.notNull())
    .addColumn('input_tokens', 'integer', (col) => col.notNull())
    .addColumn('output_tokens', 'integer', (col) => col.notNull())
    .addColumn('cost', real)
    .addColumn('latency_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('final_text', 'text')
    .addColumn('tool_calls', types.json)
    .addColumn('pending_approval', types.json)
    .addColumn('conversation', types.json)
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('started_at', types.timestamp)
    .addColumn('finished_at', types.timestamp)
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  // An agent's runs, newest first (the list), and its tokens of a month (the budget).
  await db.schema.createIndex('agent_runs_agent_order').on('agent_runs').columns(['agent_id', 'sort_key']).execute();
  await db.schema.createIndex('agent_runs_agent_created').on('agent_runs').columns(['agent_id', 'created_at']).execute();
  // A thread's queue: its runs in order, by status.
  await db.schema.createIndex('agent_runs_thread_queue').on('agent_runs').columns(['thread_id', 'status', 'sort_key']).execute();
  // At most one run of a thread holds it (running or waiting for an approval), whichever process tries.
  await sql`create unique index agent_runs_one_active_per_thread on agent_runs (thread_id) where status in ('running', 'awaiting_approval')`.execute(
    db,
  );
  // Runs whose process may have stopped: the recovery sweep's lookup.
  await db.schema.createIndex('agent_runs_lease').on('agent_runs').columns(['status', 'lease_expires_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('agent_runs').execute();
  await db.schema.alterTable('agent_tools').dropColumn('require_approval').execute();
  await db.schema.dropTable('model_providers').execute();
}
