import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { findTeam } from '../teams/team.lookup.js';
import { findLiveUser } from '../users/user.lookup.js';
import { bucketStarter, bucketStarts, daysInRange } from './report.buckets.js';
import type { ReportScope } from './report.levels.js';
import { MAX_REPORT_DAYS, type ReportInterval, type ReportQuery } from './report.schemas.js';

/** A report's query checked: what every report reads. */
export interface ReportRequest {
  scope: ReportScope;
  from: string;
  to: string;
  interval: ReportInterval;
  /** The start of the bucket a day falls in. */
  bucketOf: (day: string) => string;
}

/** Checks the range and the team and agent named (another organization's: 404); nothing is written. */
export async function requestOf(db: Kysely<DB>, principal: Principal, query: ReportQuery): Promise<ReportRequest> {
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
    bucketOf: bucketStarter(query.interval ?? 'day'),
  };
}

/** A value per bucket start, every bucket present. */
export function perBucket<T>(request: ReportRequest, empty: () => T): Map<string, T> {
  return new Map(bucketStarts(request.from, request.to, request.interval).map((start) => [start, empty()]));
}

/** `part / whole`, null when there is nothing to divide. */
export const shareOf = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
