import type { TeamTagRow } from './team-tag.repository.js';

export function toTeamTag(row: TeamTagRow) {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    type: row.tag_type,
    description: row.description,
    teamId: row.team_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
