import { readBoolean } from '../../db/dialect.js';
import type { TeamMemberRow, TeamRow } from './team.repository.js';

export function toTeam(row: TeamRow) {
  return {
    id: row.id,
    teamId: row.id,
    name: row.name,
    identifier: row.identifier,
    description: row.description,
    icon: row.icon,
    color: row.color,
    parentTeamId: row.parent_team_id,
    parentTeamName: row.parent_team_name,
    teamOwner: row.owner_name,
    teamOwnerId: row.owner_id,
    fallbackSubTeam: row.fallback_sub_team_id ?? null,
    isActive: row.archived_at === null,
    isPrivate: readBoolean(row.is_private),
    archivedAt: row.archived_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toMember(row: TeamMemberRow, team: TeamRow) {
  const isAdmin = readBoolean(row.is_admin);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    invitedBy: row.invited_by,
    teamId: team.id,
    teamName: team.name,
    isActive: true,
    role: isAdmin ? ('ADMIN' as const) : ('MEMBER' as const),
    isAdmin,
    userType: row.user_type,
    isOwner: row.id === team.owner_id,
    avatarUrl: row.avatar_url,
    status: row.status,
    capacity: row.capacity,
    timezone: row.timezone,
    joinedAt: row.joined_at,
    createdAt: row.created_at,
  };
}
