import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import * as ticketSearchMigration from '../../db/migrations/2026-11-24T0210_create_ticket_search.js';

type Headers = Record<string, string>;

interface Highlight {
  field: 'title' | 'description' | 'comment';
  commentId: string | null;
  commentVisibility: 'public' | 'private' | null;
  text: string;
}

interface Hit {
  id: string;
  title: string;
  highlights: Highlight[];
}

describe.each(DIALECTS)('ticket search on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let teamId: string;
  let privateTeamId: string;
  let member: { userId: string; headers: Headers };
  let outsider: { userId: string; headers: Headers };

  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Headers = acme.headers) =>
    harness.app.inject({ method, url, headers, payload });
  const write = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Headers = acme.headers) => {
    const response = await send(method, url, payload, headers);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data as { id: string };
  };
  const ticket = async (title: string, extra: object = {}, headers: Headers = acme.headers) =>
    (await write('POST', '/v1/tickets', { title, requestorEmail: 'customer@example.com', teamId, ...extra }, headers)).id;
  const comment = async (ticketId: string, content: string, extra: object = {}, headers: Headers = acme.headers) =>
    (await write('POST', `/v1/tickets/${ticketId}/comment`, { content, ...extra }, headers)).id;
  const searchResponse = (q: string, extra = '', headers: Headers = acme.headers) =>
    harness.app.inject({ url: `/v1/tickets/search?q=${encodeURIComponent(q)}${extra}`, headers });
  const search = async (q: string, extra = '', headers: Headers = acme.headers) => {
    const response = await searchResponse(q, extra, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Hit[];
  };
  const ids = async (q: string, extra = '', headers: Headers = acme.headers) =>
    (await search(q, extra, headers)).map((hit) => hit.id);

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    teamId = (await write('POST', '/v1/teams', { name: 'Support' })).id;
    privateTeamId = (await write('POST', '/v1/teams', { name: 'Secret', isPrivate: true })).id;
    member = await makeUser(harness, acme.organizationId);
    outsider = await makeUser(harness, acme.organizationId);
    const added = await harness.app.inject({
      method: 'POST',
      url: `/v1/teams/${privateTeamId}/members`,
      headers: acme.headers,
      payload: { userId: member.userId },
    });
    expect(added.statusCode, added.body).toBe(201);
  });
  afterAll(() => harness.close());

  it('answers each hit as GET /v1/tickets/{id} does, with where it matched', async () => {
    const id = await ticket('Customer was refunded twice', { description: 'The card shows two refunds for order 1182.' });
    const hits = await search('refunds');
    const hit = hits.find((candidate) => candidate.id === id);
    const read = (await harness.app.inject({ url: `/v1/tickets/${id}`, headers: acme.headers })).json().data;
    expect(hit).toEqual({
      ...read,
      highlights: [
        { field: 'title', commentId: null, commentVisibility: null, text: 'Customer was <mark>refunded</mark> twice' },
        {
          field: 'description',
          commentId: null,
          commentVisibility: null,
          text: expect.stringContaining('<mark>refunds</mark>'),
        },
      ],
    });
  });

  it('stems words, finds phrases and prefixes, and takes OR and exclusions', async () => {
    const policy = await ticket('Refund policy changed for marmalade orders');
    const reversed = await ticket('Marmalade: the policy on any refund');
    const other = await ticket('Marmalade jars arrived broken');
    expect(new Set(await ids('marmalade refunding'))).toEqual(new Set([policy, reversed]));
    expect(await ids('"refund policy" marmalade')).toEqual([policy]);
    expect(await ids('marmalade "refund policy')).toEqual([policy]);
    expect(new Set(await ids('marmal*'))).toEqual(new Set([policy, reversed, other]));
    expect(new Set(await ids('marmalade polic* OR broken'))).toEqual(new Set([policy, reversed, other]));
    expect(new Set(await ids('marmalade -"refund policy"'))).toEqual(new Set([reversed, other]));
    expect(await ids('marmalade -refund -policy')).toEqual([other]);
  });

  it('matches the words of a query across the title and different comments, a phrase within one part', async () => {
    const id = await ticket('Zebra crossing sign');
    await comment(id, 'A giraffe was seen nearby.');
    expect(await ids('zebra giraffe')).toEqual([id]);
    expect(await ids('"zebra giraffe"')).toEqual([]);
    const hit = (await search('giraffe'))[0];
    // PostgreSQL's passage ends at the last word, SQLite's snippet keeps the full stop.
    expect(hit?.highlights).toEqual([
      {
        field: 'comment',
        commentId: expect.any(String),
        commentVisibility: 'public',
        text: expect.stringMatching(/^A <mark>giraffe<\/mark> was seen nearby\.?$/),
      },
    ]);
  });

  it('ranks a title match above a passing mention, and more matching parts above fewer', async () => {
    const once = await ticket('Screen flickers');
    await comment(once, 'Maybe the wombat cable is loose.');
    const often = await ticket('Keyboard missing keys');
    for (const text of ['The wombat again.', 'Another wombat report.', 'Wombat spotted in the office.']) {
      await comment(often, text);
    }
    const titled = await ticket('Wombat in the server room');
    const ranked = await ids('wombat');
    expect(ranked).toHaveLength(3);
    expect(ranked.indexOf(titled)).toBeLessThan(ranked.indexOf(once));
    expect(ranked.indexOf(often)).toBeLessThan(ranked.indexOf(once));
  });

  it('escapes the text of highlights: only <mark> is markup', async () => {
    const id = await ticket('<b>Quokka</b> & "friends"', { description: '<script>alert(1)</script> quokka sighting' });
    const [hit] = await search('quokka');
    expect(hit?.id).toBe(id);
    // SQLite keeps what looks like an HTML tag, escaped; PostgreSQL's headline drops it. Neither emits markup.
    const title = hit?.highlights[0];
    expect(title?.field).toBe('title');
    expect(title?.text).toMatch(/^(&lt;b&gt;)?<mark>Quokka<\/mark>(&lt;\/b&gt;)? ?&amp; &quot;friends&quot;$/);
    const description = hit?.highlights[1]?.text ?? '';
    expect(description).toContain('<mark>quokka</mark>');
    expect(description.replaceAll('<mark>', '').replaceAll('</mark>', '')).not.toMatch(/[<>]/);
  });

  it('finds a write at once: comment, edit, delete; ticket edit and delete', async () => {
    const id = await ticket('Printer on floor three');
    const commentId = await comment(id, 'The kangaroo ink cartridge is empty');
    expect(await ids('kangaroo')).toEqual([id]);

    await write('PATCH', `/v1/tickets/${id}/comments/${commentId}`, { content: 'The koala toner is empty' });
    expect(await ids('kangaroo')).toEqual([]);
    expect(await ids('koala')).toEqual([id]);

    await write('DELETE', `/v1/tickets/${id}/comments/${commentId}`);
    expect(await ids('koala')).toEqual([]);

    await write('PATCH', `/v1/tickets/${id}`, { title: 'Platypus printer', description: 'echidna' });
    expect(await ids('platypus echidna')).toEqual([id]);
    expect(await ids('"floor three"')).toEqual([]);

    await comment(id, 'dingo');
    await write('DELETE', `/v1/tickets/${id}`);
    expect(await ids('platypus')).toEqual([]);
    expect(await ids('dingo')).toEqual([]);
  });

  it('forgets the replies of a deleted thread, as the comment list does', async () => {
    const id = await ticket('Threaded');
    const root = await comment(id, 'first of the thread');
    await comment(id, 'a reply about lemurs', { parentCommentId: root });
    expect(await ids('lemurs')).toEqual([id]);
    await write('DELETE', `/v1/tickets/${id}/comments/${root}`);
    expect(await ids('lemurs')).toEqual([]);
  });

  it('shows private tickets to admins, members of their team and their assignee only', async () => {
    const hidden = await ticket('Narwhal incident', { teamId: privateTeamId, isPrivate: true });
    const assigned = await ticket('Narwhal escalation', {
      teamId: privateTeamId,
      isPrivate: true,
      assignedAgentId: outsider.userId,
    });
    const open = await ticket('Narwhal question');
    expect(new Set(await ids('narwhal'))).toEqual(new Set([hidden, assigned, open]));
    expect(new Set(await ids('narwhal', '', member.headers))).toEqual(new Set([hidden, assigned, open]));
    expect(new Set(await ids('narwhal', '', outsider.headers))).toEqual(new Set([assigned, open]));
    const stranger = await makeUser(harness, acme.organizationId);
    expect(await ids('narwhal', '', stranger.headers)).toEqual([open]);
  });

  it('finds private comments for exactly those the comment list shows them to', async () => {
    const open = await ticket('Jaguar account');
    const noteId = await comment(open, 'internal: ocelot owes us money', { commentType: 'note' });
    const secret = await ticket('Secret ticket', { teamId: privateTeamId, isPrivate: true });
    await comment(secret, 'ocelot debts', { commentType: 'note' });
    for (const [who, headers, expected] of [
      ['admin', acme.headers, [open, secret]],
      ['member', member.headers, [open, secret]],
      ['non-member', outsider.headers, [open]],
    ] as const) {
      const hits = await search('ocelot owes OR debts', '', headers);
      expect(new Set(hits.map((hit) => hit.id)), who).toEqual(new Set(expected));
      // The comment list of the open ticket shows the note to the same caller.
      const listed = (await harness.app.inject({ url: `/v1/tickets/${open}/comments`, headers })).json().data;
      expect(listed.map((entry: { id: string }) => entry.id)).toContain(noteId);
      expect(hits.find((hit) => hit.id === open)?.highlights).toEqual([
        {
          field: 'comment',
          commentId: noteId,
          commentVisibility: 'private',
          text: 'internal: <mark>ocelot</mark> <mark>owes</mark> us money',
        },
      ]);
    }
  });

  it("never shows another organization's tickets", async () => {
    const globexTeam = (await write('POST', '/v1/teams', { name: 'G' }, globex.headers)).id;
    const theirs = await ticket('Armadillo shipment', { teamId: globexTeam }, globex.headers);
    const ours = await ticket('Armadillo return');
    expect(await ids('armadillo')).toEqual([ours]);
    expect(await ids('armadillo', '', globex.headers)).toEqual([theirs]);
    expect((await searchResponse('armadillo', `&teamId=${globexTeam}`)).statusCode).toBe(404);
  });

  it('takes the filters of the ticket list', async () => {
    const otherTeam = (await write('POST', '/v1/teams', { name: 'Billing' })).id;
    const here = await ticket('Pelican invoice');
    const there = await ticket('Pelican invoice', { teamId: otherTeam });
    expect(await ids('pelican', `&teamId=${teamId}`)).toEqual([here]);
    expect(await ids('pelican', `&teamId=${otherTeam}`)).toEqual([there]);
    const mine = await ticket('Pelican nest', { assignedAgentId: acme.userId, isPrivate: true });
    expect(await ids('pelican', '&assignedAgentId=me')).toEqual([mine]);
    expect(await ids('pelican', '&isPrivate=true')).toEqual([mine]);
    expect(new Set(await ids('pelican', `&teamId=${teamId}&teamId=${otherTeam}`))).toEqual(new Set([here, there, mine]));
    expect(await ids('pelican nest', `&teamId=${otherTeam}`)).toEqual([]);
    const unknownStatus = await searchResponse('pelican', '&statusName=nonsense');
    expect(unknownStatus.statusCode).toBe(400);
    expect(unknownStatus.json().message).toContain('statusName');
    const unknownFilter = await searchResponse('pelican', '&colour=red');
    expect(unknownFilter.statusCode).toBe(400);
    expect(unknownFilter.json().message).toContain('colour');
  });

  it('pages the ranking by page or by nextCursor, to a bounded depth', async () => {
    const created = new Set<string>();
    for (let index = 0; index < 7; index++) {
      created.add(await ticket(`Capybara report ${index}`));
    }
    const first = (await searchResponse('capybara', '&limit=3')).json();
    expect(first.data).toHaveLength(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await searchResponse('capybara', `&limit=3&cursor=${first.nextCursor}`)).json();
    const third = (await searchResponse('capybara', `&limit=3&cursor=${second.nextCursor}`)).json();
    expect(third.data).toHaveLength(1);
    expect(third.nextCursor).toBeNull();
    const walked = [...first.data, ...second.data, ...third.data].map((hit: Hit) => hit.id);
    expect(new Set(walked)).toEqual(created);
    expect((await searchResponse('capybara', '&limit=3&page=1')).json().data.map((hit: Hit) => hit.id)).toEqual(
      second.data.map((hit: Hit) => hit.id),
    );
    const deep = await searchResponse('capybara', '&limit=50&page=20');
    expect(deep.statusCode).toBe(400);
    expect(deep.json().message).toContain('page');
    expect((await searchResponse('capybara', '&cursor=bm90LWEtY3Vyc29y')).statusCode).toBe(400);
    expect((await searchResponse('capybara', `&page=1&cursor=${first.nextCursor}`)).statusCode).toBe(400);
    // A cursor belongs to its search: other words or filters refuse it.
    expect((await searchResponse('capybara report', `&limit=3&cursor=${first.nextCursor}`)).statusCode).toBe(400);
    expect((await searchResponse('capybara', `&limit=3&teamId=${teamId}&cursor=${first.nextCursor}`)).statusCode).toBe(400);
  });

  it('refuses a query with nothing to find, naming q', async () => {
    for (const q of ['', '   ', '"" * : - !!', '-spam', '-"out of office"']) {
      const response = await searchResponse(q);
      expect(response.statusCode, q).toBe(400);
      expect(response.json(), q).toEqual({ statusCode: 400, message: expect.stringContaining('q'), error: 'Bad Request' });
    }
    expect((await harness.app.inject({ url: '/v1/tickets/search', headers: acme.headers })).statusCode).toBe(400);
    expect((await searchResponse('x'.repeat(1000))).statusCode).toBe(400);
    expect((await searchResponse('a\u0000b')).statusCode).toBe(400);
    expect((await searchResponse(Array.from({ length: 20 }, (_, index) => `word${index}`).join(' '))).statusCode).toBe(400);
  });

  it('indexes the tickets and comments that exist when the migration runs', async () => {
    const kept = await ticket('Backfilled toucan');
    const note = await comment(kept, 'a hornbill note', { commentType: 'note' });
    const removedComment = await comment(kept, 'a flamingo remark');
    await write('DELETE', `/v1/tickets/${kept}/comments/${removedComment}`);
    const removed = await ticket('Deleted toucan');
    await write('DELETE', `/v1/tickets/${removed}`);
    // The migration run again on the data as it stands: its table is rebuilt from the tickets.
    await ticketSearchMigration.down(harness.db);
    await ticketSearchMigration.up(harness.db);
    expect(await ids('toucan')).toEqual([kept]);
    expect((await search('hornbill'))[0]?.highlights).toEqual([
      { field: 'comment', commentId: note, commentVisibility: 'private', text: 'a <mark>hornbill</mark> note' },
    ]);
    expect(await ids('flamingo')).toEqual([]);
    // And the triggers are back.
    await comment(kept, 'now a pelican');
    expect(await ids('pelican toucan')).toEqual([kept]);
  });

  it('reads hostile queries as text, never as query syntax', async () => {
    const id = await ticket('Iguana: NEAR the "gate" & co (urgent)!');
    // Each of these still finds the ticket: the punctuation is read as a word separator.
    for (const q of [
      '"iguana',
      'iguana"',
      'iguana*',
      'iguana:*',
      'iguana & gate',
      'iguana | gate',
      '!iguana',
      '(iguana)',
      'iguana OR',
      'OR iguana',
      '{iguana}',
      'iguana\\',
      'iguana -',
      '%iguana_',
      'iguana <-> gate',
      '"gate" iguana',
      'iguana (urgent',
    ]) {
      const response = await searchResponse(q);
      expect(response.statusCode, `${q}: ${response.body}`).toBe(200);
      expect(
        response.json().data.map((hit: Hit) => hit.id),
        q,
      ).toContain(id);
    }
    // These may or may not find it, but are never a syntax error.
    for (const q of [
      '"unbalanced',
      'NEAR(iguana',
      'NEAR(iguana gate, 2)',
      'title:iguana',
      "iguana's",
      'iguana AND gate',
      'iguana NOT zzz',
      'iguana^2',
      'ig-uana',
      '*iguana',
      'x'.repeat(500),
    ]) {
      expect((await searchResponse(q)).statusCode, q).toBe(200);
    }
    for (const q of ['*', ':', '&|!', '"', '(', ')', 'NEAR(', '-', 'OR', '\'"', '😀', '-iguana']) {
      const response = await searchResponse(q);
      expect([200, 400], `${q}: ${response.body}`).toContain(response.statusCode);
    }
  });
});
