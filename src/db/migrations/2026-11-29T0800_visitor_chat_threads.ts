import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * Chat threads of messenger visitors. A thread belongs to a user of the organization (the console,
 * the API) or, with `user_id` null, to a visitor of a help center's messenger: `anon_user_id` is
 * the visitor's id, `contact_id` the customer contact a verified visitor is, and `help_center_id`
 * the help center whose messenger the visitor wrote from (what the agent may cite). Exactly one
 * kind of owner is set.
 *
 * SQLite cannot drop a NOT NULL, so its table is rebuilt by the procedure of its manual
 * ("Making Other Kinds Of Table Schema Changes"): foreign keys off, a new table from the stored
 * definition with the column relaxed, the rows copied, the old table dropped, the new one renamed
 * (the tables referring to `chat_threads` by name then refer to it), the indexes made again, and
 * the foreign keys checked before they are turned back on.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table chat_threads alter column user_id drop not null`.execute(db);
    await sql`alter table chat_threads add column anon_user_id text`.execute(db);
    await sql`alter table chat_threads add column contact_id text references customer_contacts (id)`.execute(db);
    await sql`alter table chat_threads add column help_center_id text references help_centers (id)`.execute(db);
    await sql`alter table chat_threads add constraint chat_threads_one_owner
      check ((user_id is null) <> (anon_user_id is null))`.execute(db);
  } else {
    await rebuildSqliteThreads(db);
  }
  // A visitor's threads, newest activity first; a verified contact's, from any of their visitors.
  await db.schema
    .createIndex('chat_threads_visitor_activity')
    .on('chat_threads')
    .columns(['organization_id', 'anon_user_id', 'last_activity_at', 'id'])
    .where(sql.ref('anon_user_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('chat_threads_contact_activity')
    .on('chat_threads')
    .columns(['organization_id', 'contact_id', 'last_activity_at', 'id'])
    .where(sql.ref('contact_id'), 'is not', null)
    .execute();
}

const USER_THREAD_COLUMNS = 'id, organization_id, agent_id, user_id, title, metadata, last_activity_at, created_at, updated_at';
const VISITOR_COLUMNS =
  ', "anon_user_id" text, "contact_id" text references "customer_contacts" ("id"),' +
  ' "help_center_id" text references "help_centers" ("id"),' +
  ' constraint "chat_threads_one_owner" check (("user_id" is null) <> ("anon_user_id" is null))';

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function rebuildSqliteThreads(db: Kysely<any>): Promise<void> {
  await rebuildSqliteTable(db, (table) => {
    const relaxed = table.replace(/"user_id" text not null/i, '"user_id" text');
    if (relaxed === table) {
      throw new Error('chat_threads: the user_id column is not as its migration made it');
    }
    return relaxed.replace(/\)\s*$/, `${VISITOR_COLUMNS})`);
  });
}

/**
 * Replaces `chat_threads` by a table made from its stored definition as `reshape` rewrites it,
 * keeping the rows (the columns of a user's thread) and the indexes, with foreign keys off.
 */
// biome-ignore lint/suspicious/noExplicitAny: see up()
async function rebuildSqliteTable(db: Kysely<any>, reshape: (definition: string) => string): Promise<void> {
  const stored = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'chat_threads'`.execute(db);
  const table = stored.rows.find((row) => row.type === 'table')?.sql ?? '';
  const definition = reshape(table).replace(/^create table "?chat_threads"?/i, 'create table "chat_threads_rebuilt"');
  const indexes = stored.rows.filter((row) => row.type === 'index' && row.sql !== null).map((row) => row.sql as string);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin`.execute(db);
    try {
      await sql.raw(definition).execute(db);
      await sql
        .raw(`insert into chat_threads_rebuilt (${USER_THREAD_COLUMNS}) select ${USER_THREAD_COLUMNS} from chat_threads`)
        .execute(db);
      await sql`drop table chat_threads`.execute(db);
      await sql`alter table chat_threads_rebuilt rename to chat_threads`.execute(db);
      for (const index of indexes) {
        await sql.raw(index).execute(db);
      }
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) {
        throw new Error(`chat_threads: ${broken.rows.length} rows break a foreign key after the rebuild`);
      }
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('chat_threads_contact_activity').execute();
  await db.schema.dropIndex('chat_threads_visitor_activity').execute();
  const visitorThreads = db.selectFrom('chat_threads').select('id').where('user_id', 'is', null);
  await db.deleteFrom('agent_runs').where('thread_id', 'in', visitorThreads).execute();
  await db.deleteFrom('chat_messages').where('thread_id', 'in', visitorThreads).execute();
  await db.deleteFrom('chat_threads').where('user_id', 'is', null).execute();
  if (dialectOf(db) === 'postgres') {
    await sql`alter table chat_threads drop constraint chat_threads_one_owner`.execute(db);
    await sql`alter table chat_threads drop column help_center_id`.execute(db);
    await sql`alter table chat_threads drop column contact_id`.execute(db);
    await sql`alter table chat_threads drop column anon_user_id`.execute(db);
    await sql`alter table chat_threads alter column user_id set not null`.execute(db);
  } else {
    await rebuildSqliteTable(db, (table) =>
      table.replace(VISITOR_COLUMNS, '').replace(/"user_id" text references/i, '"user_id" text not null references'),
    );
  }
}
