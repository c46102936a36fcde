import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { type ReportScope, rowsOfScope, type SumOptions } from './report.levels.js';
import type { ReportSatisfactionCountTable, ReportSlaCountTable, ReportSurveyResponseTable } from './report.table.js';

/** The SLA and satisfaction aggregates' statements (see `report.table.ts`). */

type Db = Kysely<DB> | Transaction<DB>;

const KEY = ['organization_id', 'team_id', 'agent_id', 'day'] as const;

/** Adds the rows' counts to their keys' (rows sorted by key, so writers lock keys in one order). */
export async function addSlaCounts(trx: Transaction<DB>, rows: readonly ReportSlaCountTable[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await trx
    .insertInto('report_sla_counts')
    .values([...rows])
    .onConflict((conflict) =>
      conflict.columns([...KEY, 'policy_id', 'metric']).doUpdateSet((eb) => ({
        met: eb('report_sla_counts.met', '+', eb.ref('excluded.met')),
        breached: eb('report_sla_counts.breached', '+', eb.ref('excluded.breached')),
      })),
    )
    .execute();
}

export async function addSatisfactionCounts(trx: Transaction<DB>, rows: readonly ReportSatisfactionCountTable[]): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await trx
    .insertInto('report_satisfaction_counts')
    .values([...rows])
    .onConflict((conflict) =>
      conflict.columns([...KEY]).doUpdateSet((eb) => ({
        sent: eb('report_satisfaction_counts.sent', '+', eb.ref('excluded.sent')),
        responses: eb('report_satisfaction_counts.responses', '+', eb.ref('excluded.responses')),
        good: eb('report_satisfaction_counts.good', '+', eb.ref('excluded.good')),
        bad: eb('report_satisfaction_counts.bad', '+', eb.ref('excluded.bad')),
      })),
    )
    .execute();
}

/** The ticket's team and assignee now (the key of a fact about it), deleted or not. */
export async function findTicketReportKey(db: Db, organizationId: string, ticketId: string) {
  return db
    .selectFrom('tickets')
    .select(['team_id', 'assigned_agent_id'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', ticketId)
    .executeTakeFirst();
}

/** A survey's first response: true only for the insert that wins. */
export async function insertSurveyResponse(trx: Transaction<DB>, row: ReportSurveyResponseTable): Promise<boolean> {
  const result = await trx
    .insertInto('report_survey_responses')
    .values(row)
    .onConflict((conflict) => conflict.column('survey_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A changed rating: answers the first response's key when the rating counted there changes. */
export async function changeSurveyResponse(trx: Transaction<DB>, surveyId: string, rating: 'good' | 'bad') {
  return trx
    .updateTable('report_survey_responses')
    .set({ rating })
    .where('survey_id', '=', surveyId)
    .where('rating', '<>', rating)
    .returning(['organization_id', 'team_id', 'agent_id', 'day'])
    .executeTakeFirst();
}

/** The SLA counts per day, agent, policy and metric of the days from `from` through `to`. */
export async function sumSlaCounts(db: Db, scope: ReportScope, from: string, to: string, options: SumOptions = {}) {
  return db
    .selectFrom('report_sla_counts')
    .select((eb) => [
      'day',
      'agent_id',
      'policy_id',
      'metric',
      eb.fn.sum<number>('met').as('met'),
      eb.fn.sum<number>('breached').as('breached'),
    ])
    .where('organization_id', '=', scope.organizationId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['day', 'agent_id', 'policy_id', 'metric'])
    .where(rowsOfScope(scope, options))
    .execute();
}

/** The survey counts per day and agent of the days from `from` through `to`. */
export async function sumSatisfactionCounts(db: Db, scope: ReportScope, from: string, to: string, options: SumOptions = {}) {
  return db
    .selectFrom('report_satisfaction_counts')
    .select((eb) => [
      'day',
      'agent_id',
      eb.fn.sum<number>('sent').as('sent'),
      eb.fn.sum<number>('responses').as('responses'),
      eb.fn.sum<number>('good').as('good'),
      eb.fn.sum<number>('bad').as('bad'),
    ])
    .where('organization_id', '=', scope.organizationId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['day', 'agent_id'])
    .where(rowsOfScope(scope, options))
    .execute();
}

/** The names of the organization's policies (a deleted one has none). */
export async function findPolicyNames(db: Db, organizationId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) {
    return new Map();
  }
  const rows = await db
    .selectFrom('sla_policies')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
