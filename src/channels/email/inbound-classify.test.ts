import { describe, expect, it } from 'vitest';
import { setAsideReason } from './inbound-classify.js';
import { parseInboundMessage } from './inbound-message.js';

const message = (headers: string[], body = 'Hello') =>
  parseInboundMessage(Buffer.from([...headers, '', body, ''].join('\r\n'), 'latin1'));
const person = ['From: Jane <jane@customer.test>', 'To: support@acme.test', 'Subject: Hi'];

describe('what a received message is', () => {
  it('reads ids without brackets, the nearest thread ids first, and derives an id for a message without one', async () => {
    const parsed = await message([
      ...person,
      'Message-ID: <m3@customer.test>',
      'In-Reply-To: <m2@acme.test>',
      'References: <m1@customer.test> <m2@acme.test>',
    ]);
    expect(parsed).toMatchObject({
      messageId: 'm3@customer.test',
      inReplyTo: 'm2@acme.test',
      references: ['m1@customer.test', 'm2@acme.test'],
    });
    expect(parsed.threadIds).toEqual(['m2@acme.test', 'm1@customer.test']);
    const bare = await message(person);
    expect(bare.messageId).toMatch(/^[0-9a-f]{64}@switchboard\.invalid$/);
    expect((await message(person)).messageId).toBe(bare.messageId);
    expect((await message(person, 'other body')).messageId).not.toBe(bare.messageId);
  });

  it('keeps what a database can store of odd text: no NUL, no lone surrogate', async () => {
    const parsed = await message([...person, 'Content-Type: text/plain; charset=utf-8'], 'a\u0000b \u00ff');
    expect(parsed.text).not.toContain('\u0000');
    expect(parsed.text.startsWith('ab')).toBe(true);
  });

  it('takes a person writing for a person, and Auto-Submitted: no too', async () => {
    expect(setAsideReason(await message(person), { fromOwnAddress: false })).toBeNull();
    expect(setAsideReason(await message([...person, 'Auto-Submitted: no']), { fromOwnAddress: false })).toBeNull();
    expect(setAsideReason(await message([...person, 'Precedence: first-class']), { fromOwnAddress: false })).toBeNull();
  });

  it('sets aside automatic replies by each of their headers', async () => {
    for (const header of [
      'Auto-Submitted: auto-replied',
      'Auto-Submitted: auto-generated; owner-email="x@y.test"',
      'X-Autoreply: yes',
      'X-Autorespond: vacation',
      'Precedence: bulk',
      'Precedence: junk',
      'Precedence: LIST',
      'X-Precedence: auto_reply',
    ]) {
      expect(setAsideReason(await message([...person, header]), { fromOwnAddress: false }), header).toBe('auto_reply');
    }
  });

  it('sets aside bounces: delivery reports, the null sender, MAILER-DAEMON', async () => {
    const report = await message(
      [...person, 'Content-Type: multipart/report; report-type="delivery-status"; boundary=x'],
      '--x--',
    );
    expect(setAsideReason(report, { fromOwnAddress: false })).toBe('bounce');
    const otherReport = await message(
      [...person, 'Content-Type: multipart/report; report-type=disposition-notification; boundary=x'],
      '--x--',
    );
    expect(setAsideReason(otherReport, { fromOwnAddress: false })).toBeNull();
    expect(setAsideReason(await message([...person, 'Return-Path: <>']), { fromOwnAddress: false })).toBe('bounce');
    expect(setAsideReason(await message(person), { fromOwnAddress: false, envelopeFrom: '' })).toBe('bounce');
    expect(setAsideReason(await message(['From: MAILER-DAEMON@mx.test', 'Subject: x']), { fromOwnAddress: false })).toBe(
      'bounce',
    );
    // A bounce that also says Auto-Submitted is a bounce.
    expect(
      setAsideReason(await message([...person, 'Return-Path: <>', 'Auto-Submitted: auto-replied']), { fromOwnAddress: false }),
    ).toBe('bounce');
  });

  it('sets aside mail from its own addresses, and mail without a usable sender', async () => {
    expect(setAsideReason(await message([...person, 'Auto-Submitted: auto-replied']), { fromOwnAddress: true })).toBe('loop');
    expect(setAsideReason(await message(['Subject: nobody']), { fromOwnAddress: false })).toBe('no_sender');
    expect(setAsideReason(await message(['From: not an address', 'Subject: x']), { fromOwnAddress: false })).toBe('no_sender');
  });
});
