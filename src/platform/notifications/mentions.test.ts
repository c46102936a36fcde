import { describe, expect, it } from 'vitest';
import { findMentionCandidates, MAX_MENTIONS, mayMention, resolveMentions } from './mentions.js';
import { excerptOf, renderTicketEmail } from './ticket-notification.email.js';

const users = [
  { id: 'U1', name: 'Ada Lovelace', email: 'Ada@Acme.test' },
  { id: 'U2', name: 'Ada', email: 'ada.short@acme.test' },
  { id: 'U3', name: 'Sam Lee', email: 'sam1@acme.test' },
  { id: 'U4', name: 'sam lee', email: 'sam2@acme.test' },
  { id: 'U5', name: 'Bob', email: 'bob@acme.test' },
];

describe('mentions in a note', () => {
  it('reads @email and @name, the longest name that names someone', () => {
    const text = 'Thanks @Ada Lovelace, can you check? cc @bob@acme.test and @Ada.';
    const candidates = findMentionCandidates(text);
    expect(candidates.emails).toEqual(['bob@acme.test']);
    expect(candidates.names[0]?.[0]).toBe('ada lovelace, can you');
    expect(resolveMentions(candidates, users).sort()).toEqual(['U1', 'U2', 'U5']);
  });

  it('an address in running text, or an @ inside a word, is not a mention', () => {
    expect(findMentionCandidates('write to pat@customer.test or ops@@x')).toEqual({ emails: [], names: [], ids: [] });
    expect(mayMention('no at sign here', null)).toBe(false);
    expect(mayMention('', { mentions: ['U1'] })).toBe(true);
  });

  it('a name two users share names nobody, and does not fall back to a shorter name', () => {
    expect(resolveMentions(findMentionCandidates('@Sam Lee please'), users)).toEqual([]);
  });

  it('an email matches case-insensitively; metadata.mentions names users by id or email', () => {
    const candidates = findMentionCandidates('@ADA@acme.TEST', { mentions: ['U5', { email: 'sam1@acme.test' }, { id: 42 }] });
    expect(resolveMentions(candidates, users).sort()).toEqual(['U1', 'U3', 'U5']);
  });

  it(`reads at most ${MAX_MENTIONS} mentions of a note`, () => {
    const text = Array.from({ length: 50 }, (_, i) => `@user${i}@acme.test`).join(' ');
    expect(findMentionCandidates(text).emails).toHaveLength(MAX_MENTIONS);
  });
});

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
