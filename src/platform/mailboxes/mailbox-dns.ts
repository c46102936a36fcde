import { Resolver } from 'node:dns/promises';
import type { Config } from '../../config.js';

/** The TXT records of a name, each record's strings joined (a long value is split into strings of 255 bytes). */
export type TxtLookup = (name: string) => Promise<string[]>;

/** The name that holds an organization's proof of a domain, and the value it must hold. */
export function domainVerificationRecord(domain: string, token: string): { name: string; type: 'TXT'; value: string } {
  return { name: `_switchboard.${domain}`, type: 'TXT', value: `switchboard-verification=${token}` };
}

/** Answers that mean "there is no such record", as opposed to a lookup that failed. */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

export class DnsLookupError extends Error {
  override readonly name = 'DnsLookupError';
}

/**
 * TXT lookups through the resolvers `MAILBOX_DNS_SERVERS` names, else the system's. A resolver of
 * one's own is worth naming when the system's caches the answer from before the record was added.
 */
export function createTxtLookup(config: Pick<Config, 'MAILBOX_DNS_SERVERS'>, options: { timeoutMs?: number } = {}): TxtLookup {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 3000, tries: 2 });
  if (config.MAILBOX_DNS_SERVERS) {
    resolver.setServers(config.MAILBOX_DNS_SERVERS.split(',').map((server) => server.trim()));
  }
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((strings) => strings.join(''));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NO_RECORD.has(code)) {
        return [];
      }
      throw new DnsLookupError(`The DNS lookup of ${name} failed (${code || 'error'})`);
    }
  };
}
