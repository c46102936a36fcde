import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { createRequestMetrics } from './request-metrics.js';

/**
 * The Prometheus metrics of one process (`GET /metrics`, see `http/metrics.ts`): a registry of its
 * own rather than prom-client's global one, so that several apps in one process (the tests) never
 * share or collide, handed to every layer through the deps. Counters count what this process did;
 * Prometheus sums them over the processes. Gauges read from the database (queue depths, see
 * `db/database-metrics.ts`) say the same in every process: aggregate them with `max`, not `sum`.
 *
 * Labels never carry ids of unbounded sets: routes are patterns, and names users choose (a team's,
 * an SLA policy's) are capped per process by `boundedLabel`, past which they count as `other`.
 */

/** How many distinct names a label chosen by users (a team, a policy) takes per process before `other`. */
export const NAMED_LABEL_LIMIT = 50;
export const OTHER_LABEL = 'other';

/** Request latencies, in seconds: from a cached read (a millisecond) to a slow export (10 s). */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** How an agent run ended: answered, failed, rejected by a person (its tool calls), or failed as abandoned once its process stopped. */
export type AiRunOutcome = 'succeeded' | 'failed' | 'rejected' | 'abandoned';

export interface Metrics {
  /** Where the gauges read at scrape time are added (`db/database-metrics.ts`). */
  registry: Registry;
  /** The exposition: every metric in Prometheus text format (the Node process's from the first scrape on). */
  scrape(): Promise<string>;
  /** One finished HTTP request: its area, method, route pattern (never the URL), status and duration. */
  observeRequest(area: string, method: string, route: string, status: number, seconds: number): void;
  /** A ticket was created (`source`: api, email, chat…; `team`: the team's name, capped). */
  ticketCreated(ticket: { source: string; team: string }): void;
  /** An agent run ended. */
  aiRunEnded(outcome: AiRunOutcome): void;
  /** The SLA worker found a target breached (`policy`: the policy's name, capped; `metric`: firstReply, …). */
  slaBreached(breach: { policy: string; metric: string }): void;
  /**
   * The SLA worker's lag: how far behind the clock the oldest due target it has not yet looked at
   * is, in seconds (0 when it is caught up). Set by the worker after each pass; absent until then.
   */
  setSlaWorkerLag(seconds: number): void;
}

/**
 * A label whose values are names users choose: the first `limit` distinct names seen by this
 * process keep their own series, any later one is `other`, so a label never grows without bound.
 */
export function boundedLabel(limit = NAMED_LABEL_LIMIT): (name: string) => string {
  const seen = new Set<string>();
  return (name) => {
    if (seen.has(name)) {
      return name;
    }
    if (seen.size >= limit) {
      return OTHER_LABEL;
    }
    seen.add(name);
    return name;
  };
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  // The Node process's metrics start on the first scrape: each set observes the garbage collector
  // and the event loop for good, which an app that is never scraped (a test's) need not pay for.
  let processMetrics = false;
  const requests = createRequestMetrics(registry, LATENCY_BUCKETS);
  const tickets = new Counter({
    name: 'tickets_created_total',
    help: `Tickets created, by source and team name (past ${NAMED_LABEL_LIMIT} team names in a process: other)`,
    labelNames: ['source', 'team'] as const,
    registers: [registry],
  });
  const teamLabel = boundedLabel();
  const aiRuns = new Counter({
    name: 'ai_runs_total',
    help: 'Agent runs ended, by outcome (succeeded, failed, rejected, abandoned)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const slaBreaches = new Counter({
    name: 'sla_breaches_total',
    help: `SLA targets breached, by policy name (past ${NAMED_LABEL_LIMIT} in a process: other) and metric`,
    labelNames: ['policy', 'metric'] as const,
    registers: [registry],
  });
  const policyLabel = boundedLabel();
  // Made on the worker's first report: until then the lag is unknown, not 0.
  let slaLag: Gauge | undefined;
  return {
    registry,
    scrape() {
      if (!processMetrics) {
        processMetrics = true;
        collectDefaultMetrics({ register: registry });
      }
      return registry.metrics();
    },
    observeRequest: requests.observe,
    ticketCreated: ({ source, team }) => tickets.labels(source, teamLabel(team)).inc(),
    aiRunEnded: (outcome) => aiRuns.labels(outcome).inc(),
    slaBreached: ({ policy, metric }) => slaBreaches.labels(policyLabel(policy), metric).inc(),
    setSlaWorkerLag(seconds) {
      slaLag ??= new Gauge({
        name: 'sla_worker_lag_seconds',
        help: 'How far behind the clock the SLA worker is, in seconds, as it last reported',
        registers: [registry],
      });
      slaLag.set(seconds);
    },
  };
}
