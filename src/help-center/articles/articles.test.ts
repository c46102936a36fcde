import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

interface Article {
  _id: string;
  uid: number;
  title: string;
  slug: string;
  state: string;
  collections: string[];
  helpCenters: string[];
  tags: string[];
  publishedVersion: { title: string; html: string; version: number } | null;
  hasUnpublishedChanges: boolean;
}

describe.each(DIALECTS)('articles on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let editor: Awaited<ReturnType<typeof makeUser>>;
  let helpCenterId: string;
  let collectionId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    editor = await makeUser(harness, acme.organizationId);
    helpCenterId = (await post('/help-centers', { name: 'Help' })).json().data._id;
    collectionId = (await post('/collections', { helpCenterId, name: 'General' })).json().data._id;
  });
  afterAll(() => harness.close());

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const patch = (url: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url, headers, payload });
  const get = (url: string, headers = acme.headers) => harness.app.inject({ url, headers });
  const remove = (url: string, headers = acme.headers) => harness.app.inject({ method: 'DELETE', url, headers });

  const article = async (payload: object = {}, headers = acme.headers) => {
    const response = await post('/articles', { title: 'Untitled', collectionId, ...payload }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Article;
  };
  const ids = async (query: string) => ((await get(`/articles${query}`)).json().data as Article[]).map((a) => a._id);
  const allArticles = async () => (await get('/articles')).json().data as Article[];

  it('creates a draft article: 201, uid slug, sanitised HTML with derived markdown', async () => {
    const response = await post('/articles', {
      title: 'How to reset your password?',
      collectionId,
      description: 'Steps to regain access',
      contentHtml: '<h2>Steps</h2><p onclick="x()">Open <a href="javascript:alert(1)">settings</a>.</p><script>alert(1)</script>',
      meta: { title: 'Reset password' },
    });
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(response.json().message).toBe('Article created');
    expect(created).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      orgId: acme.organizationId,
      uid: expect.any(Number),
      title: 'How to reset your password?',
      description: 'Steps to regain access',
      slug: `${created.uid}-how-to-reset-your-password`,
      state: 'draft',
      contentHtml: '<h2>Steps</h2><p>Open <a rel="noopener noreferrer nofollow">settings</a>.</p>',
      contentMarkdown: '## Steps\n\nOpen settings.',
      tags: [],
      collections: [collectionId],
      helpCenters: [helpCenterId],
      meta: { title: 'Reset password', description: null, image: null },
      publishedVersion: null,
      hasUnpublishedChanges: false,
      helpfulCount: 0,
      notHelpfulCount: 0,
      isDeleted: false,
      deletedAt: null,
      createdBy: acme.userId,
      lastEditedBy: acme.userId,
      lastEditedAt: TEST_NOW,
      revision: 1,
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    expect((await get(`/articles/${created._id}`)).json()).toEqual({ data: created, message: 'Article retrieved' });
    expect((await get(`/collections/${collectionId}`)).json().data.articles).toContain(created._id);
  });

  it('takes the body as markdown too, rendered and sanitised', async () => {
    const created = await article({ title: 'Markdown', contentMarkdown: '# Title\n\n**Bold** and <img src=x onerror=alert(1)>' });
    expect(created).toMatchObject({
      // An image not uploaded to the organization is dropped with its handler (only uploads are kept).
      contentHtml: '<h1>Title</h1>\n<p><strong>Bold</strong> and </p>\n',
      contentMarkdown: '# Title\n\n**Bold** and <img src=x onerror=alert(1)>',
    });
    const next = await article({ title: 'Second' });
    expect(next.uid).toBe(created.uid + 1);
    expect(next).toMatchObject({ contentHtml: '', contentMarkdown: '' });
  });

  it.each([
    [{ collectionId: undefined }, 400, 'collectionId is required'],
    [{ title: undefined }, 400, 'title is required'],
    [{ title: '' }, 400, 'title must be at least 1 characters long'],
    [{ title: '   ' }, 400, 'title must not be blank'],
    [{ description: '' }, 400, 'description must be at least 1 characters long'],
    [{ contentHtml: '<p>a</p>', contentMarkdown: 'a' }, 400, 'Give the body as contentHtml or contentMarkdown, not both'],
    [{ collectionId: 'xyz' }, 400, 'collectionId has an invalid format'],
    [{ tags: ['nope'] }, 400, 'tags.0 has an invalid format'],
    [{ state: 'published' }, 400, 'state is not an accepted field'],
    [{ collectionId: '507f1f77bcf86cd799439011' }, 404, 'Collection not found'],
    [{ tags: ['507f1f77bcf86cd799439011'] }, 404, 'Tag not found'],
  ])('create rejects %j, writing nothing', async (payload, statusCode, message) => {
    const before = await allArticles();
    const response = await post('/articles', { title: 'Bad', collectionId, ...payload });
    expect(response.json()).toEqual({ statusCode, message });
    expect(await allArticles()).toEqual(before);
  });

  it('lists with filters by collection, help center, state and tag', async () => {
    const otherHelpCenter = (await post('/help-centers', { name: 'Other' })).json().data._id;
    const otherCollection = (await post('/collections', { helpCenterId: otherHelpCenter, name: 'Other' })).json().data._id;
    const tag = (await post('/tags', { name: 'Filters' })).json().data._id;
    const a = await article({ title: 'In general', tags: [tag] });
    const b = await article({ title: 'In other', collectionId: otherCollection });
    await post(`/articles/${b._id}/publish`);

    expect(await ids(`?collectionId=${otherCollection}`)).toEqual([b._id]);
    expect(await ids(`?helpCenterId=${otherHelpCenter}`)).toEqual([b._id]);
    expect(await ids(`?tag=${tag}`)).toEqual([a._id]);
    expect(await ids(`?helpCenterId=${otherHelpCenter}&state=published`)).toEqual([b._id]);
    expect(await ids(`?helpCenterId=${otherHelpCenter}&state=draft`)).toEqual([]);
    const all = await ids('');
    expect(all.indexOf(a._id)).toBeLessThan(all.indexOf(b._id));
    expect((await get('/articles?state=archived')).json()).toEqual({
      statusCode: 400,
      message: 'state must be one of: draft, published',
    });
    expect((await get('/articles?tag=507f1f77bcf86cd799439011')).json()).toEqual({ statusCode: 404, message: 'Tag not found' });
    expect((await get('/articles?collectionId=507f1f77bcf86cd799439011')).statusCode).toBe(404);
  });

  it('updates the draft: title (and slug), tags, collections, meta; stays in at least one collection', async () => {
    const second = (await post('/collections', { helpCenterId, name: 'Second' })).json().data._id;
    const [t1, t2] = [
      (await post('/tags', { name: 'One' })).json().data._id,
      (await post('/tags', { name: 'Two' })).json().data._id,
    ];
    const created = await article({ title: 'Draft', tags: [t1] });
    harness.clock.advance(5000);
    const response = await patch(
      `/articles/${created._id}`,
      { title: 'Final Title', tags: [t2], addToCollections: [second], meta: { description: 'SEO' } },
      editor.headers,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Article updated');
    const updated = response.json().data;
    expect(updated).toMatchObject({
      title: 'Final Title',
      slug: `${created.uid}-final-title`,
      tags: [t2],
      collections: [collectionId, second],
      lastEditedBy: editor.userId,
      lastEditedAt: '2026-01-15T09:00:05.000Z',
      createdBy: acme.userId,
      meta: { title: null, description: 'SEO', image: null },
    });
    expect((await get(`/collections/${second}`)).json().data.articles).toEqual([created._id]);

    const moved = (await patch(`/articles/${created._id}`, { removeFromCollections: [collectionId] })).json().data;
    expect(moved.collections).toEqual([second]);
    const cases = [
      [{ removeFromCollections: [second] }, 400, 'An article must stay in at least one collection'],
      [
        { addToCollections: [collectionId], removeFromCollections: [collectionId] },
        400,
        'A collection cannot be both added and removed',
      ],
      [{ addToCollections: ['507f1f77bcf86cd799439011'] }, 404, 'Collection not found'],
      [{ tags: ['507f1f77bcf86cd799439011'] }, 404, 'Tag not found'],
      [{ tags: [t1, t1] }, 400, 'tags must not contain duplicates'],
      [{ title: '' }, 400, 'title must be at least 1 characters long'],
      [{ slug: 'mine' }, 400, 'slug is not an accepted field'],
    ] as const;
    for (const [payload, statusCode, message] of cases) {
      expect((await patch(`/articles/${created._id}`, payload)).json(), JSON.stringify(payload)).toEqual({ statusCode, message });
    }
    expect((await get(`/articles/${created._id}`)).json().data).toEqual(moved);
  });

  it('publishing keeps the published version apart from later draft edits', async () => {
    const created = await article({ title: 'Shipping', contentHtml: '<p>Ships in two days.</p>' });
    harness.clock.advance(1000);
    const published = await post(`/articles/${created._id}/publish`, undefined, editor.headers);
    expect(published.statusCode).toBe(200);
    expect(published.json().message).toBe('Article published');
    const first = published.json().data;
    expect(first).toMatchObject({
      state: 'published',
      hasUnpublishedChanges: false,
      publishedVersion: {
        title: 'Shipping',
        description: null,
        html: '<p>Ships in two days.</p>',
        version: 1,
        publishedBy: editor.userId,
        publishedAt: harness.clock.now().toISOString(),
      },
    });

    const edited = (
      await patch(`/articles/${created._id}`, { title: 'Shipping times', contentHtml: '<p>Ships in one day.</p>' })
    ).json().data;
    expect(edited).toMatchObject({
      state: 'published',
      title: 'Shipping times',
      contentHtml: '<p>Ships in one day.</p>',
      hasUnpublishedChanges: true,
      publishedVersion: { title: 'Shipping', html: '<p>Ships in two days.</p>', version: 1 },
    });
    const again = (await post(`/articles/${created._id}/publish`)).json().data;
    expect(again.publishedVersion).toMatchObject({ title: 'Shipping times', html: '<p>Ships in one day.</p>', version: 2 });
    expect(again.hasUnpublishedChanges).toBe(false);
    expect((await post(`/articles/${created._id}/publish`)).json().data.publishedVersion.version).toBe(2);

    const unpublished = (await post(`/articles/${created._id}/unpublish`)).json();
    expect(unpublished.message).toBe('Article unpublished');
    expect(unpublished.data).toMatchObject({ state: 'draft', publishedVersion: null, title: 'Shipping times' });
    expect((await post(`/articles/${created._id}/publish`)).json().data.publishedVersion.version).toBe(3);
  });

  it('deleting is soft: the article leaves reads, lists and its collections', async () => {
    const created = await article({ title: 'Obsolete' });
    harness.clock.advance(1000);
    const deleted = await remove(`/articles/${created._id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({
      data: { _id: created._id, isDeleted: true, deletedAt: harness.clock.now().toISOString() },
      message: 'Article deleted',
    });
    expect((await get(`/articles/${created._id}`)).json()).toEqual({ statusCode: 404, message: 'Article not found' });
    expect((await remove(`/articles/${created._id}`)).statusCode).toBe(404);
    expect(await ids('')).not.toContain(created._id);
    expect((await get(`/collections/${collectionId}`)).json().data.articles).not.toContain(created._id);
  });

  it("another organization's article answers 404 on every route; its collection cannot be used", async () => {
    const theirHelpCenter = (await post('/help-centers', { name: 'Theirs' }, globex.headers)).json().data._id;
    const theirCollection = (await post('/collections', { helpCenterId: theirHelpCenter, name: 'C' }, globex.headers)).json().data
      ._id;
    const foreign = await article({ collectionId: theirCollection }, globex.headers);
    for (const [method, url, payload] of [
      ['GET', `/articles/${foreign._id}`, undefined],
      ['PATCH', `/articles/${foreign._id}`, { title: 'Mine' }],
      ['POST', `/articles/${foreign._id}/publish`, undefined],
      ['POST', `/articles/${foreign._id}/unpublish`, undefined],
      ['DELETE', `/articles/${foreign._id}`, undefined],
    ] as const) {
      const response = await harness.app.inject({ method, url, payload, headers: acme.headers });
      expect(response.json(), `${method} ${url}`).toEqual({ statusCode: 404, message: 'Article not found' });
    }
    expect(await ids('')).not.toContain(foreign._id);
    expect((await post('/articles', { title: 'X', collectionId: theirCollection })).json()).toEqual({
      statusCode: 404,
      message: 'Collection not found',
    });
    const mine = await article();
    expect((await patch(`/articles/${mine._id}`, { addToCollections: [theirCollection] })).statusCode).toBe(404);
    expect((await get(`/articles/${foreign._id}`, globex.headers)).json().data.state).toBe('draft');
    expect((await get('/articles/zzz')).json()).toEqual({ statusCode: 400, message: 'id has an invalid format' });
  });

  it('pages by cursor, lowest uid first, with filters combined; each live article once', async () => {
    const owner = await makeOrganization(harness);
    const create = async (url: string, payload: object) => {
      const response = await post(url, payload, owner.headers);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data._id as string;
    };
    const ownHelpCenter = await create('/help-centers', { name: 'Paged' });
    const [even, odd] = [
      await create('/collections', { helpCenterId: ownHelpCenter, name: 'Even' }),
      await create('/collections', { helpCenterId: ownHelpCenter, name: 'Odd' }),
    ];
    const tagId = await create('/tags', { name: 'Paged' });
    const made: { id: string; index: number }[] = [];
    for (let index = 0; index < 30; index++) {
      const id = await create('/articles', {
        title: `Article ${index}`,
        collectionId: index % 2 ? odd : even,
        ...(index % 3 === 0 ? { tags: [tagId] } : {}),
      });
      if (index % 4 !== 1) {
        expect((await post(`/articles/${id}/publish`, undefined, owner.headers)).statusCode).toBe(200);
      }
      if (index % 10 === 9) {
        expect((await remove(`/articles/${id}`, owner.headers)).statusCode).toBe(200);
      }
      made.push({ id, index });
    }
    const walk = async (query: string) => {
      const pages: string[][] = [];
      for (let cursor: string | null = ''; cursor !== null && pages.length < 20; ) {
        const response = await get(`/articles?${query}${cursor ? `&cursor=${cursor}` : ''}`, owner.headers);
        expect(response.statusCode, response.body).toBe(200);
        pages.push(response.json().data.map((a: Article) => a._id));
        cursor = response.json().nextCursor;
      }
      return pages;
    };
    const live = made.filter(({ index }) => index % 10 !== 9);
    const all = await walk('limit=10');
    expect(all.map((page) => page.length)).toEqual([10, 10, 7]);
    expect(all.flat()).toEqual(live.map(({ id }) => id));

    const filtered = await walk(`limit=2&state=published&collectionId=${even}&tag=${tagId}&helpCenterId=${ownHelpCenter}`);
    const expected = live.filter(({ index }) => index % 2 === 0 && index % 3 === 0 && index % 4 !== 1).map(({ id }) => id);
    expect(expected.length).toBe(5);
    expect(filtered.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(filtered.flat()).toEqual(expected);

    const first = (await get('/articles?limit=10', owner.headers)).json();
    const foreign = (await get(`/articles?limit=100&cursor=${first.nextCursor}`, globex.headers)).json();
    expect(foreign.data.every((a: { orgId: string }) => a.orgId === globex.organizationId)).toBe(true);
    expect((await get(`/articles?cursor=${Buffer.from('["x", "y"]').toString('base64url')}`)).json()).toEqual({
      statusCode: 400,
      message: 'cursor is not a nextCursor this list returned',
    });
  });
});
