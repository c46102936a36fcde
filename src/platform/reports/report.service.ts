import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Principal } from '../../lib/principal.js';
import { percentileOfBins } from './report.bins.js';
import { backlogBefore, sumDailyCounts, sumDurationBins, sumDurationBinsPerAgent } from './report.repository.js';
import { perBucket, type ReportRequest, requestOf, shareOf } from './report.request.js';
import type { AgentsReport, DurationReport, ReportQuery, VolumeReport } from './report.schemas.js';
import { sumSatisfactionCounts, sumSlaCounts } from './report-outcomes.repository.js';

/**
 * The reports, read from the aggregates (`report.table.ts`) of the days asked for: the cost grows
 * with the days × teams × agents that had activity, never with the tickets. Every user of the
 * organization may read them (members see the counts of every team, as they see its tickets'
 * list; the counts carry no ticket's content).
 */

export async function volumeReport(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<VolumeReport> {
  const request = await requestOf(db, principal, query);
  const rows = await sumDailyCounts(db, request.scope, request.from, request.to);
  const buckets = perBucket(request, () => ({ created: 0, closed: 0, reopened: 0, delta: 0 }));
  for (const row of rows) {
    const bucket = buckets.get(request.bucketOf(row.day));
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
    const bucket = buckets.get(request.bucketOf(row.day));
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
  slaMet: number;
  slaBreached: number;
  good: number;
  bad: number;
}

const newTally = (): AgentTally => ({
  ticketsHandled: 0,
  publicReplies: 0,
  firstReplies: new Map(),
  slaMet: 0,
  slaBreached: 0,
  good: 0,
  bad: 0,
});

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
  slaAttainment: shareOf(tally.slaMet, tally.slaMet + tally.slaBreached),
  goodShare: shareOf(tally.good, tally.good + tally.bad),
});

const active = (tally: AgentTally) =>
  tally.ticketsHandled > 0 ||
  tally.publicReplies > 0 ||
  tally.firstReplies.size > 0 ||
  tally.slaMet !== 0 ||
  tally.slaBreached > 0 ||
  tally.good + tally.bad > 0;
const byAgent = ([a]: [string, AgentTally], [b]: [string, AgentTally]) => (a < b ? -1 : a > b ? 1 : 0);

/** Adds each row to its agent's tally in its bucket and in the totals. */
function tallyRows<Row extends { day: string; agent_id: string }>(
  request: ReportRequest,
  tallies: { buckets: Map<string, Map<string, AgentTally>>; totals: Map<string, AgentTally> },
  rows: readonly Row[],
  add: (tally: AgentTally, row: Row) => void,
): void {
  for (const row of rows) {
    const bucket = tallies.buckets.get(request.bucketOf(row.day));
    for (const tally of bucket ? [tallyOf(bucket, row.agent_id), tallyOf(tallies.totals, row.agent_id)] : []) {
      add(tally, row);
    }
  }
}

export async function agentsReport(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<AgentsReport> {
  const request = await requestOf(db, principal, query);
  const { scope, from, to } = request;
  const tallies = { buckets: perBucket(request, () => new Map<string, AgentTally>()), totals: new Map<string, AgentTally>() };
  // Each agent's own rows, the unassigned's among them, never a team's or the organization's rollup.
  const perAgent = { perAgent: true };
  tallyRows(request, tallies, await sumDailyCounts(db, scope, from, to, perAgent), (tally, row) => {
    tally.ticketsHandled += Number(row.closed);
    tally.publicReplies += Number(row.public_replies);
  });
  tallyRows(request, tallies, await sumSlaCounts(db, scope, from, to, perAgent), (tally, row) => {
    tally.slaMet += Number(row.met);
    tally.slaBreached += Number(row.breached);
  });
  tallyRows(request, tallies, await sumSatisfactionCounts(db, scope, from, to, perAgent), (tally, row) => {
    tally.good += Number(row.good);
    tally.bad += Number(row.bad);
  });
  // The median first reply per agent over the range only (see the schema): one row per agent and
  // bin, where per bucket it would be one per agent, day and bin (about 200,000 for 200 agents over
  // 90 days at a million tickets a year).
  for (const row of await sumDurationBinsPerAgent(db, scope, from, to, 'first_reply_calendar')) {
    addBin(tallyOf(tallies.totals, row.agent_id).firstReplies, Number(row.bin), Number(row.count));
  }
  const series = [...tallies.buckets].flatMap(([start, bucket]) =>
    [...bucket]
      .filter(([, tally]) => active(tally))
      .sort(byAgent)
      .map(([agentId, tally]) => {
        const { firstReplyMedian: _median, ...values } = agentValues(agentId, tally);
        return { start, ...values };
      }),
  );
  const agents = [...tallies.totals]
    .filter(([, tally]) => active(tally))
    .sort(byAgent)
    .map(([agentId, tally]) => agentValues(agentId, tally));
  return { series, totals: { agents } };
}
