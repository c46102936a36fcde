import { z } from 'zod';
import type { Mailbox, MailboxCreate, MailboxUpdate } from './mailbox-queries';

/**
 * The mailbox form's values, named as the API names them (`imap.host`), so the API's problems land
 * beside their fields. The form checks only what a person can fix before sending; the API judges.
 */
export const mailboxFormSchema = z
  .object({
    address: z.string().trim().min(1, 'Enter the support address').pipe(z.email('Enter an email address')),
    displayName: z.string().trim().min(1, 'Enter the name customers see'),
    teamId: z.string().min(1, 'Choose the team its tickets go to'),
    isDefault: z.boolean(),
    delivery: z.enum(['smtp', 'imap']),
    imap: z.object({
      host: z.string().trim(),
      port: z.string().regex(/^\d{0,5}$/, 'Enter a port number'),
      tls: z.boolean(),
      username: z.string().trim(),
      password: z.string(),
      folder: z.string().trim(),
      processedFolder: z.string().trim(),
    }),
  })
  .superRefine((values, context) => {
    if (values.delivery !== 'imap') {
      return;
    }
    if (!values.imap.host) {
      context.addIssue({ code: 'custom', path: ['imap', 'host'], message: 'Enter the IMAP server' });
    }
    if (!values.imap.username) {
      context.addIssue({ code: 'custom', path: ['imap', 'username'], message: 'Enter the IMAP username' });
    }
  });

export type MailboxFormValues = z.infer<typeof mailboxFormSchema>;

export function mailboxFormValues(mailbox?: Mailbox): MailboxFormValues {
  return {
    address: mailbox?.address ?? '',
    displayName: mailbox?.displayName ?? '',
    teamId: mailbox?.teamId ?? '',
    isDefault: mailbox?.isDefault ?? false,
    delivery: mailbox?.delivery ?? 'smtp',
    imap: {
      host: mailbox?.imap?.host ?? '',
      port: mailbox?.imap ? String(mailbox.imap.port) : '',
      tls: mailbox?.imap?.tls ?? true,
      username: mailbox?.imap?.username ?? '',
      // Never shown again: an empty field keeps the stored password, a typed one replaces it.
      password: '',
      folder: mailbox?.imap?.folder ?? 'INBOX',
      processedFolder: mailbox?.imap?.processedFolder ?? '',
    },
  };
}

function imapBody(imap: MailboxFormValues['imap']) {
  return {
    host: imap.host,
    tls: imap.tls,
    username: imap.username,
    ...(imap.port ? { port: Number(imap.port) } : {}),
    ...(imap.password ? { password: imap.password } : {}),
    folder: imap.folder || 'INBOX',
    processedFolder: imap.processedFolder || null,
  };
}

export function createMailboxBody(values: MailboxFormValues): MailboxCreate {
  const imap = imapBody(values.imap);
  return {
    address: values.address,
    displayName: values.displayName,
    teamId: values.teamId,
    isDefault: values.isDefault,
    delivery: values.delivery,
    // The API asks for the password itself when it is missing, beside the password field.
    ...(values.delivery === 'imap' ? { imap: { ...imap, password: values.imap.password } } : {}),
  };
}

type Dirty = Partial<Record<keyof MailboxFormValues, unknown>>;

/**
 * Only what changed: an unchanged address is not proved again, and unchanged IMAP settings are not
 * sent (sending them restarts polling). The password goes only when a new one was typed.
 */
export function updateMailboxBody(values: MailboxFormValues, dirty: Dirty): MailboxUpdate {
  const body: MailboxUpdate = {};
  if (dirty.address) {
    body.address = values.address;
  }
  if (dirty.displayName) {
    body.displayName = values.displayName;
  }
  if (dirty.teamId) {
    body.teamId = values.teamId;
  }
  if (dirty.isDefault) {
    body.isDefault = values.isDefault;
  }
  if (dirty.delivery) {
    body.delivery = values.delivery;
  }
  if (values.delivery === 'imap' && (dirty.imap || dirty.delivery)) {
    body.imap = imapBody(values.imap);
  }
  return body;
}
