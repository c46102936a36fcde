import type { WebClient } from '@slack/web-api';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import type { ContactSummaryRow } from '../../platform/contacts/customer-contact.repository.js';
import { findOrCreateContactByEmail, joinContactToAccount } from '../../platform/contacts/customer-contact.service.js';
import { findLiveUserByEmail } from '../../platform/users/user.lookup.js';
import type { SlackInstallationRow } from './slack.repository.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/** A Slack user as `users.info` shows them: what finds their contact, or tells them for one of the organization's people. */
export interface SlackPerson {
  userId: string;
  /** Their profile's email; null when Slack shows none (no `users:read.email`, or hidden by their workspace). */
  email: string | null;
  /** Their real name, else display name, else the user id. */
  name: string;
}

const NAME_MAX = 100;

/** Who wrote a message, by `users.info` (the client waits out `ratelimited`). */
export async function lookUpSlackPerson(client: WebClient, userId: string): Promise<SlackPerson> {
  const answer = await client.users.info({ user: userId });
  const profile = answer.user?.profile;
  const email = profile?.email?.trim().toLowerCase() || null;
  const name = (profile?.real_name || profile?.display_name || answer.user?.real_name || answer.user?.name || userId).trim();
  return { userId, email, name: name.slice(0, NAME_MAX) };
}

/**
 * Whether a person of another workspace (a Slack Connect partner's `user_team`) is still the
 * organization's own side: their email is one of the organization's users. (A member of the
 * installation's own workspace is known before, without asking Slack.)
 */
export async function isOrganizationUser(
  deps: Pick<SlackWorkerDeps, 'db'>,
  installation: SlackInstallationRow,
  person: SlackPerson,
): Promise<boolean> {
  return person.email !== null && (await findLiveUserByEmail(deps.db, installation.organization_id, person.email)) !== undefined;
}

/**
 * The address a Slack user without a visible email is filed under: reserved `.invalid`, so nothing is
 * ever sent to it, and stable per workspace user, so their later messages find the same contact.
 */
export function placeholderEmailOf(teamId: string, userId: string): string {
  return `slack-${teamId.toLowerCase()}-${userId.toLowerCase()}@users.slack.invalid`;
}

/**
 * The customer's contact: found or made by their profile email (a user without one gets a contact
 * named after their Slack profile, at a placeholder address), and joined to the channel's account.
 */
export async function contactOfSlackPerson(
  trx: Transaction<DB>,
  deps: SlackWorkerDeps,
  where: { organizationId: string; teamId: string; accountId: string | null; channelName: string },
  person: SlackPerson,
): Promise<ContactSummaryRow> {
  const [first, ...rest] = person.name.split(/\s+/).filter(Boolean);
  const contact = await findOrCreateContactByEmail(
    trx,
    deps,
    where.organizationId,
    person.email ?? placeholderEmailOf(where.teamId, person.userId),
    { type: 'system', id: null, name: `Slack #${where.channelName}` },
    { firstName: first ?? person.userId, lastName: rest.join(' ') || null, accountId: where.accountId },
  );
  if (where.accountId) {
    await joinContactToAccount(trx, deps, where.organizationId, { contactId: contact.id, accountId: where.accountId });
  }
  return contact;
}
