import type { TagRow } from './tag.repository.js';

export function toTag(row: TagRow) {
  return {
    _id: row.id,
    orgId: row.organization_id,
    name: row.name,
    lowerName: row.lower_name,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
