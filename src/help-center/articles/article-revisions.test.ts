import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';

interface Article {
  _id: string;
  title: string;
  contentHtml: string;
  revision: number;
  lastEditedBy: string;
}

describe.each(DIALECTS)('article revisions and the draft text filter on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let editor: Awaited<ReturnType<typeof makeUser>>;
  let collectionId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    editor = await makeUser(harness, acme.organizationId, { name: 'Dana Editor' });
    const helpCenterId = (await post('/help-centers', { name: 'Help' })).json().data._id;
    collectionId = (await post('/collections', { helpCenterId, name: 'General' })).json().data._id;
  });
  afterAll(() => harness.close());

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const patch = (url: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url, headers, payload });
  const get = (url: string, headers = acme.headers) => harness.app.inject({ url, headers });
  const article = async (payload: object = {}) => {
    const response = await post('/articles', { title: 'Untitled', collectionId, ...payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Article;
  };
  const read = async (id: string) => (await get(`/articles/${id}`)).json().data as Article;

  it('starts at revision 1 and counts one more on every draft save', async () => {
    const created = await article();
    expect(created.revision).toBe(1);
    const saved = await patch(`/articles/${created._id}`, { title: 'Second', ifRevision: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.revision).toBe(2);
    expect((await patch(`/articles/${created._id}`, { title: 'Third' })).json().data.revision).toBe(3);
  });

  it('a save on a replaced revision is a 409 naming who changed it and when; nothing is written', async () => {
    const created = await article({ contentHtml: '<p>Original</p>' });
    harness.clock.advance(5000);
    const theirs = await patch(`/articles/${created._id}`, { contentHtml: '<p>Theirs</p>', ifRevision: 1 }, editor.headers);
    expect(theirs.statusCode, theirs.body).toBe(200);
    const stale = await patch(`/articles/${created._id}`, { title: 'Mine', contentHtml: '<p>Mine</p>', ifRevision: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      statusCode: 409,
      message: `Dana Editor changed this article at ${harness.clock.now().toISOString()} (revision 2); compare their version with yours before saving again`,
    });
    const after = await read(created._id);
    expect(after).toMatchObject({ title: 'Untitled', contentHtml: '<p>Theirs</p>', revision: 2, lastEditedBy: editor.userId });
    const overwritten = await patch(`/articles/${created._id}`, { contentHtml: '<p>Mine</p>', ifRevision: 2 });
    expect(overwritten.json().data).toMatchObject({ contentHtml: '<p>Mine</p>', revision: 3, lastEditedBy: acme.userId });
  });

  it('validation and 404 come before the revision check; another organization’s article is a 404', async () => {
    const created = await article();
    expect((await patch(`/articles/${created._id}`, { ifRevision: 0 })).statusCode).toBe(400);
    expect((await patch(`/articles/${created._id}`, { ifRevision: 'one' })).statusCode).toBe(400);
    const foreign = await patch(`/articles/${created._id}`, { title: 'x', ifRevision: 1 }, globex.headers);
    expect(foreign.statusCode).toBe(404);
    expect(await read(created._id)).toMatchObject({ title: 'Untitled', revision: 1 });
  });

  it('two concurrent saves on one revision: exactly one wins, the other is a 409', async () => {
    const processes = await serverProcesses(harness);
    try {
      for (let round = 0; round < 5; round++) {
        const created = await article();
        const saves = await Promise.all(
          ['A', 'B', 'C', 'D'].map((name, index) =>
            processes.apps[index % processes.apps.length]?.inject({
              method: 'PATCH',
              url: `/articles/${created._id}`,
              headers: acme.headers,
              payload: { contentHtml: `<p>${name}</p>`, ifRevision: 1 },
            }),
          ),
        );
        const codes = saves.map((response) => response?.statusCode).sort();
        expect(codes).toEqual([200, 409, 409, 409]);
        const winner = saves.find((response) => response?.statusCode === 200)?.json().data as Article;
        expect(await read(created._id)).toMatchObject({ contentHtml: winner.contentHtml, revision: 2 });
      }
    } finally {
      await processes.close();
    }
  });

  it('q finds drafts by title or body text, case-insensitively, with LIKE wildcards taken literally', async () => {
    const refund = await article({ title: 'Refund Policy', contentHtml: '<p>Money back in 30 days</p>' });
    const shipping = await article({ title: 'Shipping', contentHtml: '<p>We ship 100% of REFUND orders</p>' });
    await article({ title: 'Other', contentHtml: '<p>Nothing here</p>' });
    const ids = async (query: string) => ((await get(`/articles?${query}`)).json().data as Article[]).map((a) => a._id);
    expect(await ids('q=refund')).toEqual([refund._id, shipping._id]);
    expect(await ids('q=money%20BACK')).toEqual([refund._id]);
    expect(await ids('q=100%25')).toEqual([shipping._id]);
    expect(await ids('q=%25')).toEqual([shipping._id]);
    expect(await ids('q=refund&state=published')).toEqual([]);
    expect((await get('/articles?q=refund', globex.headers)).json().data).toEqual([]);
    expect((await get('/articles?q=')).statusCode).toBe(400);
  });
});
