import { describe, expect, it } from 'vitest';
import { createMailboxBody, type MailboxFormValues, mailboxFormValues, updateMailboxBody } from './mailbox-form';
import type { Mailbox } from './mailbox-queries';

const imapMailbox = {
  id: '01JTESTMAILBOX0000000000000',
  address: 'help@acme.test',
  teamId: '01JTESTTEAM000000000000000',
  displayName: 'Acme Help',
  delivery: 'imap',
  isDefault: false,
  imap: {
    host: 'imap.acme.test',
    port: 993,
    tls: true,
    username: 'help@acme.test',
    folder: 'INBOX',
    processedFolder: null,
    lastPolledAt: null,
    nextPollAt: null,
    lastError: null,
  },
  verification: { status: 'verified', method: 'link', verifiedAt: null, linkSentAt: null, linkExpiresAt: null, dnsRecord: null },
  createdAt: '2026-01-15T09:00:00.000Z',
  updatedAt: '2026-01-15T09:00:00.000Z',
} satisfies Mailbox;

describe('the mailbox form', () => {
  it('never holds the stored IMAP password: the field starts empty', () => {
    expect(mailboxFormValues(imapMailbox).imap.password).toBe('');
  });

  it('sends only what changed; unchanged IMAP settings and an untouched password are not sent', () => {
    const values: MailboxFormValues = { ...mailboxFormValues(imapMailbox), displayName: 'Acme Desk' };
    expect(updateMailboxBody(values, { displayName: true })).toEqual({ displayName: 'Acme Desk' });

    const moved = { ...values, imap: { ...values.imap, host: 'imap.other.test' } };
    expect(updateMailboxBody(moved, { imap: { host: true } })).toEqual({
      imap: { host: 'imap.other.test', port: 993, tls: true, username: 'help@acme.test', folder: 'INBOX', processedFolder: null },
    });
    const retyped = { ...values, imap: { ...values.imap, password: 'new-app-password' } };
    expect(updateMailboxBody(retyped, { imap: { password: true } }).imap?.password).toBe('new-app-password');
  });

  it('drops IMAP settings from an SMTP mailbox, and sends them all for a new IMAP one', () => {
    const smtp: MailboxFormValues = { ...mailboxFormValues(), address: 'a@acme.test', displayName: 'A', teamId: 't' };
    expect(createMailboxBody(smtp)).toEqual({
      address: 'a@acme.test',
      displayName: 'A',
      teamId: 't',
      isDefault: false,
      delivery: 'smtp',
    });
    const imap = {
      ...smtp,
      delivery: 'imap' as const,
      imap: { ...smtp.imap, host: 'imap.acme.test', username: 'a', password: 'pw' },
    };
    expect(createMailboxBody(imap).imap).toEqual({
      host: 'imap.acme.test',
      tls: true,
      username: 'a',
      password: 'pw',
      folder: 'INBOX',
      processedFolder: null,
    });
  });
});
