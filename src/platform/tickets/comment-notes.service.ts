import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { IdFactory } from '../../lib/ids.js';
import { insertCommentOnce } from './comment.repository.js';
import { deriveCommentContent } from './comment-content.js';

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
  await insertCommentOnce(trx, {
    id: deps.ids.ulid(),
    organization_id: note.organizationId,
    ticket_id: note.ticketId,
    parent_comment_id: null,
    content: content.content,
    content_html: content.contentHtml,
    content_markdown: content.contentMarkdown,
    content_json: null,
    thread_name: null,
    comment_visibility: 'private',
    comment_type: 'note',
    is_edited: false,
    is_pinned: false,
    source_email_id: null,
    metadata: null,
    author_id: note.authorId,
    author_agent_id: null,
    customer_contact_id: null,
    impersonated_user_email: null,
    impersonated_user_name: null,
    impersonated_user_avatar: null,
    attachment_ids: '[]',
    dedupe_key: null,
    dedupe_fingerprint: null,
    created_at: note.at,
    updated_at: note.at,
    deleted_at: null,
  });
}
