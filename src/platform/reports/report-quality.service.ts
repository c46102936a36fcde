import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { Principal } from '../../lib/principal.js';
import { SLA_METRICS, type SlaMetric } from '../../shared/sla.js';
import { perBucket, requestOf, shareOf } from './report.request.js';
import type { ReportQuery, SatisfactionReport, SlaMetricCounts, SlaReport } from './report.schemas.js';
import { findPolicyNames, sumSatisfactionCounts, sumSlaCounts } from './report-outcomes.repository.js';

/**
 * The `sla` and `satisfaction` reports, read from their aggregates (`report.table.ts`) of the days
 * asked for, as the other reports are (`report.service.ts`).
 */

type MetricCounts = Record<SlaMetric, { met: number; breached: number }>;

const noCounts = (): MetricCounts =>
  Object.fromEntries(SLA_METRICS.map((metric) => [metric, { met: 0, breached: 0 }])) as MetricCounts;

/** Met, breached and attainment per metric, and of every metric together. */
export function slaValues(counts: MetricCounts): Omit<SlaMetricCounts, 'policyId' | 'name'> {
  const metrics = SLA_METRICS.map((metric) => {
    const { met, breached } = counts[metric];
    return [metric, { met, breached, attainment: shareOf(met, met + breached) }] as const;
  });
  const met = SLA_METRICS.reduce((total, metric) => total + counts[metric].met, 0);
  const breaches = SLA_METRICS.reduce((total, metric) => total + counts[metric].breached, 0);
  return {
    ...(Object.fromEntries(metrics) as Record<SlaMetric, { met: number; breached: number; attainment: number | null }>),
    attainment: shareOf(met, met + breaches),
    breaches,
  };
}

/** A bucket's (or the range's) counts, in total and per policy. */
class SlaTally {
  readonly all = noCounts();
  readonly policies = new Map<string, MetricCounts>();

  add(policyId: string, metric: SlaMetric, met: number, breached: number): void {
    const policy = this.policies.get(policyId) ?? noCounts();
    this.policies.set(policyId, policy);
    for (const counts of [this.all[metric], policy[metric]]) {
      counts.met += met;
      counts.breached += breached;
    }
  }

  values(names: Map<string, string>) {
    const byPolicy = [...this.policies].map(([policyId, counts]) => ({
      policyId,
      name: names.get(policyId) ?? null,
      ...slaValues(counts),
    }));
    byPolicy.sort((a, b) =>
      (a.name ?? '\uffff') < (b.name ?? '\uffff') ? -1 : a.name === b.name ? (a.policyId < b.policyId ? -1 : 1) : 1,
    );
    return { ...slaValues(this.all), byPolicy };
  }
}

export async function slaReport(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<SlaReport> {
  const request = await requestOf(db, principal, query);
  const rows = await sumSlaCounts(db, request.scope, request.from, request.to);
  const buckets = perBucket(request, () => new SlaTally());
  const totals = new SlaTally();
  for (const row of rows) {
    const bucket = buckets.get(request.bucketOf(row.day));
    for (const tally of bucket ? [bucket, totals] : []) {
      tally.add(row.policy_id, row.metric, Number(row.met), Number(row.breached));
    }
  }
  const names = await findPolicyNames(db, principal.organizationId, [...totals.policies.keys()]);
  return {
    series: [...buckets].map(([start, tally]) => ({ start, ...tally.values(names) })),
    totals: totals.values(names),
  };
}

interface SatisfactionTally {
  sent: number;
  responses: number;
  good: number;
  bad: number;
}

const satisfactionValues = (tally: SatisfactionTally) => ({
  ...tally,
  goodShare: shareOf(tally.good, tally.good + tally.bad),
  responseRate: shareOf(tally.responses, tally.sent),
});

export async function satisfactionReport(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<SatisfactionReport> {
  const request = await requestOf(db, principal, query);
  const rows = await sumSatisfactionCounts(db, request.scope, request.from, request.to);
  const empty = (): SatisfactionTally => ({ sent: 0, responses: 0, good: 0, bad: 0 });
  const buckets = perBucket(request, empty);
  const totals = empty();
  for (const row of rows) {
    const bucket = buckets.get(request.bucketOf(row.day));
    for (const tally of bucket ? [bucket, totals] : []) {
      tally.sent += Number(row.sent);
      tally.responses += Number(row.responses);
      tally.good += Number(row.good);
      tally.bad += Number(row.bad);
    }
  }
  return {
    series: [...buckets].map(([start, tally]) => ({ start, ...satisfactionValues(tally) })),
    totals: satisfactionValues(totals),
  };
}
