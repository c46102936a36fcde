import type { Kysely } from 'kysely';

/**
 * Comments an AI agent writes are the agent's: `author_agent_id` names the agent (the API answers
 * `authorUserType: AI_AGENT`), while `author_id` stays the user whose permissions the agent acted
 * with, so that user and admins may still edit or delete it. Agents are only ever soft-deleted, so
 * the reference never dangles; no list follows it, so it needs no index.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ticket_comments')
    .addColumn('author_agent_id', 'text', (col) => col.references('agents.id'))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ticket_comments').dropColumn('author_agent_id').execute();
}
