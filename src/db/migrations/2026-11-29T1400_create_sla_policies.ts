import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  // An organization's SLA policies, evaluated by `position` (unique per organization): the first
  // whose conditions match a ticket sets its targets.
  await db.schema
    .createTable('sla_policies')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('and_rules', types.json, (col) => col.notNull())
    .addColumn('or_rules', types.json, (col) => col.notNull())
    .addColumn('targets', types.json, (col) => col.notNull())
    .addColumn('business_hours', types.boolean, (col) => col.notNull())
    .addColumn('ai_replies_count', types.boolean, (col) => col.notNull())
    .addColumn('warning_share', 'double precision', (col) => col.notNull())
    .addColumn('created_by_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('sla_policies_position', ['organization_id', 'position'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sla_policies').execute();
}
