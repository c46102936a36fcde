import { describe, expect, it } from 'vitest';
import { findMentionCandidates, MAX_MENTIONS, mayMention, resolveMentions, startsMention } from './mentions.js';

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

describe('where a mention starts', () => {
  it('an @ at the start or after a space or punctuation starts one; inside a word or an address it does not', () => {
    expect(startsMention('@ada', 0)).toBe(true);
    expect(startsMention('Hi (@ada', 4)).toBe(true);
    expect(startsMention('pat@customer.test', 3)).toBe(false);
    expect(startsMention('x.@ada', 2)).toBe(false);
    expect(startsMention('Hi ada', 2)).toBe(false);
  });
});
