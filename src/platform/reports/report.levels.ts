import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { EVERY } from './report.table.js';

/** What a report covers: the organization, or one team, or one agent (in one team, or all). */
export interface ReportScope {
  organizationId: string;
  teamId?: string;
  agentId?: string;
}

/** `perAgent`: the agents' own rows (the agents report), not the scope's rollup. */
export interface SumOptions {
  perAgent?: boolean;
}

/**
 * The aggregate rows a report reads (`report.table.ts`), besides the organization and the days: a
 * scope without an agent reads its rollup (the organization's, or the team's for every agent); a
 * scope with an agent, or a report `perAgent`, reads the agents' own rows (the unassigned `''`
 * among them) and never a rollup, so nothing is counted twice.
 */
export function rowsOfScope(scope: ReportScope, options: SumOptions = {}): RawBuilder<SqlBool> {
  const team = scope.teamId === undefined ? sql<SqlBool>`team_id <> ${EVERY}` : sql<SqlBool>`team_id = ${scope.teamId}`;
  if (scope.agentId !== undefined) {
    return sql<SqlBool>`${team} and agent_id = ${scope.agentId}`;
  }
  if (options.perAgent) {
    return sql<SqlBool>`${team} and agent_id <> ${EVERY}`;
  }
  return sql<SqlBool>`team_id = ${scope.teamId ?? EVERY} and agent_id = ${EVERY}`;
}
