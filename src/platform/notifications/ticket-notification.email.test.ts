import { describe, expect, it } from 'vitest';
import { excerptOf, renderTicketEmail } from './ticket-notification.email.js';

describe('ticket email text', () => {
  const ticket = { ticket_identifier: 'BILL-12', title: 'Refund\nnot received', team_name: 'Billing' };

  it('subject names what happened, the identifier and the title on one line', () => {
    const assigned = renderTicketEmail(ticket, [{ kind: 'assigned', viaTeam: false, excerpt: 'Paid twice' }], 'Ada');
    expect(assigned.subject).toBe('[BILL-12] Assigned to you: Refund not received');
    expect(assigned.text).toContain('Ada assigned BILL-12 to you.');
    expect(assigned.text).toContain('> Paid twice');
    expect(assigned.text).toContain('PATCH /v1/users/me/notifications');
    const both = renderTicketEmail(
      ticket,
      [
        { kind: 'mentioned', viaTeam: false, excerpt: 'see <this>' },
        { kind: 'assigned', viaTeam: false, excerpt: null },
      ],
      'Ada',
    );
    expect(both.subject).toBe('[BILL-12] Assigned to you: Refund not received');
    expect(both.text).toContain('Ada mentioned you in an internal note on BILL-12.');
    expect(both.html).toContain('see &#60;this&#62;');
    expect(renderTicketEmail(ticket, [{ kind: 'assigned', viaTeam: true, excerpt: null }], 'Routing').subject).toBe(
      '[BILL-12] New ticket for Billing: Refund not received',
    );
  });

  it('an excerpt is one line of at most 280 characters, cut at a word', () => {
    const long = `${'word '.repeat(100)}end`;
    const excerpt = excerptOf(long) ?? '';
    expect(excerpt.length).toBeLessThanOrEqual(281);
    expect(excerpt.endsWith('word…')).toBe(true);
    expect(excerptOf('  a\n\nb ')).toBe('a b');
    expect(excerptOf(null)).toBeNull();
  });
});
