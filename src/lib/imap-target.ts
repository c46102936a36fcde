import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { isPublicAddress, type OutboundPolicy } from './guarded-fetch.js';

/**
 * The outbound guard's policy (`lib/guarded-fetch.ts`) for IMAP servers, which admins configure
 * like webhooks and MCP servers: no private, loopback, link-local or otherwise reserved address
 * unless `OUTBOUND_ALLOWED_HOSTS` names the host (with or without the port), and no password in
 * the clear to a host it does not name.
 */

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** What is wrong with a host as configured (before any DNS), naming `field`; null when nothing is. */
export function imapHostProblem(host: string, port: number, policy: OutboundPolicy, field: string): string | null {
  const name = bare(host);
  if (policy.isAllowlisted(name, port)) {
    return null;
  }
  if (ipaddr.isValid(name) ? !isPublicAddress(name) : isLocalName(name)) {
    return `${field} points to a private or reserved address (allow it with OUTBOUND_ALLOWED_HOSTS)`;
  }
  return null;
}

/** Where to connect: the address checked now (so DNS cannot change it between check and connect) and the TLS server name. */
export interface ImapTarget {
  host: string;
  servername: string | undefined;
  /** STARTTLS must succeed before the password is sent (plain IMAP only to allowlisted hosts). */
  requireStartTls: boolean;
}

export class ImapHostRefusedError extends Error {
  override readonly name = 'ImapHostRefusedError';
}

/**
 * Resolves the host and checks every address it has against the policy, at each poll: a name
 * that pointed somewhere public when it was saved may point inside the network today.
 */
export async function resolveImapTarget(host: string, port: number, policy: OutboundPolicy): Promise<ImapTarget> {
  const name = bare(host);
  if (policy.isAllowlisted(name, port)) {
    return { host: name, servername: ipaddr.isValid(name) ? undefined : name, requireStartTls: false };
  }
  if (ipaddr.isValid(name)) {
    if (!isPublicAddress(name)) {
      throw new ImapHostRefusedError(`${name} is a private or reserved address`);
    }
    return { host: name, servername: undefined, requireStartTls: true };
  }
  if (isLocalName(name)) {
    throw new ImapHostRefusedError(`${name} is a local name`);
  }
  const addresses = await lookup(name, { all: true });
  const [first] = addresses;
  if (!first || addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new ImapHostRefusedError(`${name} resolves to a private or reserved address`);
  }
  return { host: first.address, servername: name, requireStartTls: true };
}
