import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  // The ticket list's SLA filters (slaDueBefore, slaDueWithin, the built-in view "Breaching soon",
  // and slaBreached's running half): an organization's running targets by due time, so a filter
  // reads the few due before its instant rather than every target.
  await db.schema
    .createIndex('ticket_sla_targets_running_due')
    .on('ticket_sla_targets')
    .columns(['organization_id', 'due_at', 'ticket_id'])
    .where(sql.ref('running_since'), 'is not', null)
    .execute();
  // slaBreached's other half: the targets marked breached, met late or still running.
  await db.schema
    .createIndex('ticket_sla_targets_breached')
    .on('ticket_sla_targets')
    .columns(['organization_id', 'ticket_id'])
    .where(sql<boolean>`status = 'breached'`)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ticket_sla_targets_breached').execute();
  await db.schema.dropIndex('ticket_sla_targets_running_due').execute();
}
