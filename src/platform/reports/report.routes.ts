import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import type { Principal } from '../../lib/principal.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { agentsCsv, durationCsv, satisfactionCsv, slaCsv, volumeCsv } from './report.presenter.js';
import {
  AgentsReportSchema,
  DurationReportSchema,
  type ReportName,
  type ReportQuery,
  ReportQuerySchema,
  SatisfactionReportSchema,
  SlaReportSchema,
  VolumeReportSchema,
} from './report.schemas.js';
import { agentsReport, durationReport, volumeReport } from './report.service.js';
import { satisfactionReport, slaReport } from './report-quality.service.js';

const CSV_NOTE =
  ' `from` and `to` are local days of each team (its time zone when the change happened), both included, at most ' +
  'two years apart. With `Accept: text/csv` the same report is answered as CSV: a header row, one row per bucket, ' +
  'then the totals as rows whose `start` is `total`.';

interface ReportRoute<Report> {
  name: ReportName;
  summary: string;
  schema: TSchema;
  read(deps: AppDeps, principal: Principal, query: ReportQuery): Promise<Report>;
  csv(report: Report): string;
}

const REPORTS = [
  {
    name: 'volume',
    summary: 'Tickets created, closed and reopened per bucket, and the backlog (open tickets) at the end of each',
    schema: VolumeReportSchema,
    read: (deps, principal, query) => volumeReport(deps.db, principal, query),
    csv: volumeCsv,
  } satisfies ReportRoute<Awaited<ReturnType<typeof volumeReport>>>,
  {
    name: 'first-reply-time',
    summary: 'Median and p90 of the time from creation to the first public reply by a person, calendar and business',
    schema: DurationReportSchema,
    read: (deps, principal, query) => durationReport(deps.db, principal, query, 'first_reply'),
    csv: durationCsv,
  } satisfies ReportRoute<Awaited<ReturnType<typeof durationReport>>>,
  {
    name: 'resolution-time',
    summary: 'Median and p90 of the time from creation to each close (a reopened ticket counts again), calendar and business',
    schema: DurationReportSchema,
    read: (deps, principal, query) => durationReport(deps.db, principal, query, 'resolution'),
    csv: durationCsv,
  } satisfies ReportRoute<Awaited<ReturnType<typeof durationReport>>>,
  {
    name: 'sla',
    summary: 'SLA targets met in time and breached, and their attainment (met / (met + breached)), per metric and per policy',
    schema: SlaReportSchema,
    read: (deps, principal, query) => slaReport(deps.db, principal, query),
    csv: slaCsv,
  } satisfies ReportRoute<Awaited<ReturnType<typeof slaReport>>>,
  {
    name: 'satisfaction',
    summary: 'Satisfaction surveys sent and rated: responses, good and bad, the share of good, the response rate',
    schema: SatisfactionReportSchema,
    read: (deps, principal, query) => satisfactionReport(deps.db, principal, query),
    csv: satisfactionCsv,
  } satisfies ReportRoute<Awaited<ReturnType<typeof satisfactionReport>>>,
  {
    name: 'agents',
    summary:
      'Per agent: tickets closed while assigned, public replies, median first reply time, SLA attainment, share of good ratings',
    schema: AgentsReportSchema,
    read: (deps, principal, query) => agentsReport(deps.db, principal, query),
    csv: agentsCsv,
  } satisfies ReportRoute<Awaited<ReturnType<typeof agentsReport>>>,
];

const wantsCsv = (request: FastifyRequest) => /\btext\/csv\b/i.test(request.headers.accept ?? '');

/** The reports, read only, from the aggregates each change keeps (`report.table.ts`). */
export function reportRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    for (const report of REPORTS as ReportRoute<unknown>[]) {
      app.get(
        `/reports/${report.name}`,
        {
          schema: {
            operationId: `platform.reports.${report.name.replaceAll('-', '')}`,
            tags: ['reports'],
            summary: report.summary,
            description: `Buckets by \`interval\` (day, week from Monday, month).${CSV_NOTE}`,
            querystring: ReportQuerySchema,
            response: { 200: PlatformEnvelopeSchema(report.schema), ...platformErrorResponses([400, 404]) },
          },
        },
        async (request, reply) => {
          const answer = await report.read(deps, request.principal, request.query);
          if (wantsCsv(request)) {
            // Text, not the envelope: Fastify serializes only JSON, so the CSV goes out as written.
            const file = `${report.name}-${request.query.from}-${request.query.to}.csv`;
            return reply
              .type('text/csv; charset=utf-8')
              .header('content-disposition', `attachment; filename="${file}"`)
              .send(report.csv(answer) as never);
          }
          return platformEnvelope(deps.clock, answer);
        },
      );
    }
  };
}
