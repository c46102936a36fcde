import { readBoolean, readJson } from '../../db/dialect.js';
import type { MacroRow } from './macro.repository.js';
import type { MacroActions } from './macro.schemas.js';

export function toMacro(row: MacroRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    content: row.content,
    commentVisibility: row.comment_visibility,
    shouldSendEmail: readBoolean(row.send_email),
    actions: readJson<MacroActions>(row.actions) ?? {},
    teamId: row.team_id,
    ownerId: row.owner_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
