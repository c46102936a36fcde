import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Whom an agent acts for. A run records its principal: the user it acted with, or the customer
 * contact whose words started it (a ticket's requester), and why its answer went to a person
 * instead of the customer. A tool an admin marks `customer_facing` may run for customers. Each
 * agent's tokens of a month are counted in one row, with what runs in progress have reserved, so
 * concurrent runs cannot spend past the monthly budget.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .alterTable('agent_tools')
    .addColumn('customer_facing', types.boolean, (col) => col.notNull().defaultTo(sql`false`))
    .execute();

  await db.schema
    .alterTable('agent_runs')
    .addColumn('principal_type', 'text', (col) => col.notNull().defaultTo('user'))
    .execute();
  await db.schema.alterTable('agent_runs').addColumn('principal_id', 'text').execute();
  await db.schema.alterTable('agent_runs').addColumn('handoff_reason', 'text').execute();
  await db.schema
    .alterTable('agent_runs')
    .addColumn('reserved_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('agent_runs').addColumn('reserved_period', types.timestamp).execute();
  // Every run so far acted with its acting user's permissions.
  await db.updateTable('agent_runs').set({ principal_id: sql`acting_user_id` }).execute();

  await db.schema
    .createTable('agent_token_usage')
    .addColumn('agent_id', 'text', (col) => col.notNull().references('agents.id'))
    // The first instant of the month (UTC) the row counts.
    .addColumn('period_start', types.timestamp, (col) => col.notNull())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('used_tokens', 'bigint', (col) => col.notNull())
    .addColumn('reserved_tokens', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('agent_token_usage_pkey', ['agent_id', 'period_start'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('agent_token_usage').execute();
  await db.schema.alterTable('agent_runs').dropColumn('reserved_period').execute();
  await db.schema.alterTable('agent_runs').dropColumn('reserved_tokens').execute();
  await db.schema.alterTable('agent_runs').dropColumn('handoff_reason').execute();
  await db.schema.alterTable('agent_runs').dropColumn('principal_id').execute();
  await db.schema.alterTable('agent_runs').dropColumn('principal_type').execute();
  await db.schema.alterTable('agent_tools').dropColumn('customer_facing').execute();
}
