import { describe, expect, it } from 'vitest';
import { isReplyTokenOf, parseReplyAddress, replyAddressFor } from './reply-address.js';

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const ticket = { id: '01JBILL0000000000000000001', identifier: 'BILL-1' };

describe('reply addresses', () => {
  it('round-trips a ticket through its reply address, in any case', () => {
    const address = replyAddressFor('Support@Acme.test', ticket, key);
    expect(address).toMatch(/^support\+bill-1\.[0-9a-f]{12}@acme\.test$/);
    const token = parseReplyAddress(address.toUpperCase());
    expect(token).toMatchObject({ mailboxAddress: 'support@acme.test', ticketIdentifier: 'bill-1' });
    expect(token && isReplyTokenOf(token, ticket.id, key)).toBe(true);
  });

  it('refuses a signature made for another ticket or under another key', () => {
    const token = parseReplyAddress(replyAddressFor('support@acme.test', ticket, key));
    expect(token && isReplyTokenOf(token, '01JBILL0000000000000000002', key)).toBe(false);
    expect(token && isReplyTokenOf(token, ticket.id, otherKey)).toBe(false);
    const forged = parseReplyAddress('support+bill-1.000000000000@acme.test');
    expect(forged && isReplyTokenOf(forged, ticket.id, key)).toBe(false);
    const short = parseReplyAddress('support+bill-1.abc@acme.test');
    expect(short && isReplyTokenOf(short, ticket.id, key)).toBe(false);
  });

  it('reads plain and other plus addresses as no token', () => {
    expect(parseReplyAddress('support@acme.test')).toBeNull();
    expect(parseReplyAddress('support+sales@acme.test')).toBeNull();
    expect(parseReplyAddress('not an address')).toBeNull();
  });
});
