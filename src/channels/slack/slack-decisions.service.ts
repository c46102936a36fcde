import { keysetPage, readTypedCursor } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../../platform/authorization.js';
import type { ListSlackDecisionsQuery, SlackDetectionReportQuery } from './slack-admin.schemas.js';
import {
  countDetectionMarks,
  type DetectionCounts,
  findSlackDecisionRow,
  listSlackDecisionRows,
  markSlackDecision,
  type SlackDecisionRow,
} from './slack-decision.repository.js';
import type { SlackDeps } from './slack-install.service.js';

const DEFAULT_PAGE_SIZE = 50;

function presentDecision(row: SlackDecisionRow) {
  return {
    id: row.id,
    channelId: row.channel_id,
    channelName: row.channel_name,
    slackUserId: row.slack_user_id,
    text: row.text,
    mode: row.mode,
    isRequest: row.is_request === 1,
    reason: row.reason,
    ticketId: row.ticket_id,
    mark: row.mark,
    markedBy: row.marked_by,
    markedAt: row.marked_at,
    createdAt: row.created_at,
  };
}

/** A page of the organization's request detection decisions, newest first (then by id). */
export async function listSlackDecisions(deps: Pick<SlackDeps, 'db'>, principal: Principal, query: ListSlackDecisionsQuery) {
  requireOrgAdmin(principal);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const after = readTypedCursor(query.cursor, ['instant', 'text']);
  const rows = await listSlackDecisionRows(deps.db, principal.organizationId, query, { after, limit });
  const { items, nextCursor } = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  return { items: items.map(presentDecision), nextCursor };
}

const DECISION_NOT_FOUND = 'Slack decision not found';

/** An admin's verdict on a decision, with who gave it and when; null takes it back. */
export async function markSlackDecisionAs(
  deps: Pick<SlackDeps, 'db' | 'clock'>,
  principal: Principal,
  id: string,
  mark: 'right' | 'wrong' | null,
) {
  requireOrgAdmin(principal);
  const now = deps.clock.now().toISOString();
  const marked = await markSlackDecision(deps.db, principal.organizationId, id, {
    mark,
    markedBy: mark === null ? null : principal.userId,
    markedAt: mark === null ? null : now,
    now,
  });
  const row = marked ? await findSlackDecisionRow(deps.db, principal.organizationId, id) : undefined;
  if (!row) {
    throw AppError.notFound(DECISION_NOT_FOUND);
  }
  return presentDecision(row);
}

/** `part / (part + other)`, or null when nothing was counted. */
const ratio = (part: number, other: number) => (part + other === 0 ? null : part / (part + other));

function presentReportRow(counts: DetectionCounts) {
  return {
    channelId: counts.channel_id,
    channelName: counts.channel_name,
    mode: counts.mode,
    marked: counts.marked,
    unmarked: counts.unmarked,
    truePositives: counts.true_positives,
    falsePositives: counts.false_positives,
    trueNegatives: counts.true_negatives,
    falseNegatives: counts.false_negatives,
    precision: ratio(counts.true_positives, counts.false_positives),
    recall: ratio(counts.true_positives, counts.false_negatives),
  };
}

/**
 * How well detection did, per channel and mode, from the marks admins gave: precision (of what it
 * took for requests, how much was) and recall (of the requests, how many it took).
 */
export async function slackDetectionReport(deps: Pick<SlackDeps, 'db'>, principal: Principal, query: SlackDetectionReportQuery) {
  requireOrgAdmin(principal);
  const from = query.from === undefined ? undefined : new Date(query.from).toISOString();
  const to = query.to === undefined ? undefined : new Date(query.to).toISOString();
  if (from !== undefined && to !== undefined && from >= to) {
    throw AppError.invalid('from must be before to', { location: 'query', path: ['from'], rule: 'range' });
  }
  const counts = await countDetectionMarks(deps.db, principal.organizationId, { channelId: query.channelId, from, to });
  return counts.map(presentReportRow);
}
