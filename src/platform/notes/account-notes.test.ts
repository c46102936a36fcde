import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { bareArrayPage, expectCursorPagedList, idsInOrder, walkPages } from '../../../test/platform-list-pages.js';

type Headers = Record<string, string>;
type User = Awaited<ReturnType<typeof makeUser>>;

const BOUNDARY = '----switchboard-note-boundary';

/** A multipart body with one part named `name`. */
function multipart(name: string, fileName: string, content: string) {
  return {
    payload: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`,
    ),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

describe.each(DIALECTS)('account notes on %s', (dialect) => {
  let harness: TestApp;
  let dataDir: string;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let mia: User;
  let max: User;
  let account: { id: string; name: string };
  let meetingId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-notes-'));
    harness = await buildTestApp(dialect, { env: { DATA_DIR: dataDir, ATTACHMENT_MAX_BYTES: '1000' } });
    acme = await makeOrganization(harness, { adminEmail: 'boss@acme.test' });
    globex = await makeOrganization(harness);
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia Member', email: 'mia@acme.test' });
    max = await makeUser(harness, acme.organizationId, { name: 'Max Member', email: 'max@acme.test' });
    account = (await request('POST', '/v1/accounts', { name: 'Initech', primaryDomain: 'initech.example' })).json();
    const noteTypes = (await request('GET', '/v1/accounts/attributes?attribute=note_type')).json();
    meetingId = noteTypes.find((type: { value: string }) => type.value === 'Meeting').id;
  });
  afterAll(async () => {
    await harness.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function request(method: string, url: string, payload?: object, headers: Headers = mia.headers) {
    return harness.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  }
  const create = async (payload: object, headers: Headers = mia.headers) => {
    const response = await request('POST', '/v1/accounts/notes', { accountId: account.id, ...payload }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const noteRows = () => harness.db.selectFrom('account_notes').selectAll().orderBy('id').execute();
  const attachmentRows = () => harness.db.selectFrom('attachments').select(['id', 'external_url']).orderBy('id').execute();
  const linkRows = () => harness.db.selectFrom('account_note_attachments').selectAll().orderBy('attachment_id').execute();
  const snapshot = async () => ({ notes: await noteRows(), attachments: await attachmentRows(), links: await linkRows() });
  /** Where each of the note's attachments downloads from: a link's URL, or `file` for an upload. */
  const targets = async (note: { attachments: string[] }) =>
    Promise.all(
      note.attachments.map(async (id) => {
        const download = await request('GET', `/v1/attachments/${id}`);
        return download.statusCode === 302 ? download.headers.location : 'file';
      }),
    );
  const notFound = { statusCode: 404, message: 'Account note not found', error: 'Not Found' };
  const noteIdRequired = { statusCode: 400, message: 'Note ID is required!', error: 'Bad Request' };

  it('creates a note: 201, the bare note object, author from the key, default type General', async () => {
    const response = await request('POST', '/v1/accounts/notes', { accountId: account.id, content: 'Kick-off went well' });
    expect(response.statusCode).toBe(201);
    const note = response.json();
    expect(note).toEqual({
      id: expect.any(String),
      accountId: account.id,
      account: 'Initech',
      content: 'Kick-off went well',
      type: 'General',
      typeId: expect.any(String),
      typeConfiguration: { id: note.typeId, name: 'General', icon: 'document-text', color: '#6B7280' },
      visibility: 'public',
      attachments: [],
      author: 'Mia Member',
      authorId: mia.userId,
      authorEmail: 'mia@acme.test',
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
      metadata: null,
    });
    expect((await request('GET', `/v1/accounts/notes/${note.id}`, undefined, max.headers)).json()).toEqual(note);
  });

  it('type takes an id or a value; attachmentUrls become link attachments that are never fetched', async () => {
    const byId = await create({ content: 'x', type: meetingId });
    expect(byId).toMatchObject({ type: 'Meeting', typeId: meetingId, typeConfiguration: { name: 'Meeting', icon: 'users' } });
    const note = await create({
      content: 'Contract draft',
      type: 'call',
      visibility: 'public',
      metadata: { mentions: [] },
      attachmentUrls: ['https://files.example/contracts/Draft%20v2.pdf', 'http://unreachable.invalid/'],
    });
    expect(note).toMatchObject({ type: 'Call', metadata: { mentions: [] } });
    expect(note.attachments).toHaveLength(2);
    const [draft, host] = note.attachments as string[];
    const metadata = (await request('GET', `/v1/attachments/${draft}/metadata`)).json().data;
    expect(metadata).toMatchObject({ id: draft, fileName: 'Draft v2.pdf', size: 0, uploadedById: mia.userId });
    expect((await request('GET', `/v1/attachments/${host}/metadata`)).json().data.fileName).toBe('unreachable.invalid');
    const download = await request('GET', `/v1/attachments/${draft}`, undefined, max.headers);
    expect(download.statusCode).toBe(302);
    expect(download.headers.location).toBe('https://files.example/contracts/Draft%20v2.pdf');
    expect((await request('GET', `/v1/attachments/${draft}`, undefined, globex.headers)).statusCode).toBe(404);
  });

  it.each([
    [{ content: 'x' }, 400, 'accountId is required'],
    [{ accountId: 'A' }, 400, 'content is required'],
    [{ accountId: 'A', content: '  ' }, 400, 'content must not be blank'],
    [{ accountId: 'A', content: 'x', visibility: 'team' }, 400, 'visibility must be one of: public, private'],
    [
      { accountId: 'A', content: 'x', type: 'Lunch' },
      400,
      'type must name one of the note_type values (by id or value): General, Meeting, Call, Email',
    ],
    [
      { accountId: 'A', content: 'x', attachmentUrls: ['https://ok.example/a', 'ftp://files.example/b'] },
      400,
      'attachmentUrls.1 must be a valid http-url',
    ],
    [{ accountId: 'A', content: 'x', attachmentUrls: ['not a url'] }, 400, 'attachmentUrls.0 must be a valid http-url'],
    [{ accountId: 'A', content: 'x', attachmentIds: [] }, 400, 'attachmentIds is not an accepted field'],
    [{ accountId: '01KAAAAAAAAAAAAAAAAAAAAAAA', content: 'x' }, 404, 'Account not found!'],
  ])('rejects %j, writing nothing', async (payload, status, message) => {
    const before = await snapshot();
    const body = { ...payload, ...('accountId' in payload && payload.accountId === 'A' ? { accountId: account.id } : {}) };
    const response = await request('POST', '/v1/accounts/notes', body);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ statusCode: status, message, error: status === 400 ? 'Bad Request' : 'Not Found' });
    expect(await snapshot()).toEqual(before);
  });

  it("a note on another organization's account is refused (404)", async () => {
    const foreign = (await request('POST', '/v1/accounts', { name: 'F', primaryDomain: 'f.example' }, globex.headers)).json();
    const response = await request('POST', '/v1/accounts/notes', { accountId: foreign.id, content: 'x' });
    expect(response.json()).toEqual({ statusCode: 404, message: 'Account not found!', error: 'Not Found' });
  });

  it('private notes are seen by their author and admins only', async () => {
    const secret = await create({ content: 'Between us', visibility: 'private' });
    expect((await request('GET', `/v1/accounts/notes/${secret.id}`)).json().visibility).toBe('private');
    expect((await request('GET', `/v1/accounts/notes/${secret.id}`, undefined, acme.headers)).statusCode).toBe(200);
    const hidden = await request('GET', `/v1/accounts/notes/${secret.id}`, undefined, max.headers);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual(notFound);
    const ids = async (headers: Headers) =>
      (await request('GET', `/v1/accounts/notes?accountId=${account.id}&limit=100`, undefined, headers))
        .json()
        .map((note: { id: string }) => note.id);
    expect(await ids(mia.headers)).toContain(secret.id);
    expect(await ids(acme.headers)).toContain(secret.id);
    expect(await ids(max.headers)).not.toContain(secret.id);
    // Nobody else can change or remove it either: it does not exist for them.
    const before = await snapshot();
    expect((await request('PUT', `/v1/accounts/notes/${secret.id}`, { content: 'Leaked' }, max.headers)).json()).toEqual(
      notFound,
    );
    expect((await request('DELETE', `/v1/accounts/notes/${secret.id}`, undefined, max.headers)).json()).toEqual(notFound);
    expect(await snapshot()).toEqual(before);
  });

  it("lists an account's notes newest first, in 0-based pages", async () => {
    const other = (await request('POST', '/v1/accounts', { name: 'Listed', primaryDomain: 'listed.example' })).json();
    const made: string[] = [];
    for (const content of ['first', 'second', 'third']) {
      made.push((await create({ accountId: other.id, content })).id);
    }
    const contents = async (query: string) =>
      (await request('GET', `/v1/accounts/notes?accountId=${other.id}${query}`))
        .json()
        .map((note: { content: string }) => note.content);
    expect(await contents('')).toEqual(['third', 'second', 'first']);
    expect(await contents('&limit=2&page=1')).toEqual(['first']);
    const missing = await request('GET', '/v1/accounts/notes');
    expect(missing.json()).toEqual({ statusCode: 400, message: 'accountId is required', error: 'Bad Request' });
    await request('DELETE', `/v1/accounts/${other.id}`);
    expect((await request('GET', `/v1/accounts/notes?accountId=${other.id}`)).json()).toEqual({
      statusCode: 404,
      message: 'Account not found!',
      error: 'Not Found',
    });
    // The notes of a deleted account are gone with it.
    expect((await request('GET', `/v1/accounts/notes/${made[0]}`)).json()).toEqual(notFound);
  });

  describe('update (endpoint 9)', () => {
    it('changes the fields sent and answers exactly the note object, without an envelope', async () => {
      const note = await create({ content: 'Draft', attachmentUrls: ['https://files.example/one.txt'] });
      harness.clock.advance(60_000);
      const response = await request('PUT', `/v1/accounts/notes/${note.id}`, {
        content: 'Final',
        type: 'Meeting',
        visibility: 'private',
        attachmentUrls: ['https://files.example/one.txt', 'https://files.example/two.txt'],
        metadata: { reviewed: true },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.attachments).toHaveLength(2);
      expect(body.attachments[0]).toBe(note.attachments[0]);
      expect(body).toEqual({
        id: note.id,
        accountId: account.id,
        account: 'Initech',
        content: 'Final',
        type: 'Meeting',
        typeId: meetingId,
        typeConfiguration: { id: meetingId, name: 'Meeting', icon: 'users', color: '#3B82F6' },
        visibility: 'private',
        attachments: [note.attachments[0], expect.any(String)],
        author: 'Mia Member',
        authorId: mia.userId,
        authorEmail: 'mia@acme.test',
        createdAt: TEST_NOW,
        updatedAt: harness.clock.now().toISOString(),
        metadata: { reviewed: true },
      });
      expect(Object.keys(body)).not.toContain('data');
      expect((await request('GET', `/v1/accounts/notes/${note.id}`)).json()).toEqual(body);

      const contentOnly = await request('PUT', `/v1/accounts/notes/${note.id}`, { content: 'Final, really' });
      expect(contentOnly.json()).toEqual({ ...body, content: 'Final, really' });
      const cleared = await request('PUT', `/v1/accounts/notes/${note.id}`, { metadata: null });
      expect(cleared.json().metadata).toBeNull();
    });

    it('a missing or blank note id is the 400 "Note ID is required!"', async () => {
      for (const url of ['/v1/accounts/notes/', '/v1/accounts/notes/%20', '/v1/accounts/notes']) {
        const response = await request('PUT', url, { content: 'x' });
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toEqual(noteIdRequired);
      }
    });

    it('an unknown note, another organization\'s, and a deleted one are the 404 "Account note not found"', async () => {
      const foreignAccount = (
        await request('POST', '/v1/accounts', { name: 'G', primaryDomain: 'g.example' }, globex.headers)
      ).json();
      const foreign = await create({ accountId: foreignAccount.id, content: 'theirs' }, globex.headers);
      const deleted = await create({ content: 'bye' });
      const removal = await request('DELETE', `/v1/accounts/notes/${deleted.id}`);
      expect(removal.json()).toEqual({ statusCode: 200, message: 'Account note deleted successfully', data: null });
      for (const id of [foreign.id, deleted.id, '01KAAAAAAAAAAAAAAAAAAAAAAA', 'nope']) {
        const response = await request('PUT', `/v1/accounts/notes/${id}`, { content: 'mine' });
        expect(response.statusCode, id).toBe(404);
        expect(response.json()).toEqual(notFound);
        expect((await request('GET', `/v1/accounts/notes/${id}`)).json()).toEqual(notFound);
      }
      expect((await request('GET', `/v1/accounts/notes/${foreign.id}`, undefined, globex.headers)).json().content).toBe('theirs');
    });

    it('only the author or an admin changes a note; a bad field changes nothing', async () => {
      const note = await create({ content: 'Mine' });
      const denied = await request('PUT', `/v1/accounts/notes/${note.id}`, { content: 'Yours' }, max.headers);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({
        statusCode: 403,
        message: 'User does not have access to this resource!',
        error: 'Forbidden',
      });
      expect((await request('PUT', `/v1/accounts/notes/${note.id}`, { content: 'Moderated' }, acme.headers)).json().content).toBe(
        'Moderated',
      );
      const before = await snapshot();
      for (const [payload, message] of [
        [
          { content: 'x', attachmentUrls: ['https://fine.example/a', 'mailto:x@y.example'] },
          'attachmentUrls.1 must be a valid http-url',
        ],
        [
          { content: 'x', type: 'Nope' },
          'type must name one of the note_type values (by id or value): General, Meeting, Call, Email',
        ],
        [{ content: '' }, 'content must be at least 1 characters long'],
        [{ accountId: account.id }, 'accountId is not an accepted field'],
      ] as const) {
        const response = await request('PUT', `/v1/accounts/notes/${note.id}`, payload);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
      }
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('PUT replaces, so the same request twice leaves the same state', () => {
    const put = async (id: string, payload: object) => {
      const response = await request('PUT', `/v1/accounts/notes/${id}`, payload);
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const urls = ['https://files.example/a.pdf', 'https://files.example/b.pdf'];

    it('the same PUT twice: the same note, the same attachment ids, no attachment recorded twice', async () => {
      const note = await create({ content: 'Draft' });
      const body = { content: 'Final', type: 'Meeting', visibility: 'public', attachmentUrls: urls, metadata: { n: 1 } };
      const first = await put(note.id, body);
      const recorded = await snapshot();
      harness.clock.advance(60_000);
      const second = await put(note.id, body);
      expect({ ...second, updatedAt: null }).toEqual({ ...first, updatedAt: null });
      expect(second.attachments).toHaveLength(2);
      expect(await targets(second)).toEqual(urls);
      const after = await snapshot();
      expect(after.attachments).toEqual(recorded.attachments);
      expect(after.links).toEqual(recorded.links);
    });

    it('the note links exactly the URLs sent, in their order: fewer removes, a new order reorders, [] clears', async () => {
      const note = await create({ content: 'Links', attachmentUrls: urls });
      const fewer = await put(note.id, { attachmentUrls: ['https://files.example/a.pdf'] });
      expect(fewer.attachments).toEqual([note.attachments[0]]);
      const more = await put(note.id, { attachmentUrls: ['https://files.example/a.pdf', 'https://files.example/c.pdf'] });
      expect(more.attachments[0]).toBe(note.attachments[0]);
      expect(await targets(more)).toEqual(['https://files.example/a.pdf', 'https://files.example/c.pdf']);
      const reordered = await put(note.id, { attachmentUrls: ['https://files.example/c.pdf', 'https://files.example/a.pdf'] });
      expect(await targets(reordered)).toEqual(['https://files.example/c.pdf', 'https://files.example/a.pdf']);
      const untouched = await put(note.id, { content: 'Links, renamed' });
      expect(untouched.attachments).toEqual(reordered.attachments);
      expect((await put(note.id, { attachmentUrls: [] })).attachments).toEqual([]);
    });

    it('a URL sent twice is recorded once, on create and on update', async () => {
      const twice = ['https://files.example/a.pdf', 'https://files.example/b.pdf', 'https://files.example/a.pdf'];
      const note = await create({ content: 'Twice', attachmentUrls: twice });
      expect(await targets(note)).toEqual(urls);
      const updated = await put(note.id, { attachmentUrls: [...twice, 'https://files.example/b.pdf'] });
      expect(updated.attachments).toEqual(note.attachments);
    });

    it("another organization's note is a 404 and keeps its links", async () => {
      const foreign = (await request('POST', '/v1/accounts', { name: 'G2', primaryDomain: 'g2.example' }, globex.headers)).json();
      const note = (
        await request(
          'POST',
          '/v1/accounts/notes',
          { accountId: foreign.id, content: 'Theirs', attachmentUrls: urls },
          globex.headers,
        )
      ).json();
      const response = await request('PUT', `/v1/accounts/notes/${note.id}`, { attachmentUrls: [] });
      expect(response.json()).toEqual(notFound);
      const theirs = await request('GET', `/v1/accounts/notes/${note.id}`, undefined, globex.headers);
      expect(theirs.json().attachments).toEqual(note.attachments);
    });
  });

  describe('remove an attachment (endpoint 10)', () => {
    it('answers exactly the updated note object; the attachment itself stays stored', async () => {
      const note = await create({ content: 'Two files', attachmentUrls: ['https://f.example/a.txt', 'https://f.example/b.txt'] });
      const [first, second] = note.attachments as string[];
      harness.clock.advance(60_000);
      const response = await request('DELETE', `/v1/accounts/notes/${note.id}/attachments/${first}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...note, attachments: [second], updatedAt: harness.clock.now().toISOString() });
      expect((await request('GET', `/v1/accounts/notes/${note.id}`)).json().attachments).toEqual([second]);
      expect((await request('GET', `/v1/attachments/${first}`)).statusCode).toBe(302);

      const again = await request('DELETE', `/v1/accounts/notes/${note.id}/attachments/${first}`);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ statusCode: 404, message: 'Attachment not found', error: 'Not Found' });
    });

    it('an attachment that is not on the note is 404 "Attachment not found"; a note id missing is 400', async () => {
      const note = await create({ content: 'One file', attachmentUrls: ['https://f.example/c.txt'] });
      const other = await create({ content: 'Other', attachmentUrls: ['https://f.example/d.txt'] });
      const before = await snapshot();
      for (const attachmentId of [other.attachments[0], '01KAAAAAAAAAAAAAAAAAAAAAAA']) {
        const response = await request('DELETE', `/v1/accounts/notes/${note.id}/attachments/${attachmentId}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ statusCode: 404, message: 'Attachment not found', error: 'Not Found' });
      }
      for (const url of [
        `/v1/accounts/notes//attachments/${note.attachments[0]}`,
        `/v1/accounts/notes/%20/attachments/${note.attachments[0]}`,
      ]) {
        const response = await request('DELETE', url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toEqual(noteIdRequired);
      }
      for (const noteId of ['01KAAAAAAAAAAAAAAAAAAAAAAA', 'nope']) {
        const response = await request('DELETE', `/v1/accounts/notes/${noteId}/attachments/${note.attachments[0]}`);
        expect(response.json()).toEqual(notFound);
      }
      const blank = await request('DELETE', `/v1/accounts/notes/${note.id}/attachments/%20`);
      expect(blank.json()).toEqual({ statusCode: 400, message: 'Attachment ID is required!', error: 'Bad Request' });
      const denied = await request(
        'DELETE',
        `/v1/accounts/notes/${note.id}/attachments/${note.attachments[0]}`,
        undefined,
        max.headers,
      );
      expect(denied.statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('upload a file to a note', () => {
    const upload = (noteId: string, name = 'file', headers: Headers = mia.headers) => {
      const body = multipart(name, 'minutes.txt', 'We agreed.');
      return harness.app.inject({
        method: 'POST',
        url: `/v1/accounts/notes/${noteId}/attachments`,
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
    };
    const storedFiles = () => {
      const dir = join(dataDir, 'attachments', acme.organizationId);
      return existsSync(dir) ? readdirSync(dir) : [];
    };

    it('adds the uploaded file (201) and answers the note; the file downloads', async () => {
      const note = await create({ content: 'Minutes' });
      const response = await upload(note.id);
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(body).toEqual({ ...note, attachments: [expect.any(String)] });
      const download = await request('GET', `/v1/attachments/${body.attachments[0]}`, undefined, max.headers);
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('We agreed.');
    });

    it('a PUT with attachmentUrls replaces the links only: uploaded files stay', async () => {
      const note = await create({ content: 'Mixed', attachmentUrls: ['https://files.example/a.pdf'] });
      const uploaded = (await upload(note.id)).json();
      expect(await targets(uploaded)).toEqual(['https://files.example/a.pdf', 'file']);
      const replaced = await request('PUT', `/v1/accounts/notes/${note.id}`, { attachmentUrls: ['https://files.example/b.pdf'] });
      expect(await targets(replaced.json())).toEqual(['file', 'https://files.example/b.pdf']);
      const cleared = await request('PUT', `/v1/accounts/notes/${note.id}`, { attachmentUrls: [] });
      expect(cleared.json().attachments).toEqual([uploaded.attachments[1]]);
    });

    it('stores nothing for a note that cannot be changed or for a bad body', async () => {
      const note = await create({ content: 'Guarded' });
      const files = storedFiles();
      const before = await snapshot();
      expect((await upload('01KAAAAAAAAAAAAAAAAAAAAAAA')).json()).toEqual(notFound);
      expect((await upload('%20')).json()).toEqual(noteIdRequired);
      expect((await upload(note.id, 'file', max.headers)).statusCode).toBe(403);
      const wrongPart = await upload(note.id, 'document');
      expect(wrongPart.statusCode).toBe(400);
      expect(wrongPart.json().message).toBe('file is required: send the file in a multipart part named "file"');
      const json = await request('POST', `/v1/accounts/notes/${note.id}/attachments`, { file: 'x' });
      expect(json.statusCode).toBe(415);
      expect(await snapshot()).toEqual(before);
      expect(storedFiles()).toEqual(files);
    });
  });
});

describe.each(DIALECTS)('account note faults on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;

  beforeAll(async () => {
    // Keys are cached, so the requests get past authentication and fail in the routes themselves.
    harness = await buildTestApp(dialect, { env: { API_KEY_CACHE_SECONDS: '300' } });
    acme = await makeOrganization(harness);
    expect((await harness.app.inject({ url: '/v1/users/me', headers: acme.headers })).statusCode).toBe(200);
    await harness.db.destroy();
  });
  afterAll(() => harness.close().catch(() => undefined));

  it.each([
    ['PUT', '/v1/accounts/notes/01KAAAAAAAAAAAAAAAAAAAAAAA', { content: 'x' }],
    ['DELETE', '/v1/accounts/notes/01KAAAAAAAAAAAAAAAAAAAAAAA/attachments/01KBBBBBBBBBBBBBBBBBBBBBBB', undefined],
  ] as const)('%s %s: a server fault is the 500 "Something went wrong!"', async (method, url, payload) => {
    const response = await harness.app.inject({ method, url, headers: acme.headers, ...(payload ? { payload } : {}) });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ statusCode: 500, message: 'Something went wrong!', error: 'Internal Server Error' });
  });
});

describe.each(DIALECTS)('note list pages on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let mia: User;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    mia = await makeUser(harness, acme.organizationId, { name: 'Mia Member', email: 'mia@acme.test' });
  });
  afterAll(() => harness.close());

  const post = async (url: string, headers: Headers, payload: object) => {
    const response = await harness.app.inject({ method: 'POST', url, headers, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string; createdAt: string };
  };
  const account = (headers: Headers, domain: string) => post('/v1/accounts', headers, { name: domain, primaryDomain: domain });
  const note = (headers: Headers, accountId: string, content: string, visibility: 'public' | 'private') =>
    post('/v1/accounts/notes', headers, { accountId, content, visibility });

  it("pages the notes a member may see newest first, by cursor or by page, never another account's or organization's", async () => {
    const initech = await account(acme.headers, 'initech.test');
    const hooli = await account(acme.headers, 'hooli.test');
    const visible: { id: string; at: string }[] = [];
    for (let n = 0; n < 25; n++) {
      if (n % 3 === 0) {
        harness.clock.advance(1);
      }
      // Public notes by the admin and the member's own private ones; the admin's private ones stay hidden.
      const seen =
        n % 2 === 0
          ? await note(acme.headers, initech.id, `Public ${n}`, 'public')
          : await note(mia.headers, initech.id, `Mine ${n}`, 'private');
      visible.push({ id: seen.id, at: seen.createdAt });
      await note(acme.headers, initech.id, `Admin only ${n}`, 'private');
      await note(acme.headers, hooli.id, `Elsewhere ${n}`, 'public');
    }
    const removed = await note(mia.headers, initech.id, 'Removed', 'public');
    const deleted = await harness.app.inject({ method: 'DELETE', url: `/v1/accounts/notes/${removed.id}`, headers: mia.headers });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const globexAccount = await account(globex.headers, 'globex.test');
    const foreign = [await note(globex.headers, globexAccount.id, 'Theirs', 'public')];

    await expectCursorPagedList({
      app: harness.app,
      url: `/v1/accounts/notes?accountId=${initech.id}&limit=10`,
      headers: mia.headers,
      read: bareArrayPage,
      expected: idsInOrder(visible, 'desc'),
      pageNumbers: true,
      other: {
        url: `/v1/accounts/notes?accountId=${globexAccount.id}&limit=10`,
        headers: globex.headers,
        ids: foreign.map((row) => row.id),
      },
    });
    // The admin sees every note of the account, private ones included.
    const all = (
      await walkPages(harness.app, `/v1/accounts/notes?accountId=${initech.id}&limit=10`, acme.headers, bareArrayPage)
    ).flat();
    expect(all).toHaveLength(50);
  });
});
