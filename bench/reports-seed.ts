import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type BenchDialect, DATA_DIR, type DatasetLocation, databaseUrlFor, sqliteFile } from './datasets.js';
import { DeskAggregates, type DeskShape, isClosedNow, type SimulatedTicket, simulateTicket } from './reports-simulation.js';
import { createOrganization, idsAt, iso, progress, resetDatabase } from './seed-data.js';
import { openPostgresSeedDb, openSqliteSeedDb, postgresDatabaseExists, type SeedDb, type Value } from './seed-db.js';
import { api, type BenchServer, startSwitchboard, switchboardCli, waitUntilAnswering } from './servers.js';

/**
 * The reports dataset: one organization with 20 teams in five time zones, 10 agents in each, an
 * SLA policy, and a year of 1,000,000 tickets (`reports-simulation.ts`). The organization, teams,
 * agents, configurations and policy are made through the CLI and the API, as a support lead makes
 * them; one ticket is made through the API and copied a million times by direct inserts, with the
 * simulated team, assignee, priority, status and times; the report aggregates those tickets would
 * have left are written beside them.
 */
/** Bumped when the seed writes something else: a dataset of another version is seeded again. */
const REPORTS_SEED_VERSION = 2;
const TEAMS = 20;
const AGENTS_PER_TEAM = 10;
const TIMEZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'America/Los_Angeles'];

export interface ReportsMeta {
  seedVersion: number;
  dialect: BenchDialect;
  tickets: number;
  seededAt: string;
  seedSeconds: number;
  /** The last day of the simulated year (UTC), where the 90-day reports end. */
  lastDay: string;
  apiKey: string;
  teamIds: string[];
  agentIds: string[];
  rows: Record<string, number>;
}

export function reportsLocation(dialect: BenchDialect, adminUrl: string): DatasetLocation {
  const metaFile = join(DATA_DIR, `${dialect}-reports.meta.json`);
  // `size` names the ticket datasets' shapes; nothing reads it for this one (as the help center's).
  if (dialect === 'sqlite') {
    return { dialect, size: '1m', dataDir: join(DATA_DIR, 'sqlite-reports'), metaFile };
  }
  const databaseName = 'switchboard_bench_reports';
  return {
    dialect,
    size: '1m',
    dataDir: join(DATA_DIR, 'postgres-reports-files'),
    databaseName,
    databaseUrl: databaseUrlFor(adminUrl, databaseName),
    metaFile,
  };
}

/** The dataset's meta when it is seeded with these tickets; else seeds it. Migrated to the working tree's schema. */
export async function ensureReportsDataset(
  dialect: BenchDialect,
  options: { adminUrl: string; tickets: number; force: boolean; log: (line: string) => void },
): Promise<{ location: DatasetLocation; meta: ReportsMeta }> {
  const location = reportsLocation(dialect, options.adminUrl);
  const meta = existsSync(location.metaFile) ? (JSON.parse(readFileSync(location.metaFile, 'utf8')) as ReportsMeta) : null;
  const present =
    meta?.seedVersion === REPORTS_SEED_VERSION &&
    meta.tickets === options.tickets &&
    (location.databaseName
      ? await postgresDatabaseExists(options.adminUrl, location.databaseName)
      : existsSync(sqliteFile(location)));
  const seeded = meta && present && !options.force ? meta : await seedReports(location, options);
  await switchboardCli(location, ['migrate']);
  return { location, meta: seeded };
}

interface Desk {
  shape: DeskShape;
  apiKey: string;
  organizationId: string;
  templateTicketId: string;
  teamIdentifiers: string[];
}

async function seedReports(
  location: DatasetLocation,
  options: { adminUrl: string; tickets: number; log: (line: string) => void },
): Promise<ReportsMeta> {
  const started = performance.now();
  options.log(`seeding ${location.dialect} reports dataset: ${options.tickets} tickets over a year`);
  await resetDatabase(location, options.adminUrl);
  const organization = await createOrganization(location, 'Reports', 'lead@reports.test');
  const server = await startSwitchboard(location, { cpus: null, logLevel: 'warn', label: `seed-reports-${location.dialect}` });
  let desk: Desk;
  try {
    await waitUntilAnswering(server, organization.apiKey);
    desk = await makeDeskThroughApi(server, organization.apiKey, options.tickets);
    desk.organizationId = organization.organizationId;
  } finally {
    await server.stop();
  }
  options.log('  organization, teams, agents and policy made through the CLI and the API');
  const db =
    location.dialect === 'sqlite' ? openSqliteSeedDb(sqliteFile(location)) : await openPostgresSeedDb(location.databaseUrl ?? '');
  let rows: Record<string, number>;
  try {
    await copyTickets(db, desk, options.log);
    rows = await writeAggregates(db, desk, options.log);
    options.log('  finishing (checkpoint / vacuum analyze)');
    await db.finish();
  } finally {
    await db.close();
  }
  const meta: ReportsMeta = {
    seedVersion: REPORTS_SEED_VERSION,
    dialect: location.dialect,
    tickets: options.tickets,
    seededAt: new Date().toISOString(),
    seedSeconds: Math.round((performance.now() - started) / 100) / 10,
    lastDay: new Date(desk.shape.now).toISOString().slice(0, 10),
    apiKey: organization.apiKey,
    teamIds: desk.shape.teams.map((team) => team.id),
    agentIds: desk.shape.teams.flatMap((team) => team.agentIds),
    rows,
  };
  mkdirSync(dirname(location.metaFile), { recursive: true });
  writeFileSync(location.metaFile, `${JSON.stringify(meta, null, 2)}\n`);
  options.log(`  seeded in ${meta.seedSeconds} s`);
  return meta;
}

interface Option {
  id: string;
  name: string;
  isClosed: boolean;
}

async function makeDeskThroughApi(server: BenchServer, apiKey: string, tickets: number): Promise<Desk> {
  // The platform API answers `{ data }`.
  const call = async <T>(method: string, path: string, body?: unknown) =>
    (await api<{ data: T }>(server, apiKey, method, path, body)).data;
  const teams: DeskShape['teams'] = [];
  const teamIdentifiers: string[] = [];
  for (let t = 0; t < TEAMS; t++) {
    const identifier = `R${String.fromCharCode(65 + Math.floor(t / 26))}${String.fromCharCode(65 + (t % 26))}`;
    const team = await call<{ id: string }>('POST', '/v1/teams', { name: `Desk ${t + 1}`, identifier });
    const timezone = TIMEZONES[t % TIMEZONES.length] as string;
    await call('PATCH', `/v1/teams/${team.id}/configurations`, { timezone });
    const agentIds: string[] = [];
    for (let a = 0; a < AGENTS_PER_TEAM; a++) {
      const user = await call<{ id: string }>('POST', '/v1/users', {
        name: `Agent ${t + 1}.${a + 1}`,
        email: `agent-${t}-${a}@reports.test`,
      });
      await call('POST', `/v1/teams/${team.id}/members`, { userId: user.id });
      agentIds.push(user.id);
    }
    const statuses = await call<Option[]>('GET', `/v1/tickets/statuses?teamId=${team.id}`);
    const priorities = await call<Option[]>('GET', `/v1/tickets/priorities?teamId=${team.id}`);
    const open = statuses.find((status) => !status.isClosed);
    const closed = statuses.find((status) => status.isClosed);
    if (!open || !closed) {
      throw new Error('a new team has no open or no closed status');
    }
    teams.push({
      id: team.id,
      timezone,
      agentIds,
      openStatusId: open.id,
      closedStatusId: closed.id,
      priorityIds: priorities.map((p) => p.id),
    });
    teamIdentifiers.push(identifier);
  }
  const policy = await call<{ id: string }>('POST', '/v1/sla-policies', {
    name: 'Standard',
    businessHours: false,
    targets: Object.fromEntries(['low', 'medium', 'high', 'urgent'].map((name) => [name, { firstReply: 60, resolution: 1440 }])),
  });
  const template = await call<{ id: string }>('POST', '/v1/tickets', {
    teamId: teams[0]?.id,
    title: 'Template',
    description: 'The invoice shows the old address.',
    requestorEmail: 'customer@example.com',
  });
  // The simulated year ends at the start of this UTC day: its days are whole.
  const now = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  return {
    shape: { tickets, now, days: 365, teams, slaPolicyId: policy.id },
    apiKey,
    organizationId: '',
    templateTicketId: template.id,
    teamIdentifiers,
  };
}

/** The million tickets: copies of the template with each simulated ticket's team, assignee, status and times. */
async function copyTickets(db: SeedDb, desk: Desk, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const { shape } = desk;
  const clock = idsAt();
  let last: { index: number; ticket: SimulatedTicket } = { index: -1, ticket: simulateTicket(shape, 0) };
  const at = (index: number) => {
    if (last.index !== index) {
      last = { index, ticket: simulateTicket(shape, index) };
    }
    return last.ticket;
  };
  const team = (index: number) => shape.teams[at(index).team] as DeskShape['teams'][number];
  // Numbers after the template's (the first team's number 1); each team counts its own.
  const numberOf = (index: number) => Math.floor(index / shape.teams.length) + 2;
  await db.copyRow('tickets', 'id', desk.templateTicketId, shape.tickets - 1, {
    id: (index) => clock.at(at(index + 1).createdAt).ulid(),
    team_id: (index) => team(index + 1).id,
    ticket_number: (index) => numberOf(index + 1),
    ticket_identifier: (index) => `${desk.teamIdentifiers[at(index + 1).team]}-${numberOf(index + 1)}`,
    title: (index) => `Ticket ${index + 2}`,
    status_id: (index) => (isClosedNow(at(index + 1)) ? team(index + 1).closedStatusId : team(index + 1).openStatusId),
    priority_id: (index) => team(index + 1).priorityIds[at(index + 1).priority] ?? null,
    assigned_agent_id: (index) => at(index + 1).agentId,
    awaiting_assignment_since: () => null,
    closed_at: (index) => (isClosedNow(at(index + 1)) ? iso(at(index + 1).closes.at(-1) as number) : null),
    created_at: (index) => iso(at(index + 1).createdAt),
    updated_at: (index) => iso(at(index + 1).closes.at(-1) ?? at(index + 1).createdAt),
  });
  // Each team's counter at its highest number, so that a ticket made afterwards gets the next one.
  for (const [t, teamShape] of shape.teams.entries()) {
    const highest =
      t < shape.tickets ? numberOf(t + Math.floor((shape.tickets - 1 - t) / shape.teams.length) * shape.teams.length) : 0;
    await db.exec('delete from team_ticket_counters where team_id = ?', [teamShape.id]);
    await db.exec('insert into team_ticket_counters (team_id, last_number) values (?, ?)', [teamShape.id, Math.max(highest, 1)]);
  }
  progress(log, 'tickets', shape.tickets - 1, started);
}

/** The aggregates of every simulated ticket (the template's included), in bulk. */
async function writeAggregates(db: SeedDb, desk: Desk, log: (line: string) => void): Promise<Record<string, number>> {
  const started = performance.now();
  const aggregates = new DeskAggregates(desk.shape);
  for (let index = 0; index < desk.shape.tickets; index++) {
    aggregates.add(simulateTicket(desk.shape, index));
  }
  progress(log, 'tickets simulated', desk.shape.tickets, started);
  const org = desk.organizationId;
  const split = (id: string) => id.split('|');
  const tables: [string, string[], Value[][]][] = [
    [
      'report_daily_counts',
      ['organization_id', 'team_id', 'agent_id', 'day', 'created', 'closed', 'reopened', 'public_replies', 'backlog_delta'],
      [...aggregates.daily].map(([id, c]) => [
        org,
        ...split(id),
        c.created,
        c.closed,
        c.reopened,
        c.public_replies,
        c.backlog_delta,
      ]),
    ],
    [
      'report_duration_bins',
      ['organization_id', 'team_id', 'agent_id', 'day', 'metric', 'bin', 'count'],
      [...aggregates.bins].map(([id, count]) => {
        const [team, agent, day, metric, bin] = split(id);
        return [org, team ?? '', agent ?? '', day ?? '', metric ?? '', Number(bin), count];
      }),
    ],
    [
      'report_sla_counts',
      ['organization_id', 'team_id', 'agent_id', 'day', 'policy_id', 'metric', 'met', 'breached'],
      [...aggregates.sla].map(([id, c]) => [org, ...split(id), c.met, c.breached]),
    ],
    [
      'report_satisfaction_counts',
      ['organization_id', 'team_id', 'agent_id', 'day', 'sent', 'responses', 'good', 'bad'],
      [...aggregates.satisfaction].map(([id, c]) => [org, ...split(id), c.sent, c.responses, c.good, c.bad]),
    ],
  ];
  const rows: Record<string, number> = {};
  for (const [table, columns, values] of tables) {
    const written = performance.now();
    // The template ticket's own counts were written by the API: these replace them.
    await db.exec(`delete from ${table} where organization_id = ?`, [org]);
    await insertRows(db, table, columns, values);
    rows[table] = values.length;
    progress(log, `${table} rows`, values.length, written);
  }
  return rows;
}

async function insertRows(db: SeedDb, table: string, columns: string[], rows: Value[][]): Promise<void> {
  const batch = Math.floor(2_000 / columns.length);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  await db.exec('begin');
  for (let from = 0; from < rows.length; from += batch) {
    const part = rows.slice(from, from + batch);
    await db.exec(`insert into ${table} (${columns.join(', ')}) values ${part.map(() => tuple).join(', ')}`, part.flat());
  }
  await db.exec('commit');
}
