import { readBoolean } from '../../db/dialect.js';
import type { MailboxRow } from './mailbox.repository.js';
import type { MailboxVerification } from './mailbox-verification.service.js';

export function toMailbox(row: MailboxRow, verification: MailboxVerification) {
  const imap =
    row.delivery === 'imap' && row.imap_host !== null
      ? {
          host: row.imap_host,
          port: Number(row.imap_port),
          tls: readBoolean(row.imap_tls),
          username: row.imap_user ?? '',
          folder: row.imap_folder ?? 'INBOX',
          processedFolder: row.imap_processed_folder,
          lastPolledAt: row.imap_last_polled_at,
          nextPollAt: row.imap_next_poll_at,
          lastError: row.imap_last_error,
        }
      : null;
  return {
    id: row.id,
    address: row.address,
    teamId: row.team_id,
    displayName: row.display_name,
    delivery: row.delivery,
    isDefault: readBoolean(row.is_default),
    imap,
    verification,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
