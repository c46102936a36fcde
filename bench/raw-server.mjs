// The raw baseline of `npm run bench`: the same inserts and reads as Switchboard's measured paths,
// each done ideally with one prepared statement, on the same seeded database. Fastify + TypeBox,
// better-sqlite3 (SQLITE_FILE) or pg.Pool with named prepared statements (DATABASE_URL).
//
// - API key: the header's SHA-256 looked up once by its indexed hash, then kept in memory for
//   5 seconds, like Switchboard's default key cache; every query is scoped to the key's organization.
// - Logging: none (the lean baseline the benchmark compares with; LOG_LEVEL=info brings back one pino
//   line per finished request, as Switchboard logs at info).
// - Lists: keyset pages on the existing indexes; the deep page is asked for with `after`, the sort
//   keys of the row before it (base64url of a JSON array), instead of a page number.
// Plain JavaScript, so it starts with node alone, as Switchboard starts from its compiled dist/.
import { createHash, randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import Database from 'better-sqlite3';
import Fastify, { LogController } from 'fastify';
import pg from 'pg';
import { monotonicFactory } from 'ulid';

const PORT = Number(process.env.PORT ?? 3001);
const KEY_CACHE_MS = 5_000;

/** ULIDs from one pooled random buffer, as src/lib/ids.ts makes them. */
function pooledRandom() {
  let pool = randomBytes(4096);
  let next = 0;
  return () => {
    if (next === pool.length) {
      pool = randomBytes(4096);
      next = 0;
    }
    return pool[next++] / 256;
  };
}
const ulid = monotonicFactory(pooledRandom());

const Nullable = (schema) => Type.Union([Type.Null(), schema]);
const Str = Type.String();
const OptStr = Nullable(Type.String());

// A ticket as Switchboard answers it (the contract's fields, with the names of its team, status,
// priority, type, assignee, contact and account, and its tags): the same read, in one statement.
const Bool = Type.Boolean();
const Json = Type.Any();
const TagSchema = Type.Object({ id: Str, name: Str, color: OptStr });
const TicketSchema = Type.Object({
  id: Str,
  ticketId: Type.Integer(),
  ticketIdentifier: Str,
  title: Str,
  description: OptStr,
  source: OptStr,
  accountId: OptStr,
  account: OptStr,
  statusId: Str,
  status: Str,
  isClosed: Bool,
  priorityId: Str,
  priority: Str,
  typeId: OptStr,
  type: OptStr,
  teamId: Str,
  teamName: Str,
  teamIdentifier: Str,
  isPrivate: Bool,
  assignedAgent: OptStr,
  assignedAgentId: OptStr,
  assignedAgentEmail: OptStr,
  assignedAgentAvatar: OptStr,
  requestorEmail: Str,
  customerContactId: OptStr,
  customerContactFirstName: OptStr,
  customerContactLastName: OptStr,
  customerContactEmail: OptStr,
  submitterEmail: OptStr,
  metadata: Json,
  customFieldValues: Type.Array(Json),
  tags: Type.Array(TagSchema),
  dueDate: OptStr,
  closedAt: OptStr,
  createdAt: Str,
  updatedAt: Str,
  deletedAt: OptStr,
});
const TICKET_VIEW = `t.id, t.ticket_number as "ticketId", t.ticket_identifier as "ticketIdentifier", t.title, t.description,
  t.source, t.account_id as "accountId", account.name as account, t.status_id as "statusId", status.display_name as status,
  status.is_closed as "isClosed", t.priority_id as "priorityId", priority.display_name as priority, t.type_id as "typeId",
  type.display_name as type, t.team_id as "teamId", teams.name as "teamName", teams.identifier as "teamIdentifier",
  t.is_private as "isPrivate", agent.name as "assignedAgent", t.assigned_agent_id as "assignedAgentId",
  agent.email as "assignedAgentEmail", agent.avatar_url as "assignedAgentAvatar", t.requestor_email as "requestorEmail",
  t.customer_contact_id as "customerContactId", contact.first_name as "customerContactFirstName",
  contact.last_name as "customerContactLastName", contact.email as "customerContactEmail", t.submitter_email as "submitterEmail",
  t.metadata, t.custom_field_values as "customFieldValues", t.due_date as "dueDate", t.closed_at as "closedAt",
  t.created_at as "createdAt", t.updated_at as "updatedAt", t.deleted_at as "deletedAt"`;
const TICKET_JOINS = `join teams on teams.id = t.team_id
  join ticket_options status on status.id = t.status_id
  join ticket_options priority on priority.id = t.priority_id
  left join ticket_options type on type.id = t.type_id
  left join users agent on agent.id = t.assigned_agent_id
  left join customer_contacts contact on contact.id = t.customer_contact_id
  left join accounts account on account.id = t.account_id`;

/** The JSON columns of a ticket row, parsed, as Switchboard answers them. */
function ticketView(row) {
  row.metadata = row.metadata === null ? null : JSON.parse(row.metadata);
  row.customFieldValues = row.customFieldValues === null ? [] : JSON.parse(row.customFieldValues);
  row.tags = JSON.parse(row.tags);
  return row;
}

const CommentSchema = Type.Object({
  id: Str,
  ticket_id: Str,
  parent_comment_id: OptStr,
  content: Str,
  content_html: Str,
  content_markdown: Str,
  comment_visibility: Str,
  comment_type: Str,
  author_id: OptStr,
  created_at: Str,
  updated_at: Str,
});
const COMMENT_COLUMNS =
  'id, ticket_id, parent_comment_id, content, content_html, content_markdown, comment_visibility, comment_type, author_id, created_at, updated_at';

// A comment in a ticket's thread list as Switchboard answers it: its author (a user, an AI agent or
// the customer contact), the contact, and for admins and the author the state of the email it
// queued; roots and their replies in one statement.
const DeliverySchema = Type.Object({
  outboxId: Str,
  status: Str,
  attempts: Type.Integer(),
  lastError: OptStr,
  sentAt: OptStr,
  updatedAt: Str,
});
const CommentViewSchema = Type.Object({
  id: Str,
  content: Str,
  contentHtml: Str,
  contentJson: OptStr,
  contentMarkdown: Str,
  isEdited: Bool,
  threadName: OptStr,
  commentVisibility: Str,
  commentType: Str,
  isPinned: Bool,
  sourceEmailId: OptStr,
  metadata: Json,
  parentCommentId: OptStr,
  ticketId: Str,
  createdAt: Str,
  updatedAt: Str,
  deletedAt: OptStr,
  author: OptStr,
  authorId: OptStr,
  authorUserType: OptStr,
  authorAvatarUrl: OptStr,
  customerContactId: OptStr,
  customerContactEmail: OptStr,
  customerContactFirstName: OptStr,
  customerContactLastName: OptStr,
  customerContactAvatarUrl: OptStr,
  impersonatedUserEmail: OptStr,
  impersonatedUserName: OptStr,
  impersonatedUserAvatar: OptStr,
  attachments: Type.Array(Json),
  emailDelivery: Type.Optional(Type.Union([Type.Null(), DeliverySchema])),
});

function commentView(row, principal) {
  let author = { name: row.author_name, id: row.author_id, type: row.author_user_type, avatar: row.author_avatar_url };
  if (row.author_id === null && row.customer_contact_id !== null) {
    const name = [row.contact_first_name, row.contact_last_name].filter(Boolean).join(' ') || null;
    author = { name, id: row.customer_contact_id, type: 'CUSTOMER', avatar: row.contact_avatar_url };
  } else if (row.author_agent_id !== null) {
    author = { name: row.agent_name, id: row.author_agent_id, type: 'AI_AGENT', avatar: row.agent_avatar_url };
  }
  const comment = {
    id: row.id,
    content: row.content,
    contentHtml: row.content_html,
    contentJson: row.content_json,
    contentMarkdown: row.content_markdown,
    isEdited: row.is_edited,
    threadName: row.thread_name,
    commentVisibility: row.comment_visibility,
    commentType: row.comment_type,
    isPinned: row.is_pinned,
    sourceEmailId: row.source_email_id,
    metadata: row.metadata === null ? null : JSON.parse(row.metadata),
    parentCommentId: row.parent_comment_id,
    ticketId: row.ticket_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    author: author.name,
    authorId: author.id,
    authorUserType: author.type,
    authorAvatarUrl: author.avatar,
    customerContactId: row.customer_contact_id,
    customerContactEmail: row.contact_email,
    customerContactFirstName: row.contact_first_name,
    customerContactLastName: row.contact_last_name,
    customerContactAvatarUrl: row.contact_avatar_url,
    impersonatedUserEmail: row.impersonated_user_email,
    impersonatedUserName: row.impersonated_user_name,
    impersonatedUserAvatar: row.impersonated_user_avatar,
    attachments: JSON.parse(row.attachment_ids),
  };
  if (principal.userType === 'ORG_ADMIN' || (row.author_id !== null && row.author_id === principal.userId)) {
    comment.emailDelivery =
      row.outbox_id === null
        ? null
        : {
            outboxId: row.outbox_id,
            status: row.outbox_status,
            attempts: Number(row.outbox_attempts),
            lastError: row.outbox_last_error,
            sentAt: row.outbox_sent_at,
            updatedAt: row.outbox_updated_at,
          };
  }
  return comment;
}

/** Roots in order, each followed by its replies in order (the rows come in (created_at, id) order). */
function threads(rows, principal) {
  const replies = new Map();
  const roots = [];
  for (const row of rows) {
    if (row.is_reply) {
      const siblings = replies.get(row.parent_comment_id) ?? [];
      siblings.push(commentView(row, principal));
      replies.set(row.parent_comment_id, siblings);
    } else {
      roots.push(commentView(row, principal));
    }
  }
  return roots.flatMap((root) => [root, ...(replies.get(root.id) ?? [])]);
}

// Custom fields, chat threads and collections as Switchboard answers them: every column, named as
// the API names it (JSON columns parsed in JS, as Switchboard parses them).
const CustomFieldSchema = Type.Object({
  name: Str,
  uid: Str,
  slug: Str,
  organizationId: Str,
  source: Str,
  fieldType: Str,
  options: Type.Array(Json),
  metadata: Json,
  createdAt: Str,
  updatedAt: Str,
  isActive: Bool,
  teamId: OptStr,
  autoAddToAllForms: Bool,
  hintText: OptStr,
  placeholderText: OptStr,
  defaultValue: OptStr,
  mandatoryOnCreation: Bool,
  mandatoryOnClose: Bool,
  visibleToCustomer: Bool,
  editableByCustomer: Bool,
  description: OptStr,
  regexForValidation: OptStr,
  lookup: OptStr,
  version: Type.Integer(),
});
const CUSTOM_FIELD_VIEW = `name, uid, slug, organization_id as "organizationId", source, field_type as "fieldType", options, metadata,
  created_at as "createdAt", updated_at as "updatedAt", is_active as "isActive", team_id as "teamId",
  auto_add_to_all_forms as "autoAddToAllForms", hint_text as "hintText", placeholder_text as "placeholderText",
  default_value as "defaultValue", mandatory_on_creation as "mandatoryOnCreation", mandatory_on_close as "mandatoryOnClose",
  visible_to_customer as "visibleToCustomer", editable_by_customer as "editableByCustomer", description,
  regex_for_validation as "regexForValidation", lookup, version`;

function customFieldView(row) {
  row.options = JSON.parse(row.options);
  row.metadata = JSON.parse(row.metadata);
  return row;
}

const MessageSchema = Type.Object({
  id: Str,
  thread_id: Str,
  content: Str,
  content_html: OptStr,
  role: Str,
  tool_calls: Type.Array(Json),
  attachments: Type.Array(Json),
  metadata: Json,
  created_at: Str,
  feedback: Type.Null(),
});
const ThreadSchema = Type.Object({
  id: Str,
  agent_id: Str,
  user_id: OptStr,
  anon_user_id: Type.Null(),
  organization_id: Str,
  title: OptStr,
  metadata: Json,
  last_activity_at: Str,
  created_at: Str,
  updated_at: Str,
  messages: Type.Array(MessageSchema),
});

const CollectionSchema = Type.Object({
  _id: Str,
  orgId: Str,
  uid: Type.Integer(),
  helpCenterId: Str,
  name: Str,
  slug: Str,
  order: Type.Integer(),
  createdBy: Str,
  isProtected: Bool,
  createdAt: Str,
  updatedAt: Str,
  description: OptStr,
  parentId: OptStr,
  articles: Type.Array(Str),
  icon: Str,
  meta: Type.Object({ title: OptStr, description: OptStr, image: OptStr }),
});
const COLLECTION_VIEW = `c.id as "_id", c.organization_id as "orgId", c.uid, c.help_center_id as "helpCenterId", c.name, c.slug,
  c.position as "order", c.created_by as "createdBy", c.is_protected as "isProtected", c.created_at as "createdAt",
  c.updated_at as "updatedAt", c.description, c.parent_id as "parentId", c.icon, c.meta`;

function collectionView(row) {
  const meta = JSON.parse(row.meta);
  row.meta = { title: meta.title ?? null, description: meta.description ?? null, image: meta.image ?? null };
  row.articles = JSON.parse(row.articles);
  return row;
}

const UserSchema = Type.Object({ id: Str, organization_id: Str, name: Str, email: Str, user_type: Str });

const data = (schema) => Type.Object({ data: schema });
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const PageQuery = (extra = {}) =>
  Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }), after: Type.Optional(Type.String()), ...extra });

/** The keys of `after`, or null when it is absent; a malformed one is a 400. */
function afterKeys(after, length) {
  if (after === undefined) {
    return null;
  }
  const keys = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  if (!Array.isArray(keys) || keys.length !== length || !keys.every((key) => typeof key === 'string')) {
    throw Object.assign(new Error('bad after'), { statusCode: 400 });
  }
  return keys;
}

const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const LIMIT = '$limit';

/** One statement per path, on SQLite (`?`) or PostgreSQL (`$n`, named and prepared once per connection). */
function statements(dialect) {
  const pgsql = dialect === 'postgres';
  const at = (n) => (pgsql ? `$${n}::timestamptz` : '?');
  const p = (n) => (pgsql ? `$${n}` : '?');
  // The page size, always the last parameter: written into PostgreSQL statements (see openDatabase).
  const lim = (n) => (pgsql ? LIMIT : p(n));
  const falseValue = pgsql ? 'false' : '0';
  const tagObject = "'id', tag.id, 'name', tag.name, 'color', tag.color";
  const tags = `(select ${pgsql ? `coalesce(json_agg(json_build_object(${tagObject}) order by tag.name), '[]')` : `json_group_array(json_object(${tagObject}) order by tag.name)`}
    from ticket_tags x join team_tags tag on tag.id = x.tag_id where x.ticket_id = t.id)`;
  // The ids of a collection's live articles, in the order they were added.
  const articles = `(select ${pgsql ? `coalesce(json_agg(m.article_id order by m.added_at, a.uid), '[]')` : 'json_group_array(m.article_id order by m.added_at, a.uid)'}
    from help_center_article_collections m join help_center_articles a on a.id = m.article_id
    where m.collection_id = c.id and a.deleted_at is null)`;
  return {
    keyByHash: `select k.organization_id, k.user_id, u.user_type from api_keys k join users u on u.id = k.user_id
      where k.key_hash = ${p(1)} and k.revoked_at is null`,
    me: `select id, organization_id, name, email, user_type from users where id = ${p(1)} and organization_id = ${p(2)}`,
    ticketById: `select ${TICKET_VIEW}, ${tags} as tags from tickets t ${TICKET_JOINS}
      where t.id = ${p(1)} and t.organization_id = ${p(2)} and t.deleted_at is null`,
    // The ticket's existence and organization are checked by the insert itself.
    insertComment: `insert into ticket_comments (id, organization_id, ticket_id, content, content_html, content_markdown,
        comment_visibility, comment_type, is_edited, is_pinned, author_id, attachment_ids, created_at, updated_at)
      select ${p(1)}, t.organization_id, t.id, ${p(2)}, ${p(3)}, ${p(4)}, 'public', 'comment', ${falseValue}, ${falseValue},
        ${p(5)}, '[]', ${at(6)}, ${at(7)}
      from tickets t where t.id = ${p(8)} and t.organization_id = ${p(9)} and t.deleted_at is null
      returning ${COMMENT_COLUMNS}`,
    // The page's ids from the index, then the view of those rows only.
    ticketsFirst: ticketPage('', 3),
    ticketsAfter: ticketPage(`and (created_at, id) < (${at(3)}, ${p(4)})`, 5),
    commentsFirst: commentPage('', 3),
    commentsAfter: commentPage(`and (created_at, id) > (${at(3)}, ${p(4)})`, 5),
    fieldsFirst: `select ${CUSTOM_FIELD_VIEW} from custom_fields where organization_id = ${p(1)} and deleted_at is null
      order by created_at, uid limit ${lim(2)}`,
    fieldsAfter: `select ${CUSTOM_FIELD_VIEW} from custom_fields where organization_id = ${p(1)} and deleted_at is null
      and (created_at, uid) > (${at(2)}, ${p(3)}) order by created_at, uid limit ${lim(4)}`,
    historyFirst: historyQuery('', 3),
    historyAfter: historyQuery(`and (last_activity_at, id) < (${at(3)}, ${p(4)})`, 5),
    collections: `select ${COLLECTION_VIEW}, ${articles} as articles from help_center_collections c
      where c.organization_id = ${p(1)} and c.help_center_id = ${p(2)} order by c.position, c.id`,
    // The first page is top-level collections in order (the seeded ones are all top-level).
    collectionsFirst: `select ${COLLECTION_VIEW}, ${articles} as articles from help_center_collections c
      where c.organization_id = ${p(1)} and c.help_center_id = ${p(2)} and c.parent_id is null order by c.position, c.id limit ${lim(3)}`,
  };

  function commentPage(after, limit) {
    return `with page as (select id from ticket_comments where ticket_id = ${p(1)} and organization_id = ${p(2)}
        and parent_comment_id is null and deleted_at is null ${after} order by created_at, id limit ${lim(limit)})
      select c.*, ids.is_reply, author.name as author_name, author.user_type as author_user_type,
        author.avatar_url as author_avatar_url, agent.name as agent_name, agent.avatar_url as agent_avatar_url,
        contact.first_name as contact_first_name, contact.last_name as contact_last_name, contact.email as contact_email,
        contact.avatar_url as contact_avatar_url, o.id as outbox_id, o.status as outbox_status, o.attempts as outbox_attempts,
        o.last_error as outbox_last_error, o.sent_at as outbox_sent_at, o.updated_at as outbox_updated_at
      from (select id, 0 as is_reply from page
            union all
            select r.id, 1 from ticket_comments r where r.parent_comment_id in (select id from page) and r.deleted_at is null) ids
      join ticket_comments c on c.id = ids.id
      left join users author on author.id = c.author_id
      left join customer_contacts contact on contact.id = c.customer_contact_id
      left join agents agent on agent.id = c.author_agent_id
      left join email_outbox o on o.dedupe_key = 'comment:' || c.id and o.organization_id = c.organization_id
      order by c.created_at, c.id`;
  }

  function ticketPage(after, limit) {
    return `select ${TICKET_VIEW}, ${tags} as tags
      from (select id from tickets where organization_id = ${p(1)} and team_id = ${p(2)} and deleted_at is null ${after}
            order by created_at desc, id desc limit ${lim(limit)}) page
      join tickets t on t.id = page.id ${TICKET_JOINS}
      order by t.created_at desc, t.id desc`;
  }

  // A page of threads and their messages in one statement. On PostgreSQL the messages are a
  // lateral lookup per thread: the generic plan of a named statement cannot see that the limit is
  // small and would otherwise hash-join the whole message table.
  function historyQuery(after, limit) {
    const messages = pgsql
      ? `left join lateral (select id, thread_id, content, content_html, role, tool_calls, attachments, metadata, created_at, sort_key from chat_messages
           where thread_id = t.id order by sort_key) m on true`
      : 'left join chat_messages m on m.thread_id = t.id';
    return `select t.id, t.agent_id, t.user_id, t.organization_id, t.title, t.metadata, t.last_activity_at, t.created_at,
        t.updated_at, m.id as message_id, m.thread_id, m.content, m.content_html, m.role, m.tool_calls, m.attachments,
        m.metadata as message_metadata, m.created_at as message_created_at
      from (select id, agent_id, user_id, organization_id, title, metadata, last_activity_at, created_at, updated_at from chat_threads
            where organization_id = ${p(1)} and user_id = ${p(2)} ${after}
            order by last_activity_at desc, id desc limit ${lim(limit)}) t
      ${messages}
      order by t.last_activity_at desc, t.id desc, m.sort_key`;
  }
}

/** `run(name, params)` answers the rows of a named statement. */
function openDatabase() {
  if (process.env.DATABASE_URL) {
    // JSON stays text and instants become ISO 8601 text, as Switchboard's connection hands them to the app.
    const identity = (value) => value;
    // A UTC session's text rearranged as a string, anything else through Date (as src/db/connect.ts).
    const instant = (text) => {
      const length = text.length;
      if (
        text.endsWith('+00') &&
        text.charCodeAt(10) === 32 &&
        (length === 22 || (length >= 24 && length <= 29 && text.charCodeAt(19) === 46))
      ) {
        return `${text.slice(0, 10)}T${text.slice(11, 19)}.${length === 22 ? '000' : `${text.slice(20, length - 3)}00`.slice(0, 3)}Z`;
      }
      return new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
    };
    const parsers = { 1184: instant, 1114: (text) => instant(`${text}Z`), 114: identity, 3802: identity };
    const types = { getTypeParser: (oid, format) => parsers[oid] ?? pg.types.getTypeParser(oid, format) };
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, types });
    pool.on('error', () => undefined);
    const sql = statements('postgres');
    return {
      // A page size is part of the statement (one prepared statement per size): the generic plan of
      // a `limit $n` assumes a tenth of the table and, with inflated costs, even JIT-compiles it.
      run: async (name, values) => {
        const text = sql[name];
        if (!text.includes(LIMIT)) {
          return (await pool.query({ name, text, values })).rows;
        }
        const limit = Number(values.at(-1));
        const sized = { name: `${name}_${limit}`, text: text.replace(LIMIT, String(limit)), values: values.slice(0, -1) };
        return (await pool.query(sized)).rows;
      },
      close: () => pool.end(),
    };
  }
  const db = new Database(process.env.SQLITE_FILE);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const prepared = Object.fromEntries(Object.entries(statements('sqlite')).map(([name, text]) => [name, db.prepare(text)]));
  // A comment's search document is queued by the schema's triggers, and indexed before the insert
  // answers, in its transaction, as Switchboard indexes the queue at its commits
  // (src/db/ticket-search-queue.ts): until then a search would not find the comment.
  const indexQueued = db.prepare(`insert into ticket_search (rowid, title, body)
    select d.id, d.title, d.body from ticket_search_pending p join ticket_search_documents d on d.id = p.id order by p.id`);
  const emptyQueue = db.prepare('delete from ticket_search_pending');
  const writeAndIndex = db.transaction((statement, values) => {
    const rows = statement.all(values);
    indexQueued.run();
    emptyQueue.run();
    return rows;
  });
  return {
    // .all(), never .get(), for statements with RETURNING (see STYLE.md, known pitfalls).
    run: async (name, values) => (name === 'insertComment' ? writeAndIndex(prepared[name], values) : prepared[name].all(values)),
    close: async () => db.close(),
  };
}

const database = openDatabase();
const app = Fastify({
  logger: process.env.LOG_LEVEL && process.env.LOG_LEVEL !== 'silent' ? { level: process.env.LOG_LEVEL } : false,
  logController: new LogController({ disableRequestLogging: true }),
});

app.decorateRequest('principal', null);

const keyCache = new Map();
app.addHook('onRequest', async (request, reply) => {
  const key = request.headers['x-api-key'];
  if (typeof key !== 'string') {
    return reply.code(401).send({ message: 'unauthenticated' });
  }
  const hash = createHash('sha256').update(key).digest('hex');
  const cached = keyCache.get(hash);
  if (cached && cached.expiresAt > Date.now()) {
    request.principal = cached.principal;
    return;
  }
  const [row] = await database.run('keyByHash', [hash]);
  if (!row) {
    return reply.code(401).send({ message: 'unauthenticated' });
  }
  const principal = { organizationId: row.organization_id, userId: row.user_id, userType: row.user_type };
  keyCache.set(hash, { principal, expiresAt: Date.now() + KEY_CACHE_MS });
  request.principal = principal;
});
app.addHook('onResponse', async (request, reply) => {
  request.log.info(
    { method: request.method, url: request.url, status: reply.statusCode, latencyMs: reply.elapsedTime },
    'request finished',
  );
});

const notFound = (reply) => reply.code(404).send({ message: 'not found' });

app.get('/v1/users/me', { schema: { response: { 200: data(UserSchema) } } }, async (request, reply) => {
  const [user] = await database.run('me', [request.principal.userId, request.principal.organizationId]);
  return user ? { data: user } : notFound(reply);
});

app.get('/v1/tickets/:id', { schema: { params: IdParams, response: { 200: data(TicketSchema) } } }, async (request, reply) => {
  const [ticket] = await database.run('ticketById', [request.params.id, request.principal.organizationId]);
  return ticket ? { data: ticketView(ticket) } : notFound(reply);
});

app.post(
  '/v1/tickets/:id/comment',
  {
    schema: {
      params: IdParams,
      body: Type.Object({ content: Type.String({ minLength: 1, maxLength: 100_000 }) }, { additionalProperties: false }),
      response: { 201: data(CommentSchema) },
    },
  },
  async (request, reply) => {
    const { content } = request.body;
    const now = new Date().toISOString();
    const { organizationId, userId } = request.principal;
    const [comment] = await database.run('insertComment', [
      ulid(),
      content,
      `<p>${escapeHtml(content)}</p>`,
      content,
      userId,
      now,
      now,
      request.params.id,
      organizationId,
    ]);
    return comment ? reply.code(201).send({ data: comment }) : notFound(reply);
  },
);

app.get(
  '/v1/tickets',
  { schema: { querystring: PageQuery({ teamId: Type.String() }), response: { 200: data(Type.Array(TicketSchema)) } } },
  async (request) => {
    const { teamId, limit, after } = request.query;
    const keys = afterKeys(after, 2);
    const scope = [request.principal.organizationId, teamId];
    const rows = await (keys
      ? database.run('ticketsAfter', [...scope, ...keys, limit])
      : database.run('ticketsFirst', [...scope, limit]));
    return { data: rows.map(ticketView) };
  },
);

app.get(
  '/v1/tickets/:id/comments',
  {
    schema: {
      params: IdParams,
      querystring: PageQuery({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }),
      response: { 200: data(Type.Array(CommentViewSchema)) },
    },
  },
  async (request) => {
    const keys = afterKeys(request.query.after, 2);
    const scope = [request.params.id, request.principal.organizationId];
    const { limit } = request.query;
    const rows = await (keys
      ? database.run('commentsAfter', [...scope, ...keys, limit])
      : database.run('commentsFirst', [...scope, limit]));
    return { data: threads(rows, request.principal) };
  },
);

app.get(
  '/v1/custom-field',
  { schema: { querystring: PageQuery(), response: { 200: data(Type.Array(CustomFieldSchema)) } } },
  async (request) => {
    const keys = afterKeys(request.query.after, 2);
    const scope = [request.principal.organizationId];
    const { limit } = request.query;
    const rows = await (keys
      ? database.run('fieldsAfter', [...scope, ...keys, limit])
      : database.run('fieldsFirst', [...scope, limit]));
    return { data: rows.map(customFieldView) };
  },
);

app.get(
  '/api/v1/chat/history',
  {
    schema: {
      querystring: PageQuery({ limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }) }),
      response: { 200: Type.Object({ items: Type.Array(ThreadSchema), next_cursor: OptStr }) },
    },
  },
  async (request) => {
    const { organizationId, userId } = request.principal;
    const keys = afterKeys(request.query.after, 2);
    const { limit } = request.query;
    const rows = await (keys
      ? database.run('historyAfter', [organizationId, userId, ...keys, limit])
      : database.run('historyFirst', [organizationId, userId, limit]));
    const items = [];
    for (const row of rows) {
      let thread = items.at(-1);
      if (thread?.id !== row.id) {
        thread = {
          id: row.id,
          agent_id: row.agent_id,
          user_id: row.user_id,
          anon_user_id: null,
          organization_id: row.organization_id,
          title: row.title,
          metadata: row.metadata === null ? null : JSON.parse(row.metadata),
          last_activity_at: row.last_activity_at,
          created_at: row.created_at,
          updated_at: row.updated_at,
          messages: [],
        };
        items.push(thread);
      }
      if (row.message_id !== null) {
        thread.messages.push({
          id: row.message_id,
          thread_id: row.thread_id,
          content: row.content,
          content_html: row.content_html,
          role: row.role,
          tool_calls: JSON.parse(row.tool_calls ?? '[]'),
          attachments: JSON.parse(row.attachments ?? '[]'),
          metadata: row.message_metadata === null ? null : JSON.parse(row.message_metadata),
          created_at: row.message_created_at,
          feedback: null,
        });
      }
    }
    const last = items.at(-1);
    const next = items.length === request.query.limit && last ? [last.last_activity_at, last.id] : null;
    return { items, next_cursor: next ? Buffer.from(JSON.stringify(next)).toString('base64url') : null };
  },
);

app.get(
  '/collections',
  {
    schema: {
      // Without limit the whole list, as Switchboard answered before its list was paged; with it, the first page.
      querystring: Type.Object({
        helpCenterId: Type.String(),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      }),
      response: { 200: data(Type.Array(CollectionSchema)) },
    },
  },
  async (request) => {
    const { helpCenterId, limit } = request.query;
    const scope = [request.principal.organizationId, helpCenterId];
    const rows = await (limit ? database.run('collectionsFirst', [...scope, limit]) : database.run('collections', scope));
    return { data: rows.map(collectionView) };
  },
);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, async () => {
    await app.close();
    await database.close();
    process.exit(0);
  });
}

await app.listen({ port: PORT, host: '127.0.0.1' });
