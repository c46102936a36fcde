import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  // Routing attributes of a user: availability, how many open tickets at once (null: no limit),
  // own timezone (null: the team's) and when they last received a routed ticket.
  await db.schema
    .alterTable('users')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('offline'))
    .execute();
  await db.schema.alterTable('users').addColumn('capacity', 'integer').execute();
  await db.schema.alterTable('users').addColumn('timezone', 'text').execute();
  await db.schema.alterTable('users').addColumn('last_assigned_at', types.timestamp).execute();

  await db.schema
    .createTable('user_business_hours')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('timezone', 'text')
    .addColumn('common_daily_config', types.boolean, (col) => col.notNull())
    .addColumn('common_slots', types.json, (col) => col.notNull())
    .addColumn('daily_config', types.json, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('identifier', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text')
    .addColumn('color', 'text')
    .addColumn('parent_team_id', 'text', (col) => col.references('teams.id'))
    .addColumn('is_private', types.boolean, (col) => col.notNull())
    .addColumn('owner_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('archived_at', types.timestamp)
    .execute();
  // Identifiers prefix ticket identifiers (`WED-5`), so they stay unique even after archiving.
  await sql`create unique index teams_organization_identifier on teams (organization_id, upper(identifier))`.execute(db);
  await db.schema.createIndex('teams_parent').on('teams').column('parent_team_id').execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('is_admin', types.boolean, (col) => col.notNull())
    .addColumn('invited_by_id', 'text', (col) => col.references('users.id'))
    .addColumn('joined_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('team_tags')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('color', 'text')
    .addColumn('tag_type', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await sql`create unique index team_tags_team_name on team_tags (team_id, lower(name))`.execute(db);

  await db.schema
    .createTable('team_configurations')
    .addColumn('team_id', 'text', (col) => col.primaryKey().references('teams.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('timezone', 'text', (col) => col.notNull())
    .addColumn('routing_respects_timezone', types.boolean, (col) => col.notNull())
    .addColumn('routing_respects_user_capacity', types.boolean, (col) => col.notNull())
    .addColumn('routing_respects_user_timezone', types.boolean, (col) => col.notNull())
    .addColumn('routing_respects_user_availability', types.boolean, (col) => col.notNull())
    .addColumn('routing_respects_user_business_hours', types.boolean, (col) => col.notNull())
    .addColumn('user_routing_strategy', 'text', (col) => col.notNull())
    .addColumn('fallback_sub_team_id', 'text', (col) => col.references('teams.id'))
    .addColumn('holidays', types.json, (col) => col.notNull())
    .addColumn('common_daily_config', types.boolean, (col) => col.notNull())
    .addColumn('common_slots', types.json, (col) => col.notNull())
    .addColumn('daily_config', types.json, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('routing_rules')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('evaluation_order', 'integer', (col) => col.notNull())
    .addColumn('result_team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('fallback_team_id', 'text', (col) => col.references('teams.id'))
    .addColumn('and_rules', types.json, (col) => col.notNull())
    .addColumn('or_rules', types.json, (col) => col.notNull())
    .addColumn('created_by_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('routing_rules_team_order', ['team_id', 'evaluation_order'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['routing_rules', 'team_configurations', 'team_tags', 'team_members', 'teams', 'user_business_hours']) {
    await db.schema.dropTable(table).execute();
  }
  for (const column of ['last_assigned_at', 'timezone', 'capacity', 'status']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
