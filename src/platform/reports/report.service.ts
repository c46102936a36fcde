import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { findTeam } from '../teams/team.lookup.js';
import { findLiveUser } from '../users/user.lookup.js';
import { percentileOfBins } from './report.bins.js';
import { bucketStart, bucketStarts, daysInRange } from './report.buckets.js';
import { backlogBefore, type ReportScope, sumDailyCounts, sumDurationBins } from './report.repository.js';
import {
  type AgentsReport,
  type DurationReport,
  MAX_REPORT_DAYS,
  type ReportInterval,
  type ReportQuery,
  type VolumeReport,
} from './report.schemas.js';

/**
 * The reports, read from the aggregates (`report.table.ts`) of the days asked for: the cost grows
 * with the days × teams × agents that had activity, never with the tickets. Every user of the
 * organization may read them (members see the counts of every team, as they see its tickets'
 * list; the counts carry no ticket's content).
 */

interface ReportRequest {
  scope: ReportScope;
  from: string;
  to: string;
  interval: ReportInterval;
}

/** Checks the range and the team and agent named (another organization's: 404); nothing is written. */
async function requestOf(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<ReportRequest> {
  if (query.to < query.from) {
    throw AppError.invalid('to must not be before from', {
      location: 'query',
      path: ['to'],
      rule: 'range',
      message: 'must not be before from',
    });
  }
  if (daysInRange(query.from, query.to) > MAX_REPORT_DAYS) {
    throw AppError.invalid(`The range must be at most ${MAX_REPORT_DAYS} days (two years)`, {
      location: 'query',
      path: ['to'],
      rule: 'range',
      message: `must be at most ${MAX_REPORT_DAYS} days after from, both included`,
    });
  }
  const organizationId = principal.organizationId;
  if (query.teamId && !(await findTeam(db, organizationId, query.teamId, { includeArchived: true }))) {
    throw AppError.notFound('Team not found!');
  }
  if (query.agentId && !(await findLiveUser(db, organizationId, query.agentId))) {
    throw AppError.notFound('User not found!');
  }
  return {
    scope: { organizationId, teamId: query.teamId, agentId: query.agentId },
    from: query.from,
    to: query.to,
    interval: query.interval ?? 'day',
  };
}

/** A value per bucket start, every bucket present. */
function perBucket<T>(request: ReportRequest, empty: () => T): Map<string, T> {
  return new Map(bucketStarts(request.from, request.to, request.interval).map((start) => [start, empty()]));
}

export async function volumeReport(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<VolumeReport> {
  const request = await requestOf(db, principal, query);
  const rows = await sumDailyCounts(db, request.scope, request.from, request.to);
  const buckets = perBucket(request, () => ({ created: 0, closed: 0, reopened: 0, delta: 0 }));
  for (const row of rows) {
    const bucket = buckets.get(bucketStart(row.day, request.interval));
    if (bucket) {
      bucket.created += Number(row.created);
      bucket.closed += Number(row.closed);
      bucket.reopened += Number(row.reopened);
      bucket.delta += Number(row.backlog_delta);
    }
  }
  let backlog = await backlogBefore(db, request.scope, request.from);
  const series = [...buckets].map(([start, bucket]) => {
    backlog += bucket.delta;
    return { start, created: bucket.created, closed: bucket.closed, reopened: bucket.reopened, backlog };
  });
  const sum = (name: 'created' | 'closed' | 'reopened') => series.reduce((total, entry) => total + entry[name], 0);
  return { series, totals: { created: sum('created'), closed: sum('closed'), reopened: sum('reopened'), backlog } };
}

type Bins = Map<number, number>;

function addBin(bins: Bins, bin: number, count: number): void {
  bins.set(bin, (bins.get(bin) ?? 0) + count);
}

function durationValues(calendar: Bins, business: Bins) {
  return {
    count: [...calendar.values()].reduce((total, count) => total + count, 0),
    calendarMedian: percentileOfBins(calendar, 0.5),
    calendarP90: percentileOfBins(calendar, 0.9),
    businessMedian: percentileOfBins(business, 0.5),
    businessP90: percentileOfBins(business, 0.9),
  };
}

export async function durationReport(
  db: Kysely<DB>,
  principal: Principal,
  query: ReportQuery,
  kind: 'first_reply' | 'resolution',
): Promise<DurationReport> {
  const request = await requestOf(db, principal, query);
  const calendarMetric = `${kind}_calendar` as const;
  const rows = await sumDurationBins(db, request.scope, request.from, request.to, [calendarMetric, `${kind}_business`]);
  const buckets = perBucket(request, () => ({ calendar: new Map() as Bins, business: new Map() as Bins }));
  const totals = { calendar: new Map() as Bins, business: new Map() as Bins };
  for (const row of rows) {
    const bucket = buckets.get(bucketStart(row.day, request.interval));
    const side = row.metric === calendarMetric ? 'calendar' : 'business';
    if (bucket) {
      addBin(bucket[side], Number(row.bin), Number(row.count));
      addBin(totals[side], Number(row.bin), Number(row.count));
    }
  }
  return {
    series: [...buckets].map(([start, bucket]) => ({ start, ...durationValues(bucket.calendar, bucket.business) })),
    totals: durationValues(totals.calendar, totals.business),
  };
}

interface AgentTally {
  ticketsHandled: number;
  publicReplies: number;
  firstReplies: Bins;
}

const newTally = (): AgentTally => ({ ticketsHandled: 0, publicReplies: 0, firstReplies: new Map() });

function tallyOf(tallies: Map<string, AgentTally>, agentId: string): AgentTally {
  const tally = tallies.get(agentId) ?? newTally();
  tallies.set(agentId, tally);
  return tally;
}

const agentValues = (agentId: string, tally: AgentTally) => ({
  agentId: agentId === '' ? null : agentId,
  ticketsHandled: tally.ticketsHandled,
  publicReplies: tally.publicReplies,
  firstReplyMedian: percentileOfBins(tally.firstReplies, 0.5),
});

const active = (tally: AgentTally) => tally.ticketsHandled > 0 || tally.publicReplies > 0 || tally.firstReplies.size > 0;
const byAgent = ([a]: [string, AgentTally], [b]: [string, AgentTally]) => (a < b ? -1 : a > b ? 1 : 0);

export async function agentsReport(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<AgentsReport> {
  const request = await requestOf(db, principal, query);
  const counts = await sumDailyCounts(db, request.scope, request.from, request.to);
  const bins = await sumDurationBins(db, request.scope, request.from, request.to, ['first_reply_calendar']);
  const buckets = perBucket(request, () => new Map<string, AgentTally>());
  const totals = new Map<string, AgentTally>();
  for (const row of counts) {
    const bucket = buckets.get(bucketStart(row.day, request.interval));
    for (const tally of bucket ? [tallyOf(bucket, row.agent_id), tallyOf(totals, row.agent_id)] : []) {
      tally.ticketsHandled += Number(row.closed);
      tally.publicReplies += Number(row.public_replies);
    }
  }
  for (const row of bins) {
    const bucket = buckets.get(bucketStart(row.day, request.interval));
    for (const tally of bucket ? [tallyOf(bucket, row.agent_id), tallyOf(totals, row.agent_id)] : []) {
      addBin(tally.firstReplies, Number(row.bin), Number(row.count));
    }
  }
  const series = [...buckets].flatMap(([start, tallies]) =>
    [...tallies]
      .filter(([, tally]) => active(tally))
      .sort(byAgent)
      .map(([agentId, tally]) => ({ start, ...agentValues(agentId, tally) })),
  );
  const agents = [...totals]
    .filter(([, tally]) => active(tally))
    .sort(byAgent)
    .map(([agentId, tally]) => agentValues(agentId, tally));
  return { series, totals: { agents } };
}
