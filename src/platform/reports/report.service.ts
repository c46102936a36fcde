import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Principal } from '../../lib/principal.js';
import { percentileOfBins } from './report.bins.js';
import { backlogBefore, sumDailyCounts, sumDurationBins, sumDurationBinsPerAgent } from './report.repository.js';
import { perBucket, requestOf, shareOf } from './report.request.js';
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

const addCounts = (tally: AgentTally, row: { closed: number; public_replies: number }) => {
  tally.ticketsHandled += Number(row.closed);
  tally.publicReplies += Number(row.public_replies);
};
const addOutcomes = (tally: AgentTally, row: { met: number; breached: number }) => {
  tally.slaMet += Number(row.met);
  tally.slaBreached += Number(row.breached);
};
const addRatings = (tally: AgentTally, row: { good: number; bad: number }) => {
  tally.good += Number(row.good);
  tally.bad += Number(row.bad);
};

/**
 * Each agent over the range (`totals`), and the scope's agents together per bucket (`series`,
 * what the console charts). The buckets read the scope's rollup, a row per day; the totals read
 * the agents' own rows summed over the range. Per agent and bucket it would be a row per agent and
 * day, and per agent, day and minute for the median first reply: at a million tickets a year in
 * 200 agents' hands, about 18,000 series rows and 200,000 bin rows for 90 days.
 */
export async function agentsReport(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<AgentsReport> {
  const request = await requestOf(db, principal, query);
  const { scope, from, to } = request;
  const perAgent = { perAgent: true };
  const [counts, outcomes, ratings, agentCounts, agentOutcomes, agentRatings, firstReplies] = await Promise.all([
    sumDailyCounts(db, scope, from, to),
    sumSlaCounts(db, scope, from, to),
    sumSatisfactionCounts(db, scope, from, to),
    sumDailyCounts(db, scope, from, to, perAgent),
    sumSlaCounts(db, scope, from, to, perAgent),
    sumSatisfactionCounts(db, scope, from, to, perAgent),
    sumDurationBinsPerAgent(db, scope, from, to, 'first_reply_calendar'),
  ]);
  const buckets = perBucket(request, newTally);
  const inBuckets = <Row extends { day: string }>(rows: readonly Row[], add: (tally: AgentTally, row: Row) => void) => {
    for (const row of rows) {
      const tally = buckets.get(request.bucketOf(row.day));
      if (tally) {
        add(tally, row);
      }
    }
  };
  inBuckets(counts, addCounts);
  inBuckets(outcomes, addOutcomes);
  inBuckets(ratings, addRatings);
  const totals = new Map<string, AgentTally>();
  const perAgentOf = <Row extends { agent_id: string }>(rows: readonly Row[], add: (tally: AgentTally, row: Row) => void) => {
    for (const row of rows) {
      add(tallyOf(totals, row.agent_id), row);
    }
  };
  perAgentOf(agentCounts, addCounts);
  perAgentOf(agentOutcomes, addOutcomes);
  perAgentOf(agentRatings, addRatings);
  perAgentOf(firstReplies, (tally, row) => addBin(tally.firstReplies, Number(row.bin), Number(row.count)));
  const series = [...buckets].map(([start, tally]) => {
    const { agentId: _agent, firstReplyMedian: _median, ...values } = agentValues('', tally);
    return { start, ...values };
  });
  const agents = [...totals]
    .filter(([, tally]) => active(tally))
    .sort(byAgent)
    .map(([agentId, tally]) => agentValues(agentId, tally));
  return { series, totals: { agents } };
}
