import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { enqueueEmail } from '../../delivery/outbox/outbox.service.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../authorization.js';
import { findLiveUser } from '../users/user.lookup.js';
import { findMailboxById } from './mailbox.repository.js';
import type { SendMailboxTestEmail } from './mailbox.schemas.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export const UNVERIFIED_TEST_EMAIL =
  'The mailbox is not verified yet, so it sends nothing: verify its address (the emailed link or the DNS record) first';

function testEmailText(mailbox: { address: string; display_name: string }): string {
  return [
    `This is a test email from ${mailbox.display_name} <${mailbox.address}>, sent by Switchboard.`,
    '',
    'It went through the same outgoing path as replies to tickets: if it arrived, customers receive',
    "this mailbox's replies too. Check that it was not filed as spam, and that SPF and DKIM passed",
    "in the message's headers (Authentication-Results).",
  ].join('\n');
}

/**
 * Queues a short message from a verified mailbox's address in the outbox, the path every email
 * takes, so a failure shows where other mail failures do (GET /v1/outbox). To the caller's own
 * address unless `to` says otherwise; organization admins only.
 */
export async function sendMailboxTestEmail(deps: Deps, principal: Principal, mailboxId: string, input: SendMailboxTestEmail) {
  requireOrgAdmin(principal);
  const mailbox = await findMailboxById(deps.db, principal.organizationId, mailboxId);
  if (!mailbox) {
    throw AppError.notFound('Mailbox not found!');
  }
  if (mailbox.verified_at === null) {
    throw AppError.conflict(UNVERIFIED_TEST_EMAIL);
  }
  const to = input.to?.trim().toLowerCase() ?? (await findLiveUser(deps.db, principal.organizationId, principal.userId))?.email;
  if (!to) {
    throw AppError.invalid('to is required: the caller has no email address', {
      location: 'body',
      path: ['to'],
      rule: 'required',
    });
  }
  const id = deps.ids.ulid();
  const domain = mailbox.address.slice(mailbox.address.lastIndexOf('@') + 1);
  const subject = `Test email from ${mailbox.display_name}`;
  const queued = await enqueueEmail(deps.db, deps, {
    organizationId: principal.organizationId,
    dedupeKey: `mailbox-test:${id}`,
    to,
    subject,
    text: testEmailText(mailbox),
    threading: {
      messageId: `<${id}@${domain}>`,
      from: { name: mailbox.display_name, address: mailbox.address },
      replyTo: null,
      inReplyTo: null,
      references: [],
    },
  });
  return {
    id: queued.id,
    to,
    from: `${mailbox.display_name} <${mailbox.address}>`,
    subject,
    status: 'pending' as const,
    createdAt: deps.clock.now().toISOString(),
  };
}
