import { readJson } from '../../db/dialect.js';
import { toAttributeConfiguration } from '../accounts/account-attribute.presenter.js';
import type { NoteRow } from './account-note.repository.js';

export function toNote(row: NoteRow, attachments: string[]) {
  return {
    id: row.id,
    accountId: row.account_id,
    account: row.account_name,
    content: row.content,
    type: row.type_value,
    typeId: row.type_id,
    typeConfiguration: toAttributeConfiguration({
      id: row.type_id,
      value: row.type_value,
      icon: row.type_icon,
      color: row.type_color,
    }),
    visibility: row.visibility,
    attachments,
    author: row.author_name,
    authorId: row.author_id,
    authorEmail: row.author_email,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    metadata: readJson<Record<string, unknown>>(row.metadata),
  };
}
