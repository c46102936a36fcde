import { createPublicKey } from 'node:crypto';
import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import { type Config, dkimSigningOf, publicBaseUrl } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../authorization.js';
import { getMailbox, type Mailbox } from './mailbox.service.js';

type DnsRecord = {
  purpose: 'mx' | 'spf' | 'dkim' | 'verification';
  type: 'MX' | 'TXT';
  name: string;
  value: string;
  priority: number | null;
  description: string;
};

export interface MailboxDnsSetup {
  domain: string;
  records: DnsRecord[];
  notes: string[];
}

type SetupConfig = Config;

/** A host name without IPv6 brackets. */
const bareHost = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/**
 * The MX record of an `smtp` mailbox: its domain's mail goes to the host this instance is reached
 * at (PUBLIC_BASE_URL), where the built-in SMTP receiver listens. An `imap` mailbox keeps its
 * provider's MX.
 */
function mxRecord(config: SetupConfig, mailbox: Mailbox, domain: string, notes: string[]): DnsRecord | null {
  if (mailbox.delivery === 'imap') {
    notes.push('MX: none to change. An IMAP mailbox is fetched from your mail provider, so the domain keeps its MX records.');
    return null;
  }
  const host = bareHost(new URL(publicBaseUrl(config, 'platform')).hostname);
  if (isIP(host)) {
    notes.push(
      `MX: an MX record names a host, not an address: give ${host} a host name (an A or AAAA record) and use that name as the MX value.`,
    );
  }
  if (config.SMTP_INBOUND_PORT === undefined) {
    notes.push(
      "MX: this instance's SMTP receiver is off (SMTP_INBOUND_PORT is unset), so mail sent to the MX host is not received until it is set.",
    );
  } else if (config.SMTP_INBOUND_PORT !== 25) {
    notes.push(
      `MX: mail servers deliver on port 25, and this instance's SMTP receiver listens on port ${config.SMTP_INBOUND_PORT}: forward port 25 to it, or relay through a mail server of your own.`,
    );
  }
  return {
    purpose: 'mx',
    type: 'MX',
    name: domain,
    value: host,
    priority: 10,
    description:
      `Mail for ${domain} is delivered to this instance. Every address of the domain then arrives here: ` +
      `if other addresses of ${domain} must stay with your current provider, forward ${mailbox.address} to this instance instead, or use a subdomain for support.`,
  };
}

/** SPF for the outgoing server the instance sends through (SMTP_URL): mail from the mailbox is sent there. */
function spfRecord(config: SetupConfig, domain: string, notes: string[]): DnsRecord | null {
  if (!config.SMTP_URL) {
    notes.push(
      'SPF: this instance has no outgoing mail server (SMTP_URL is unset), so it sends no mail and needs no SPF record.',
    );
    return null;
  }
  const host = bareHost(new URL(config.SMTP_URL).hostname);
  const version = isIP(host);
  const mechanism = version === 4 ? `ip4:${host}` : version === 6 ? `ip6:${host}` : `a:${host}`;
  return {
    purpose: 'spf',
    type: 'TXT',
    name: domain,
    value: `v=spf1 ${mechanism} ~all`,
    priority: null,
    description:
      `Lets the outgoing server this instance sends through (${host}) send mail from ${domain}. A domain has one SPF record: ` +
      `add ${mechanism} to an existing one rather than publishing a second. If your relay publishes its own SPF include (include:…), use that instead.`,
  };
}

/** The public key of the instance's DKIM signing key, as the selector's TXT record publishes it. */
function dkimRecord(config: SetupConfig, domain: string, notes: string[]): DnsRecord | null {
  const signing = dkimSigningOf(config);
  if (!signing) {
    notes.push(
      'DKIM: this instance does not sign outgoing mail (DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY are unset), so there is no DKIM record to publish. Without it, DMARC relies on SPF alone.',
    );
    return null;
  }
  const publicKey = createPublicKey(signing.privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  const aligned = domain === signing.domainName || domain.endsWith(`.${signing.domainName}`);
  if (!aligned) {
    notes.push(
      `DKIM: mail is signed for ${signing.domainName}, not ${domain}, so DMARC checks of ${domain} do not count the signature.`,
    );
  }
  return {
    purpose: 'dkim',
    type: 'TXT',
    name: `${signing.keySelector}._domainkey.${signing.domainName}`,
    value: `v=DKIM1; k=rsa; p=${publicKey}`,
    priority: null,
    description: `The public key that checks the DKIM signature this instance puts on every email it sends (d=${signing.domainName}, s=${signing.keySelector}).`,
  };
}

/**
 * The DNS records that make a mailbox's address work with this instance, from its configuration:
 * the MX (smtp mailboxes), SPF and DKIM for what it sends, and the verification TXT while the
 * address is unverified. What cannot be given is said in `notes`, so nobody guesses a record.
 */
export function mailboxDnsSetup(config: SetupConfig, mailbox: Mailbox): MailboxDnsSetup {
  const domain = mailbox.address.slice(mailbox.address.lastIndexOf('@') + 1);
  const notes: string[] = [];
  const records = [mxRecord(config, mailbox, domain, notes), spfRecord(config, domain, notes), dkimRecord(config, domain, notes)];
  const verification = mailbox.verification.dnsRecord;
  if (verification) {
    records.push({
      purpose: 'verification',
      type: 'TXT',
      name: verification.name,
      value: verification.value,
      priority: null,
      description: `Proves ${domain} is your organization's; once it is published, ask for a DNS check (POST …/verification/dns). It verifies every mailbox of the organization on ${domain}.`,
    });
  } else {
    notes.push('Verification: the address is verified, so no verification record is needed.');
  }
  return { domain, records: records.filter((record): record is DnsRecord => record !== null), notes };
}

/** The set-up records of one of the organization's mailboxes; organization admins only (they name the instance's relay). */
export async function getMailboxDnsSetup(
  deps: { db: Kysely<DB>; config: Config },
  principal: Principal,
  mailboxId: string,
): Promise<MailboxDnsSetup> {
  requireOrgAdmin(principal);
  return mailboxDnsSetup(deps.config, await getMailbox(deps.db, principal, mailboxId));
}
