/**
 * Attempts at filing one message of an IMAP mailbox (its folder's UIDVALIDITY and UID), counted
 * before each attempt; the row goes once the message is filed or set aside.
 */
export interface ImapMessageAttemptTable {
  mailbox_id: string;
  uid_validity: number;
  uid: number;
  attempts: number;
  updated_at: string;
}
