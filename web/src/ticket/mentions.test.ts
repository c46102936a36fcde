import { describe, expect, it } from 'vitest';
import { activeMentionQuery, insertMention, matchMentionableUsers, mentionedUserIds, mentionToken } from './mentions';

const ada = { id: 'U1', name: 'Ada Agent', email: 'ada@acme.test' };
const bob = { id: 'U2', name: 'Bob Builder', email: 'bob@acme.test' };
const otherAda = { id: 'U3', name: 'ada agent', email: 'ada2@acme.test' };
const long = { id: 'U4', name: 'Maria de la Cruz Santos', email: 'maria@acme.test' };

describe('@mentions in the composer', () => {
  it('finds the mention typed at the caret', () => {
    expect(activeMentionQuery('Hi @', 4)).toEqual({ start: 3, query: '' });
    expect(activeMentionQuery('Hi @ad', 6)).toEqual({ start: 3, query: 'ad' });
    expect(activeMentionQuery('@Ada Ag', 7)).toEqual({ start: 0, query: 'Ada Ag' });
    // The caret before the mention's end: only what precedes it counts.
    expect(activeMentionQuery('Hi @ada there', 7)).toEqual({ start: 3, query: 'ada' });
  });

  it('ignores an @ inside a word or an email, across lines, or followed by a space', () => {
    expect(activeMentionQuery('mail pat@customer.test', 22)).toBeNull();
    expect(activeMentionQuery('x@', 2)).toBeNull();
    expect(activeMentionQuery('@ada\nmore', 9)).toBeNull();
    expect(activeMentionQuery('@ look', 6)).toBeNull();
    expect(activeMentionQuery('@a b c d', 8)).toBeNull();
    expect(activeMentionQuery('no mention', 10)).toBeNull();
  });

  it('matches names first, then emails, then any word of a name', () => {
    const users = [bob, ada, long];
    expect(matchMentionableUsers(users, 'ad')).toEqual([ada]);
    expect(matchMentionableUsers(users, 'bob@')).toEqual([bob]);
    expect(matchMentionableUsers(users, 'cruz')).toEqual([long]);
    expect(matchMentionableUsers(users, '')).toEqual([ada, bob, long]);
    expect(matchMentionableUsers(users, 'zz')).toEqual([]);
    expect(matchMentionableUsers(users, '', 2)).toHaveLength(2);
  });

  it('writes a unique short name as the name, else the email, as the API resolves them', () => {
    expect(mentionToken(ada, [ada, bob])).toBe('@Ada Agent');
    // Two users share the name (ignoring case): the API would notify nobody, so the email it is.
    expect(mentionToken(ada, [ada, bob, otherAda])).toBe('@ada@acme.test');
    // More than four words: the API reads four at most.
    expect(mentionToken(long, [long])).toBe('@maria@acme.test');
  });

  it('replaces the typed query by the token and a space, and puts the caret after it', () => {
    const text = 'Ask @ad about it';
    const query = activeMentionQuery(text, 7);
    expect(query).not.toBeNull();
    expect(insertMention(text, query ?? { start: 0, query: '' }, 7, '@Ada Agent')).toEqual({
      text: 'Ask @Ada Agent  about it',
      caret: 15,
    });
  });

  it('keeps the ids of picked users whose token is still in the text', () => {
    const picked = [
      { id: 'U1', token: '@Ada Agent' },
      { id: 'U2', token: '@Bob Builder' },
      { id: 'U1', token: '@Ada Agent' },
    ];
    expect(mentionedUserIds('Thanks @Ada Agent!', picked)).toEqual(['U1']);
    expect(mentionedUserIds('nobody', picked)).toEqual([]);
  });
});
