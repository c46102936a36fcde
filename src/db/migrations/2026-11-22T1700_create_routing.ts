import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  // Set while routing left a ticket unassigned (manual team, team closed, nobody eligible): the
  // waiting-tickets worker assigns these oldest first. Cleared when an agent is assigned.
  await db.schema.alterTable('tickets').addColumn('awaiting_assignment_since', types.timestamp).execute();
  await db.schema
    .createIndex('tickets_awaiting_assignment')
    .on('tickets')
    .columns(['team_id', 'awaiting_assignment_since'])
    .where('awaiting_assignment_since', 'is not', null)
    .execute();

  // Round robin orders by `last_assigned_at`; this breaks ties between assignments made in the
  // same millisecond (one more than the highest among the candidates, taken under their locks).
  await db.schema.alterTable('users').addColumn('last_assignment_seq', 'integer').execute();

  // Every routing decision taken for a ticket, with the explanation the API shows.
  await db.schema
    .createTable('ticket_routing_decisions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    .addColumn('trigger', 'text', (col) => col.notNull())
    .addColumn('from_team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('agent_id', 'text', (col) => col.references('users.id'))
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('matched_rule_id', 'text')
    .addColumn('previous_ticket_identifier', 'text')
    .addColumn('explanation', types.json, (col) => col.notNull())
    .addColumn('decided_by_id', 'text', (col) => col.references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('ticket_routing_decisions_ticket')
    .on('ticket_routing_decisions')
    .columns(['ticket_id', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ticket_routing_decisions').execute();
  await db.schema.alterTable('users').dropColumn('last_assignment_seq').execute();
  await db.schema.dropIndex('tickets_awaiting_assignment').execute();
  await db.schema.alterTable('tickets').dropColumn('awaiting_assignment_since').execute();
}
