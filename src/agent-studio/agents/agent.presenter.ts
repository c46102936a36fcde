import { readJson } from '../../db/dialect.js';
import type { AgentRow } from './agent.repository.js';

export function toAgent(row: AgentRow) {
  return {
    id: row.id,
    name: row.name,
    configuration: readJson<Record<string, unknown>>(row.configuration) ?? {},
    template_id: row.template_id,
    organization_id: row.organization_id,
    status: row.status,
    description: row.description,
    avatar_url: row.avatar_url,
    metadata: readJson<Record<string, unknown>>(row.metadata),
    files: [],
    team_id: [],
    completed_flows_count: 0,
    pending_flows_count: 0,
    created_by: row.created_by_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
