import { readBoolean, readJson } from '../../db/dialect.js';
import { deliveryOfJoinedOutbox } from '../../delivery/outbox/outbox.presenter.js';
import type { TicketEmailRow } from './ticket-email.repository.js';

export function toTicketEmail(row: TicketEmailRow) {
  return {
    id: row.id,
    direction: row.direction,
    mailboxId: row.mailbox_id,
    messageId: row.message_id,
    inReplyTo: row.in_reply_to,
    references: readJson<string[]>(row.references_ids) ?? [],
    from: { address: row.from_address, name: row.from_name },
    to: readJson<string[]>(row.to_addresses) ?? [],
    cc: readJson<string[]>(row.cc_addresses) ?? [],
    subject: row.subject,
    headers: (readJson<[string, string][]>(row.headers) ?? []).map(([name, value]) => ({ name, value })),
    size: Number(row.raw_size),
    hasRaw: readBoolean(row.has_raw),
    disposition: row.disposition,
    commentId: row.comment_id,
    delivery: deliveryOfJoinedOutbox(row),
    createdAt: row.created_at,
  };
}
