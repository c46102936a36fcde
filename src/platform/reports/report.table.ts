import type { SlaMetric } from '../../shared/sla.js';

/**
 * Reports are answered from aggregates kept in the transaction of each change, never from a scan
 * of tickets at report time (`report-aggregates.service.ts` writes them, `report.service.ts` reads).
 *
 * Keys: organization, team, agent and LOCAL DAY. The agent is the ticket's assignee for creations,
 * closes, reopens and the backlog, the replying user for public replies and first replies; `''`
 * when there is none. The day (`YYYY-MM-DD`) is the local date of the change in the time zone the
 * ticket's team had at that moment (its configuration, UTC if none): a report groups each team's
 * own days, and a later change of time zone leaves past days where they fell.
 *
 * `report_daily_counts`: per key, how many tickets were `created`, `closed` (a status with
 * `is_closed`), `reopened` (closed to open), and `public_replies` by people. The backlog is kept as
 * a delta (`backlog_delta`: +1 when a ticket becomes open in a key, -1 when it leaves it by a close,
 * a move to another team or another assignee), so the backlog at the end of any day is the prefix
 * sum of the deltas up to it. A delta is chosen over a daily closing snapshot because a snapshot
 * needs a row for every day of every key, written by something that runs when nothing changes (a
 * worker at each team's midnight); the delta is written only by changes, by the same upserts.
 *
 * `report_duration_bins`: durations as histograms, per key and `metric` (first_reply_calendar,
 * first_reply_business, resolution_calendar, resolution_business) a count per `bin`
 * (`report.bins.ts`: exact minutes 0..59, then bins growing ~5%), so that a median or p90 comes
 * from bin counts within ~5%, exactly under an hour. First reply: created to the first public
 * reply by a user (not a customer, not an AI agent), counted once per ticket at that reply's day.
 * Resolution: created to closed, counted at every close: a ticket reopened and closed again adds
 * a second, longer sample (its reopened time included, as Zendesk's full resolution time does).
 *
 * Rollups: every fact is also added to its team's row for every agent (`agent_id` `EVERY`) and to
 * the organization's (`team_id` and `agent_id` `EVERY`), by the same upserts. A report of the
 * organization or of a team reads those rows only, so its cost is its days × bins, not days ×
 * agents × bins: at a million tickets a year, a 90-day report of the organization reads about
 * 30,000 bin rows instead of a million. An agent's report, and the agents report, read the agents'
 * rows (`report.levels.ts`). The extra rows cost a change nothing in locks: its transaction holds
 * its organization's event log lock before it writes any report row.
 *
 * Every write is `INSERT … ON CONFLICT DO UPDATE SET n = n + excluded.n` in the change's
 * transaction: several processes never lose a count, and a change rolled back takes its counts.
 */

/** The team or agent of a rollup row: every one (ids are ULIDs, never this; `''` is "no agent"). */
export const EVERY = '*';
export interface ReportDailyCountTable {
  organization_id: string;
  team_id: string;
  agent_id: string;
  day: string;
  created: number;
  closed: number;
  reopened: number;
  public_replies: number;
  backlog_delta: number;
}

export type DurationMetric = 'first_reply_calendar' | 'first_reply_business' | 'resolution_calendar' | 'resolution_business';

export interface ReportDurationBinTable {
  organization_id: string;
  team_id: string;
  agent_id: string;
  day: string;
  metric: DurationMetric;
  bin: number;
  count: number;
}

/** The tickets that had their first public reply by a person: the insert that wins marks the first. */
export interface ReportFirstReplyTable {
  ticket_id: string;
  organization_id: string;
  replied_at: string;
}

/**
 * SLA outcomes (`report-outcomes.service.ts`) per key, policy and metric: `met` counts a target
 * met before its due time, `breached` a target that passed it, once per run of its clock (the
 * clock in a ticket change and the SLA worker mark a breach by conditional writes on the target
 * row, so only one of them counts it). Met at the change that meets it; breached on the day of
 * its due time. A resolution met and then reopened takes its `met` back (-1) on the day it was
 * met; the close that follows counts again. The agent is the ticket's assignee at that moment.
 */
export interface ReportSlaCountTable {
  organization_id: string;
  team_id: string;
  agent_id: string;
  day: string;
  policy_id: string;
  metric: SlaMetric;
  met: number;
  breached: number;
}

/**
 * Surveys per key: `sent` when the email is queued, `responses` and `good` or `bad` on a survey's
 * first rating (its key kept in `report_survey_responses`); a changed rating moves one count from
 * `good` to `bad` (or back) in the key of the first response.
 */
export interface ReportSatisfactionCountTable {
  organization_id: string;
  team_id: string;
  agent_id: string;
  day: string;
  sent: number;
  responses: number;
  good: number;
  bad: number;
}

/** A survey's first response: where its count lies, and the rating counted there now. */
export interface ReportSurveyResponseTable {
  survey_id: string;
  organization_id: string;
  team_id: string;
  agent_id: string;
  day: string;
  rating: 'good' | 'bad';
}
