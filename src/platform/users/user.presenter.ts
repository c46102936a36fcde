import type { UserRow } from './user.repository.js';

export function toUser(row: UserRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    userType: row.user_type,
    avatarUrl: row.avatar_url,
    status: row.status,
    capacity: row.capacity,
    timezone: row.timezone,
    disabled: row.disabled_at !== null,
    organizationId: row.organization_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
