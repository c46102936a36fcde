import { type Static, Type } from '@sinclair/typebox';
import { Nullable, StringEnum, UlidSchema } from '../../http/shared-schemas.js';

export const REPORT_INTERVALS = ['day', 'week', 'month'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** The longest range a report answers, in days (`from` and `to` both included). */
export const MAX_REPORT_DAYS = 731;

const DateSchema = (description: string) =>
  Type.String({ format: 'date', description: `${description} (YYYY-MM-DD, a local day of each team)` });

export const ReportQuerySchema = Type.Object(
  {
    from: DateSchema('First day of the range, included'),
    to: DateSchema('Last day of the range, included'),
    teamId: Type.Optional(UlidSchema),
    agentId: Type.Optional(UlidSchema),
    interval: Type.Optional(
      StringEnum(REPORT_INTERVALS, {
        description: 'Bucket size (default `day`); weeks start on Monday, months on the 1st',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReportQuery = Static<typeof ReportQuerySchema>;

const start = Type.String({ format: 'date', description: 'First day of the bucket (it may precede `from`)' });
const minutes = (description: string) => Nullable(Type.Integer({ minimum: 0, description: `${description}, in minutes` }));

const VolumeValues = {
  created: Type.Integer({ minimum: 0 }),
  closed: Type.Integer({ minimum: 0 }),
  reopened: Type.Integer({ minimum: 0 }),
  backlog: Type.Integer({ description: 'Open tickets at the end of the bucket (of the range, in totals)' }),
};
export const VolumeReportSchema = Type.Object({
  series: Type.Array(Type.Object({ start, ...VolumeValues })),
  totals: Type.Object(VolumeValues),
});
export type VolumeReport = Static<typeof VolumeReportSchema>;

const DurationValues = {
  count: Type.Integer({ minimum: 0, description: 'Durations measured' }),
  calendarMedian: minutes('Median in calendar time'),
  calendarP90: minutes('90th percentile in calendar time'),
  businessMedian: minutes("Median in the team's business hours"),
  businessP90: minutes("90th percentile in the team's business hours"),
};
export const DurationReportSchema = Type.Object({
  series: Type.Array(Type.Object({ start, ...DurationValues })),
  totals: Type.Object(DurationValues),
});
export type DurationReport = Static<typeof DurationReportSchema>;

const share = (description: string) =>
  Nullable(Type.Number({ minimum: 0, maximum: 1, description: `${description}; null with no data` }));

const AgentValues = {
  agentId: Nullable(Type.String({ description: 'The user; null for tickets without an assignee' })),
  ticketsHandled: Type.Integer({ minimum: 0, description: 'Tickets closed while assigned to the agent' }),
  publicReplies: Type.Integer({ minimum: 0 }),
  firstReplyMedian: minutes('Median first reply time of the first replies the agent wrote, calendar'),
  slaAttainment: share('SLA targets met / (met + breached), every metric, of tickets assigned to the agent at the time'),
  goodShare: share('Good ratings / responses, of tickets assigned to the agent when rated'),
};
const { agentId: _agent, firstReplyMedian: _median, ...BucketValues } = AgentValues;
export const AgentsReportSchema = Type.Object({
  series: Type.Array(Type.Object({ start, ...BucketValues }), {
    description:
      "One row per bucket: the agents of the report's scope together (every agent, a team's, or the one asked " +
      'for). Each agent is in the totals, over the whole range, with the median first reply.',
  }),
  totals: Type.Object({ agents: Type.Array(Type.Object(AgentValues), { description: 'Per agent, over the range' }) }),
});
export type AgentsReport = Static<typeof AgentsReportSchema>;

const SlaValues = {
  met: Type.Integer({ description: 'Targets met before their due time' }),
  breached: Type.Integer({ minimum: 0, description: 'Targets that passed their due time (counted on that day)' }),
  attainment: share('met / (met + breached)'),
};
const SlaMetricValues = {
  firstReply: Type.Object(SlaValues),
  nextReply: Type.Object(SlaValues),
  periodicUpdate: Type.Object(SlaValues),
  resolution: Type.Object(SlaValues),
  attainment: share('Every metric: met / (met + breached)'),
  breaches: Type.Integer({ minimum: 0, description: 'Targets breached, every metric' }),
};
const SlaPolicyValues = Type.Object({
  policyId: Type.String(),
  name: Nullable(Type.String({ description: "The policy's name; null once it is deleted" })),
  ...SlaMetricValues,
});
const SlaReportValues = {
  ...SlaMetricValues,
  byPolicy: Type.Array(SlaPolicyValues, { description: 'Per policy with data, by name' }),
};
export const SlaReportSchema = Type.Object({
  series: Type.Array(Type.Object({ start, ...SlaReportValues })),
  totals: Type.Object(SlaReportValues),
});
export type SlaReport = Static<typeof SlaReportSchema>;
export type SlaMetricCounts = Static<typeof SlaPolicyValues>;

const SatisfactionValues = {
  sent: Type.Integer({ minimum: 0, description: 'Surveys emailed' }),
  responses: Type.Integer({ minimum: 0, description: "Surveys rated (each survey's first rating, on its day)" }),
  good: Type.Integer({ minimum: 0, description: 'Responses whose rating is now Good' }),
  bad: Type.Integer({ minimum: 0, description: 'Responses whose rating is now Bad' }),
  goodShare: share('good / responses'),
  responseRate: share('responses / sent'),
};
export const SatisfactionReportSchema = Type.Object({
  series: Type.Array(Type.Object({ start, ...SatisfactionValues })),
  totals: Type.Object(SatisfactionValues),
});
export type SatisfactionReport = Static<typeof SatisfactionReportSchema>;

export type ReportName = 'volume' | 'first-reply-time' | 'resolution-time' | 'sla' | 'satisfaction' | 'agents';
