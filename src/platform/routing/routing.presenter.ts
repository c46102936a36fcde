import { readJson } from '../../db/dialect.js';
import type { RoutingExplanation } from './routing.pipeline.js';
import type { RoutingDecisionRow } from './routing.repository.js';

export function toRoutingDecision(row: RoutingDecisionRow) {
  const explanation = readJson<RoutingExplanation>(row.explanation);
  if (!explanation) {
    throw new Error(`routing decision ${row.id} has no explanation`);
  }
  return {
    ...explanation,
    id: row.id,
    ticketId: row.ticket_id,
    trigger: row.trigger,
    decidedAt: row.created_at,
    decidedById: row.decided_by_id,
    fromTeamId: row.from_team_id,
    previousTicketIdentifier: row.previous_ticket_identifier,
  };
}
