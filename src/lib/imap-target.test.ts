import { describe, expect, it } from 'vitest';
import { parseOutboundPolicy } from './guarded-fetch.js';
import { ImapHostRefusedError, imapHostProblem, resolveImapTarget } from './imap-target.js';

const none = parseOutboundPolicy(undefined);
const loopback = parseOutboundPolicy('127.0.0.1:1143,imap.internal');

describe('the outbound policy for IMAP hosts', () => {
  it('refuses private, loopback, link-local and local names unless allowlisted, when saved', () => {
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.10',
      '169.254.169.254',
      '[::1]',
      'fd00::1',
      'localhost',
      'mail.localhost',
    ]) {
      expect(imapHostProblem(host, 993, none, 'imap.host'), host).toMatch(/^imap\.host points to a private or reserved address/);
    }
    expect(imapHostProblem('imap.example.com', 993, none, 'imap.host')).toBeNull();
    expect(imapHostProblem('8.8.8.8', 993, none, 'imap.host')).toBeNull();
    expect(imapHostProblem('203.0.113.7', 993, none, 'imap.host')).not.toBeNull();
    expect(imapHostProblem('127.0.0.1', 1143, loopback, 'imap.host')).toBeNull();
    // Allowlisted with its port only.
    expect(imapHostProblem('127.0.0.1', 993, loopback, 'imap.host')).not.toBeNull();
  });

  it('connects to the checked address, with STARTTLS required unless the host is allowlisted', async () => {
    await expect(resolveImapTarget('8.8.8.8', 993, none)).resolves.toEqual({
      host: '8.8.8.8',
      servername: undefined,
      requireStartTls: true,
    });
    await expect(resolveImapTarget('127.0.0.1', 1143, loopback)).resolves.toEqual({
      host: '127.0.0.1',
      servername: undefined,
      requireStartTls: false,
    });
    await expect(resolveImapTarget('imap.internal', 143, loopback)).resolves.toMatchObject({
      servername: 'imap.internal',
      requireStartTls: false,
    });
    await expect(resolveImapTarget('127.0.0.1', 993, none)).rejects.toBeInstanceOf(ImapHostRefusedError);
    await expect(resolveImapTarget('localhost', 993, none)).rejects.toBeInstanceOf(ImapHostRefusedError);
  });
});
