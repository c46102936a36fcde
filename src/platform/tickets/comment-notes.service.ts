import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { IdFactory } from '../../lib/ids.js';
import { insertCommentOnce } from './comment.repository.js';
import { contentColumns, deriveCommentContent, systemCommentRow } from './comment-content.js';

/**
 * An internal note in the caller's transaction, written as it is: no `comment.created` event, no
 * effects, no email. A merge leaves one on each of its two tickets, whose timelines record the merge.
 */
export async function addQuietInternalNote(
  trx: Transaction<DB>,
  deps: { ids: IdFactory },
  note: { organizationId: string; ticketId: string; authorId: string; text: string; at: string },
): Promise<void> {
  const content = await deriveCommentContent({ content: note.text });
  await insertCommentOnce(
    trx,
    systemCommentRow({
      id: deps.ids.ulid(),
      organization_id: note.organizationId,
      ticket_id: note.ticketId,
      ...contentColumns({ ...content, contentJson: null }),
      comment_visibility: 'private',
      comment_type: 'note',
      author_id: note.authorId,
      created_at: note.at,
    }),
  );
}
