import { existsSync, rmSync } from 'node:fs';
import { createIdFactory } from '../src/lib/ids.js';
import {
  type CollectionSet,
  type DatasetLocation,
  type DatasetMeta,
  type DeepPage,
  datasetShape,
  readMeta,
  SEED_VERSION,
  sqliteFile,
  writeMeta,
} from './datasets.js';
import {
  openPostgresSeedDb,
  openSqliteSeedDb,
  postgresDatabaseExists,
  recreatePostgresDatabase,
  type SeedDb,
} from './seed-db.js';
import { api, type BenchServer, startSwitchboard, switchboardCli, waitUntilAnswering } from './servers.js';

/**
 * Seeds one dataset: an empty database migrated by Switchboard itself, one row of each kind made
 * through the API (so every column holds what the application writes), then copies of those rows
 * by direct inserts, with new ids in the project's formats (ULIDs on the platform, 24-hex object
 * ids in the help center, UUIDs in the agent studio) and distinct, increasing timestamps.
 */

export interface Organization {
  organizationId: string;
  userId: string;
  apiKey: string;
}

interface Templates {
  teamId: string;
  teamIdentifier: string;
  ticketId: string;
  writeTicketId: string;
  commentsTicketId: string;
  commentId: string;
  customFieldUid: string;
  agentId: string;
  threadId: string;
  messageId: string;
  helpCenters: { organization: Organization; helpCenterId: string; collectionId: string; count: number }[];
}

const LIST_LIMITS = { tickets: 10, comments: 20, customFields: 10, chatHistory: 10 } as const;

export async function seedDataset(
  location: DatasetLocation,
  options: { rowsOf1m: number; adminUrl: string; log: (line: string) => void },
): Promise<DatasetMeta> {
  const started = performance.now();
  const shape = datasetShape(location.size, options.rowsOf1m);
  const { log } = options;
  log(
    `seeding ${location.dialect} ${location.size}: ${shape.rows} rows per list, collections ${shape.collectionSizes.join('/')}`,
  );
  await resetDatabase(location, options.adminUrl);

  const organization = await createOrganization(location, 'Bench', 'admin@bench.test');
  const collectionOrganizations = [];
  for (const count of shape.collectionSizes) {
    collectionOrganizations.push({
      count,
      organization: await createOrganization(location, `Collections ${count}`, `c${count}@bench.test`),
    });
  }
  const templates = await createTemplates(location, organization, collectionOrganizations);
  log('  templates made through the API');

  const db =
    location.dialect === 'sqlite' ? openSqliteSeedDb(sqliteFile(location)) : await openPostgresSeedDb(location.databaseUrl ?? '');
  try {
    const base = Date.now() - (shape.rows + 60) * 1000;
    const readTicketId = await copyTickets(db, templates, shape.rows - 3, base, log);
    await copyComments(db, templates, shape.rows - 1, base, log);
    await copyCustomFields(db, templates, shape.rows - 1, base, log);
    await copyChatThreads(db, templates, shape.rows - 1, base, log);
    const collections: CollectionSet[] = [];
    for (const helpCenter of templates.helpCenters) {
      await copyCollections(db, helpCenter, base, log);
      collections.push({
        count: helpCenter.count,
        organizationId: helpCenter.organization.organizationId,
        apiKey: helpCenter.organization.apiKey,
        helpCenterId: helpCenter.helpCenterId,
      });
    }
    log('  finishing (checkpoint / vacuum analyze)');
    await db.finish();
    const meta: DatasetMeta = {
      seedVersion: SEED_VERSION,
      dialect: location.dialect,
      size: location.size,
      rows: shape.rows,
      seededAt: new Date().toISOString(),
      seedSeconds: 0,
      apiKey: organization.apiKey,
      organizationId: organization.organizationId,
      userId: organization.userId,
      teamId: templates.teamId,
      readTicketId,
      writeTicketId: templates.writeTicketId,
      commentsTicketId: templates.commentsTicketId,
      agentId: templates.agentId,
      deep: await deepPages(db, organization, templates),
      collections,
    };
    meta.seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    writeMeta(location, meta);
    log(`  seeded in ${meta.seedSeconds} s`);
    return meta;
  } finally {
    await db.close();
  }
}

export async function resetDatabase(location: DatasetLocation, adminUrl: string): Promise<void> {
  rmSync(location.metaFile, { force: true });
  rmSync(location.dataDir, { recursive: true, force: true });
  if (location.databaseName) {
    await recreatePostgresDatabase(adminUrl, location.databaseName);
  }
}

/** `switchboard orgs create --json`: migrates the empty database first, as every CLI command does. */
export async function createOrganization(location: DatasetLocation, name: string, email: string): Promise<Organization> {
  const out = await switchboardCli(location, ['orgs', 'create', '--name', name, '--admin-email', email, '--json']);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as Organization;
}

async function createTemplates(
  location: DatasetLocation,
  organization: Organization,
  collectionOrganizations: { count: number; organization: Organization }[],
): Promise<Templates> {
  const server = await startSwitchboard(location, {
    cpus: null,
    logLevel: 'warn',
    label: `seed-${location.dialect}-${location.size}`,
  });
  try {
    await waitUntilAnswering(server, organization.apiKey);
    return await makeTemplates(server, organization, collectionOrganizations);
  } finally {
    await server.stop();
  }
}

interface Data<T> {
  data: T;
}

async function makeTemplates(
  server: BenchServer,
  organization: Organization,
  collectionOrganizations: { count: number; organization: Organization }[],
): Promise<Templates> {
  const key = organization.apiKey;
  const team = await api<Data<{ id: string; identifier: string }>>(server, key, 'POST', '/v1/teams', {
    name: 'Bench',
    identifier: 'BEN',
  });
  const ticket = async (title: string) =>
    (
      await api<Data<{ id: string }>>(server, key, 'POST', '/v1/tickets', {
        title,
        requestorEmail: 'customer@bench.test',
        teamId: team.data.id,
      })
    ).data.id;
  const ticketId = await ticket('Printer on fire');
  const writeTicketId = await ticket('Comments written by the benchmark');
  const commentsTicketId = await ticket('A long conversation');
  const comment = await api<Data<{ id: string }>>(server, key, 'POST', `/v1/tickets/${commentsTicketId}/comment`, {
    content: 'Thanks for reaching out. We are looking into it and will get back to you shortly.',
  });
  const field = await api<Data<{ uid: string }>>(server, key, 'POST', '/v1/custom-field', {
    name: 'Field template',
    source: 'ticket',
    fieldType: 'single_line',
  });
  const agent = await api<{ id: string }>(server, key, 'POST', '/api/v1/agents', { name: 'Bench agent' });
  const thread = await api<{ id: string }>(server, key, 'POST', `/api/v1/chat/${agent.id}/threads`, { title: 'Thread template' });
  const message = await api<{ id: string }>(server, key, 'POST', `/api/v1/chat/${agent.id}/threads/${thread.id}/messages`, {
    content: 'How do I reset my password?',
    role: 'user',
  });
  const helpCenters = [];
  for (const { count, organization: owner } of collectionOrganizations) {
    const helpCenter = await api<Data<{ _id: string }>>(server, owner.apiKey, 'POST', '/help-centers', { name: `Help ${count}` });
    const collection = await api<Data<{ _id: string }>>(server, owner.apiKey, 'POST', '/collections', {
      helpCenterId: helpCenter.data._id,
      name: 'Collection template',
      description: 'Articles about one topic',
    });
    helpCenters.push({ organization: owner, helpCenterId: helpCenter.data._id, collectionId: collection.data._id, count });
  }
  return {
    teamId: team.data.id,
    teamIdentifier: team.data.identifier,
    ticketId,
    writeTicketId,
    commentsTicketId,
    commentId: comment.data.id,
    customFieldUid: field.data.uid,
    agentId: agent.id,
    threadId: thread.id,
    messageId: message.id,
    helpCenters,
  };
}

/** Ids of the project's formats for rows made at chosen instants (a clock the seed moves). */
export function idsAt() {
  let now = 0;
  const ids = createIdFactory({ now: () => new Date(now) });
  return {
    at(ms: number) {
      now = ms;
      return ids;
    },
  };
}

export const iso = (ms: number) => new Date(ms).toISOString();

export function progress(log: (line: string) => void, what: string, count: number, started: number): void {
  log(`  ${count} ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Copies of the template ticket, numbered after it; answers the id of the one in the middle. */
async function copyTickets(db: SeedDb, t: Templates, count: number, base: number, log: (line: string) => void): Promise<string> {
  const started = performance.now();
  const clock = idsAt();
  const ids = Array.from({ length: count }, (_, index) => clock.at(base + index * 1000).ulid());
  const first = ((await db.query<{ n: number }>('select max(ticket_number) as n from tickets where team_id = ?', [t.teamId]))[0]
    ?.n ?? 0) as number;
  // The team has no agents, so every ticket waits for one; a million waiting tickets would keep the
  // routing worker scanning them all in the background, which no real deployment does. Cleared on
  // the templates before copying: updating a million rows afterwards would leave PostgreSQL's
  // heap and every ticket index twice their size (each row a new version), unlike a real table.
  await db.exec('update tickets set awaiting_assignment_since = null where team_id = ?', [t.teamId]);
  await db.copyRow('tickets', 'id', t.ticketId, count, {
    id: (index) => ids[index] as string,
    ticket_number: (index) => first + 1 + index,
    ticket_identifier: (index) => `${t.teamIdentifier}-${first + 1 + index}`,
    title: (index) => `Ticket ${first + 1 + index}`,
    created_at: (index) => iso(base + index * 1000),
    updated_at: (index) => iso(base + index * 1000),
  });
  await db.exec('update team_ticket_counters set last_number = ? where team_id = ?', [first + count, t.teamId]);
  progress(log, 'tickets', count, started);
  return ids[Math.floor(count / 2)] as string;
}

async function copyComments(db: SeedDb, t: Templates, count: number, base: number, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const clock = idsAt();
  await db.copyRow('ticket_comments', 'id', t.commentId, count, {
    id: (index) => clock.at(base + index * 1000).ulid(),
    created_at: (index) => iso(base + index * 1000),
    updated_at: (index) => iso(base + index * 1000),
  });
  progress(log, 'comments', count, started);
}

async function copyCustomFields(
  db: SeedDb,
  t: Templates,
  count: number,
  base: number,
  log: (line: string) => void,
): Promise<void> {
  const started = performance.now();
  const clock = idsAt();
  await db.copyRow('custom_fields', 'uid', t.customFieldUid, count, {
    uid: (index) => clock.at(base + index * 1000).ulid(),
    name: (index) => `Field ${index + 1}`,
    slug: (index) => `field-${index + 1}`,
    created_at: (index) => iso(base + index * 1000),
    updated_at: (index) => iso(base + index * 1000),
  });
  progress(log, 'custom fields', count, started);
}

/** Threads of the admin with the agent, each with one message (what the history returns per thread). */
async function copyChatThreads(
  db: SeedDb,
  t: Templates,
  count: number,
  base: number,
  log: (line: string) => void,
): Promise<void> {
  const started = performance.now();
  const clock = idsAt();
  const threadIds = Array.from({ length: count }, () => clock.at(0).uuid());
  await db.copyRow('chat_threads', 'id', t.threadId, count, {
    id: (index) => threadIds[index] as string,
    title: (index) => `Thread ${index + 1}`,
    last_activity_at: (index) => iso(base + index * 1000),
    created_at: (index) => iso(base + index * 1000),
    updated_at: (index) => iso(base + index * 1000),
  });
  await db.copyRow('chat_messages', 'id', t.messageId, count, {
    id: () => clock.at(0).uuid(),
    thread_id: (index) => threadIds[index] as string,
    sort_key: (index) => clock.at(base + index * 1000).ulid(),
    created_at: (index) => iso(base + index * 1000),
  });
  progress(log, 'chat threads (one message each)', count, started);
}

async function copyCollections(
  db: SeedDb,
  helpCenter: Templates['helpCenters'][number],
  base: number,
  log: (line: string) => void,
): Promise<void> {
  const started = performance.now();
  const clock = idsAt();
  const count = helpCenter.count - 1;
  const organizationId = helpCenter.organization.organizationId;
  const first = ((
    await db.query<{ n: number }>(
      "select last_value as n from help_center_counters where organization_id = ? and scope = 'collection'",
      [organizationId],
    )
  )[0]?.n ?? 0) as number;
  await db.copyRow('help_center_collections', 'id', helpCenter.collectionId, count, {
    id: (index) => clock.at(base + index * 1000).objectId(),
    uid: (index) => first + 1 + index,
    name: (index) => `Collection ${index + 2}`,
    slug: (index) => `collection-${index + 2}`,
    position: (index) => index + 2,
    created_at: (index) => iso(base + index * 1000),
    updated_at: (index) => iso(base + index * 1000),
  });
  await db.exec("update help_center_counters set last_value = ? where organization_id = ? and scope = 'collection'", [
    first + count,
    organizationId,
  ]);
  progress(log, `collections in one help center (${helpCenter.count} in all)`, count, started);
}

/** Where each list's last full page starts, in Switchboard's order, found once with the slow OFFSET. */
async function deepPages(db: SeedDb, organization: Organization, t: Templates): Promise<DatasetMeta['deep']> {
  const tickets = await deepPage(db, {
    from: 'tickets where organization_id = ? and team_id = ? and deleted_at is null',
    params: [organization.organizationId, t.teamId],
    keys: [db.isoOf('created_at'), 'id'],
    order: 'created_at desc, id desc',
    limit: LIST_LIMITS.tickets,
  });
  const comments = await deepPage(db, {
    from: 'ticket_comments where ticket_id = ? and parent_comment_id is null and deleted_at is null',
    params: [t.commentsTicketId],
    keys: [db.isoOf('created_at'), 'id'],
    order: 'created_at, id',
    limit: LIST_LIMITS.comments,
  });
  const customFields = await deepPage(db, {
    from: 'custom_fields where organization_id = ? and deleted_at is null',
    params: [organization.organizationId],
    keys: [db.isoOf('created_at'), 'uid'],
    order: 'created_at, uid',
    limit: LIST_LIMITS.customFields,
  });
  const chatHistory = await deepPage(db, {
    from: 'chat_threads where organization_id = ? and user_id = ?',
    params: [organization.organizationId, organization.userId],
    keys: [db.isoOf('last_activity_at'), 'id'],
    order: 'last_activity_at desc, id desc',
    limit: LIST_LIMITS.chatHistory,
  });
  return { tickets, comments, customFields, chatHistory };
}

async function deepPage(
  db: SeedDb,
  list: { from: string; params: string[]; keys: string[]; order: string; limit: number },
): Promise<DeepPage> {
  const total = Number(
    (await db.query<{ n: number | string }>(`select count(*) as n from ${list.from}`, list.params))[0]?.n ?? 0,
  );
  const page = Math.max(0, Math.floor(total / list.limit) - 1);
  if (page === 0) {
    return { page, limit: list.limit, total, afterKeys: [] };
  }
  const [row] = await db.query<Record<string, string>>(
    `select ${list.keys.map((key, index) => `${key} as k${index}`).join(', ')} from ${list.from}
     order by ${list.order} limit 1 offset ${page * list.limit - 1}`,
    list.params,
  );
  return { page, limit: list.limit, total, afterKeys: list.keys.map((_, index) => String(row?.[`k${index}`] ?? '')) };
}

/** The dataset's meta when it is seeded (current seed version, same size, database present); else seeds it. */
export async function ensureDataset(
  location: DatasetLocation,
  options: { rowsOf1m: number; adminUrl: string; force: boolean; log: (line: string) => void },
): Promise<DatasetMeta> {
  const meta = readMeta(location);
  const present =
    meta !== null &&
    meta.rows === datasetShape(location.size, options.rowsOf1m).rows &&
    (location.databaseName
      ? await postgresDatabaseExists(options.adminUrl, location.databaseName)
      : existsSync(sqliteFile(location)));
  if (meta && present && !options.force) {
    return meta;
  }
  return seedDataset(location, options);
}
