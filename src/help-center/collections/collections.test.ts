import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

interface Collection {
  _id: string;
  uid: number;
  name: string;
  slug: string;
  order: number;
  parentId: string | null;
  isProtected: boolean;
  articles: string[];
}

describe.each(DIALECTS)('collections on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
  });
  afterAll(() => harness.close());

  const post = (url: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const patch = (url: string, payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'PATCH', url, headers, payload });
  const remove = (url: string, headers = acme.headers) => harness.app.inject({ method: 'DELETE', url, headers });
  const get = (url: string, headers = acme.headers) => harness.app.inject({ url, headers });

  const helpCenter = async (headers = acme.headers): Promise<string> =>
    (await post('/help-centers', { name: 'Help' }, headers)).json().data._id;
  const collection = async (helpCenterId: string, name: string, extra: object = {}, headers = acme.headers) => {
    const response = await post('/collections', { helpCenterId, name, ...extra }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Collection;
  };
  const list = async (query = '', headers = acme.headers) =>
    (await get(`/collections${query}`, headers)).json().data as Collection[];
  const names = async (query: string) => (await list(query)).map((c) => `${c.name}@${c.order}`);

  it('only admins create, change and delete collections: a member gets 403 and nothing is written', async () => {
    const member = await makeUser(harness, acme.organizationId);
    const helpCenterId = await helpCenter();
    const kept = await collection(helpCenterId, 'Kept', { isProtected: true });
    const before = await list(`?helpCenterId=${helpCenterId}`);
    const refused = [
      await post('/collections', { helpCenterId, name: 'Members’ own' }, member.headers),
      await patch(`/collections/${kept._id}`, { isProtected: false, name: 'Open to all' }, member.headers),
      await remove(`/collections/${kept._id}`, member.headers),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'User does not have access to this resource!', statusCode: 403 });
    }
    expect(await list(`?helpCenterId=${helpCenterId}`)).toEqual(before);
    expect((await get(`/collections/${kept._id}`, member.headers)).statusCode).toBe(200);
  });

  it('creates a collection (endpoint 11): 201 with the whole collection object', async () => {
    const helpCenterId = await helpCenter();
    const response = await post('/collections', { helpCenterId, name: 'Getting Started', description: 'First steps' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      data: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        orgId: acme.organizationId,
        uid: expect.any(Number),
        helpCenterId,
        name: 'Getting Started',
        slug: 'getting-started',
        order: 1,
        createdBy: acme.userId,
        isProtected: false,
        createdAt: TEST_NOW,
        updatedAt: TEST_NOW,
        description: 'First steps',
        parentId: null,
        articles: [],
        icon: 'book',
        meta: { title: null, description: null, image: null },
      },
      message: 'Collection created',
    });
    const created = response.json().data;
    expect((await get(`/collections/${created._id}`)).json()).toEqual({ data: created, message: 'Collection retrieved' });

    const second = await collection(helpCenterId, 'Billing', { icon: 'credit-card', isProtected: true, meta: { title: 'Pay' } });
    expect(second).toMatchObject({ uid: created.uid + 1, order: 2, icon: 'credit-card', isProtected: true, description: null });
    expect(second).toMatchObject({ meta: { title: 'Pay', description: null, image: null } });
  });

  it('uids increase per organization, across help centers, without duplicates under concurrency', async () => {
    const [first, second] = [await helpCenter(), await helpCenter()];
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post('/collections', { helpCenterId: i % 2 ? first : second, name: `C${i}` })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(201));
    const uids = responses.map((response) => response.json().data.uid as number).sort((a, b) => a - b);
    expect(new Set(uids).size).toBe(8);
    expect(Math.max(...uids) - Math.min(...uids)).toBe(7);
    const orders = (helpCenterId: string) =>
      responses
        .map((response) => response.json().data)
        .filter((c) => c.helpCenterId === helpCenterId)
        .map((c) => c.order)
        .sort();
    expect(orders(first)).toEqual([1, 2, 3, 4]);
    expect(orders(second)).toEqual([1, 2, 3, 4]);
    const theirs = await collection(await helpCenter(globex.headers), 'Theirs', {}, globex.headers);
    expect(theirs.uid).toBe(1);
  });

  it('slugs are unique among siblings only', async () => {
    const helpCenterId = await helpCenter();
    const top = await collection(helpCenterId, 'FAQ');
    const topAgain = await collection(helpCenterId, 'faq');
    const child = await collection(helpCenterId, 'FAQ', { parentId: top._id });
    const childAgain = await collection(helpCenterId, 'F.A.Q.', { parentId: top._id });
    const cousin = await collection(helpCenterId, 'FAQ', { parentId: topAgain._id });
    expect([top.slug, topAgain.slug, child.slug, childAgain.slug, cousin.slug]).toEqual(['faq', 'faq-2', 'faq', 'f-a-q', 'faq']);
    const otherHelpCenter = await collection(await helpCenter(), 'FAQ');
    expect(otherHelpCenter.slug).toBe('faq');
  });

  it('lists a three-level tree (endpoint 12) by parent then order, with filters', async () => {
    const helpCenterId = await helpCenter();
    const a = await collection(helpCenterId, 'A');
    const b = await collection(helpCenterId, 'B');
    const b1 = await collection(helpCenterId, 'B1', { parentId: b._id });
    const a1 = await collection(helpCenterId, 'A1', { parentId: a._id });
    const a2 = await collection(helpCenterId, 'A2', { parentId: a._id });
    const a1x = await collection(helpCenterId, 'A1x', { parentId: a1._id });
    await collection(helpCenterId, 'B1x', { parentId: b1._id });
    await collection(helpCenterId, 'A1y', { parentId: a1._id });
    await collection(helpCenterId, 'C');

    const response = await get(`/collections?helpCenterId=${helpCenterId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Collections retrieved');
    expect(await names(`?helpCenterId=${helpCenterId}`)).toEqual([
      'A@1',
      'B@2',
      'C@3',
      'A1@1',
      'A2@2',
      'B1@1',
      'A1x@1',
      'A1y@2',
      'B1x@1',
    ]);
    const byId = new Map((await list(`?helpCenterId=${helpCenterId}`)).map((c) => [c.name, c]));
    expect(byId.get('A1x')?.parentId).toBe(a1._id);
    expect(byId.get('A2')?.parentId).toBe(a._id);

    expect(await names(`?helpCenterId=${helpCenterId}&parentId=${a._id}`)).toEqual(['A1@1', 'A2@2']);
    expect(await names(`?helpCenterId=${helpCenterId}&parentId=null`)).toEqual(['A@1', 'B@2', 'C@3']);
    expect(await names(`?parentId=${a1._id}`)).toEqual(['A1x@1', 'A1y@2']);
    expect((await list()).map((c) => c._id)).toEqual(expect.arrayContaining([a._id, a2._id, a1x._id]));
    expect((await list('', globex.headers)).map((c) => c._id)).not.toContain(a._id);

    expect((await get('/collections?parentId=nope')).json()).toEqual({
      statusCode: 400,
      message: 'parentId has an invalid value',
    });
    expect((await get('/collections?helpCenterId=507f1f77bcf86cd799439011')).json()).toEqual({
      statusCode: 404,
      message: 'Help center not found',
    });
    expect((await get('/collections?parentId=507f1f77bcf86cd799439011')).json()).toEqual({
      statusCode: 404,
      message: 'Collection not found',
    });
    expect((await get('/collections?color=red')).json()).toEqual({ statusCode: 400, message: 'color is not an accepted field' });
  });

  it('a sub-collection of a protected collection reads as protected', async () => {
    const helpCenterId = await helpCenter();
    const parent = await collection(helpCenterId, 'Internal', { isProtected: true });
    const child = await collection(helpCenterId, 'Runbooks', { parentId: parent._id, isProtected: false });
    const grandchild = await collection(helpCenterId, 'On call', { parentId: child._id });
    expect([parent.isProtected, child.isProtected, grandchild.isProtected]).toEqual([true, true, true]);

    await patch(`/collections/${parent._id}`, { isProtected: false });
    const after = await list(`?helpCenterId=${helpCenterId}`);
    expect(after.map((c) => c.isProtected)).toEqual([false, false, false]);
    await patch(`/collections/${child._id}`, { isProtected: true });
    expect((await list(`?helpCenterId=${helpCenterId}`)).map((c) => c.isProtected)).toEqual([false, true, true]);
  });

  it('updates fields; a rename re-derives the slug among siblings', async () => {
    const helpCenterId = await helpCenter();
    const taken = await collection(helpCenterId, 'Accounts');
    const target = await collection(helpCenterId, 'Profiles', { description: 'About you', meta: { title: 'P' } });
    harness.clock.advance(1000);
    const response = await patch(`/collections/${target._id}`, {
      name: 'Accounts',
      description: null,
      icon: 'user',
      meta: { image: 'https://x.test/a.png' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Collection updated');
    expect(response.json().data).toMatchObject({
      name: 'Accounts',
      slug: 'accounts-2',
      description: null,
      icon: 'user',
      meta: { title: 'P', description: null, image: 'https://x.test/a.png' },
      updatedAt: new Date(Date.parse(TEST_NOW) + 1000).toISOString(),
      order: 2,
    });
    expect((await get(`/collections/${taken._id}`)).json().data.slug).toBe('accounts');
  });

  it('reorders among siblings and moves between parents, keeping orders 1..n', async () => {
    const helpCenterId = await helpCenter();
    const [a, b, c] = [
      await collection(helpCenterId, 'A'),
      await collection(helpCenterId, 'B'),
      await collection(helpCenterId, 'C'),
    ];
    expect((await patch(`/collections/${c._id}`, { order: 1 })).json().data.order).toBe(1);
    expect(await names(`?helpCenterId=${helpCenterId}`)).toEqual(['C@1', 'A@2', 'B@3']);
    await patch(`/collections/${c._id}`, { order: 99 });
    expect(await names(`?helpCenterId=${helpCenterId}`)).toEqual(['A@1', 'B@2', 'C@3']);

    const moved = (await patch(`/collections/${a._id}`, { parentId: b._id })).json().data;
    expect(moved).toMatchObject({ parentId: b._id, order: 1, slug: 'a' });
    await collection(helpCenterId, 'D', { parentId: b._id });
    await patch(`/collections/${c._id}`, { parentId: b._id, order: 1 });
    expect(await names(`?helpCenterId=${helpCenterId}`)).toEqual(['B@1', 'C@1', 'A@2', 'D@3']);

    const back = (await patch(`/collections/${a._id}`, { parentId: null })).json().data;
    expect(back).toMatchObject({ parentId: null, order: 2 });
    expect(await names(`?helpCenterId=${helpCenterId}`)).toEqual(['B@1', 'A@2', 'C@1', 'D@2']);
  });

  it('rejects cycles and nesting deeper than 5 levels with a 400, changing nothing', async () => {
    const helpCenterId = await helpCenter();
    const levels: Collection[] = [];
    for (let level = 1; level <= 5; level++) {
      levels.push(await collection(helpCenterId, `L${level}`, level > 1 ? { parentId: levels[level - 2]?._id } : {}));
    }
    const [l1, l2, , l4, l5] = levels as [Collection, Collection, Collection, Collection, Collection];
    const before = await list(`?helpCenterId=${helpCenterId}`);

    const tooDeep = await post('/collections', { helpCenterId, name: 'L6', parentId: l5._id });
    expect(tooDeep.json()).toEqual({ statusCode: 400, message: 'Collections nest at most 5 levels deep' });
    const self = await patch(`/collections/${l2._id}`, { parentId: l2._id });
    expect(self.json()).toEqual({
      statusCode: 400,
      message: 'A collection cannot be moved under itself or one of its descendants',
    });
    const descendant = await patch(`/collections/${l1._id}`, { parentId: l4._id });
    expect(descendant.json()).toEqual({
      statusCode: 400,
      message: 'A collection cannot be moved under itself or one of its descendants',
    });
    const other = await collection(helpCenterId, 'Other');
    const otherChild = await collection(helpCenterId, 'Other child', { parentId: other._id });
    const subtreeTooDeep = await patch(`/collections/${other._id}`, { parentId: l4._id });
    expect(subtreeTooDeep.json()).toEqual({ statusCode: 400, message: 'Collections nest at most 5 levels deep' });
    expect((await patch(`/collections/${otherChild._id}`, { parentId: l4._id })).statusCode).toBe(200);

    const after = (await list(`?helpCenterId=${helpCenterId}`)).filter((c) => !c.name.startsWith('Other'));
    expect(after).toEqual(before);
  });

  it('deletes only an empty collection: 409 naming what it holds', async () => {
    const helpCenterId = await helpCenter();
    const parent = await collection(helpCenterId, 'Parent');
    const sibling = await collection(helpCenterId, 'Sibling');
    const children = [
      await collection(helpCenterId, 'K1', { parentId: parent._id }),
      await collection(helpCenterId, 'K2', { parentId: parent._id }),
    ];
    const article = (await post('/articles', { title: 'Hello', collectionId: parent._id })).json().data;
    expect((await get(`/collections/${parent._id}`)).json().data.articles).toEqual([article._id]);

    const blocked = await remove(`/collections/${parent._id}`);
    expect(blocked.json()).toEqual({
      statusCode: 409,
      message: 'Collection still holds 2 sub-collections and 1 article; move or delete them first',
    });
    for (const child of children) {
      expect((await remove(`/collections/${child._id}`)).statusCode).toBe(200);
    }
    expect((await remove(`/collections/${parent._id}`)).json().message).toBe(
      'Collection still holds 1 article; move or delete them first',
    );
    await remove(`/articles/${article._id}`);
    const deleted = await remove(`/collections/${parent._id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ data: { _id: parent._id, name: 'Parent' }, message: 'Collection deleted' });
    expect((await get(`/collections/${parent._id}`)).statusCode).toBe(404);
    expect((await get(`/collections/${sibling._id}`)).json().data.order).toBe(1);
  });

  it.each([
    [{ name: 'X', helpCenterId: undefined }, 'helpCenterId is required'],
    [{}, 'name is required'],
    [{ name: '' }, 'name must be at least 1 characters long'],
    [{ name: '  ' }, 'name must not be blank'],
    [{ name: 'X', description: '' }, 'description must be at least 1 characters long'],
    [{ name: 'X', description: ' ' }, 'description must not be blank'],
    [{ name: 'X', icon: '' }, 'icon must be at least 1 characters long'],
    [{ name: 'X', helpCenterId: 'abc' }, 'helpCenterId has an invalid format'],
    [{ name: 'X', parentId: 'abc' }, 'parentId has an invalid format'],
    [{ name: 'X', isProtected: 1 }, 'isProtected must be a boolean'],
    [{ name: 'X', order: 3 }, 'order is not an accepted field'],
  ])('create rejects %j with a 400, writing nothing', async (payload, message) => {
    const helpCenterId = await helpCenter();
    const before = await list();
    const response = await post('/collections', { helpCenterId, ...payload });
    expect(response.json()).toEqual({ statusCode: 400, message });
    expect(await list()).toEqual(before);
  });

  it('unknown or foreign help centers and parents are 404s; a parent from another help center is a 400', async () => {
    const helpCenterId = await helpCenter();
    const otherHelpCenter = await helpCenter();
    const elsewhere = await collection(otherHelpCenter, 'Elsewhere');
    const foreignHelpCenter = await helpCenter(globex.headers);
    const foreignCollection = await collection(foreignHelpCenter, 'Theirs', {}, globex.headers);
    const before = await list();
    const cases = [
      [{ helpCenterId: '507f1f77bcf86cd799439011' }, 404, 'Help center not found'],
      [{ helpCenterId: foreignHelpCenter }, 404, 'Help center not found'],
      [{ helpCenterId, parentId: '507f1f77bcf86cd799439011' }, 404, 'Parent collection not found'],
      [{ helpCenterId, parentId: foreignCollection._id }, 404, 'Parent collection not found'],
      [{ helpCenterId, parentId: elsewhere._id }, 400, 'parentId must be a collection of the same help center'],
    ] as const;
    for (const [payload, statusCode, message] of cases) {
      const response = await post('/collections', { name: 'X', ...payload });
      expect(response.json(), JSON.stringify(payload)).toEqual({ statusCode, message });
    }
    const target = await collection(helpCenterId, 'Target');
    expect((await patch(`/collections/${target._id}`, { parentId: elsewhere._id })).statusCode).toBe(400);
    expect((await patch(`/collections/${target._id}`, { parentId: foreignCollection._id })).statusCode).toBe(404);
    expect((await list()).filter((c) => c._id !== target._id)).toEqual(before);
  });

  it('update rejects bad input with a 400, changing nothing', async () => {
    const target = await collection(await helpCenter(), 'Unchanged');
    for (const [payload, message] of [
      [{ name: '' }, 'name must be at least 1 characters long'],
      [{ description: '' }, 'description must be at least 1 characters long'],
      [{ icon: '' }, 'icon must be at least 1 characters long'],
      [{ icon: ' ' }, 'icon must not be blank'],
      [{ order: 0 }, 'order must be at least 1'],
      [{ helpCenterId: target._id }, 'helpCenterId is not an accepted field'],
    ] as const) {
      expect((await patch(`/collections/${target._id}`, payload)).json()).toEqual({ statusCode: 400, message });
    }
    expect((await get(`/collections/${target._id}`)).json().data).toEqual(target);
  });

  it("another organization's collection answers 404 on every route; a malformed id is a 400", async () => {
    const foreign = await collection(await helpCenter(globex.headers), 'Private', {}, globex.headers);
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { name: 'Mine' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await harness.app.inject({ method, url: `/collections/${foreign._id}`, headers: acme.headers, payload });
      expect(response.json(), method).toEqual({ statusCode: 404, message: 'Collection not found' });
    }
    expect((await get(`/collections/${foreign._id}`, globex.headers)).json().data.name).toBe('Private');
    expect((await get('/collections/123')).json()).toEqual({ statusCode: 400, message: 'id has an invalid format' });
  });

  /** Every page of `/collections?<query>` by cursor, as `name` lists, and each page's answer. */
  const walk = async (query: string, headers: { 'x-api-key': string }) => {
    const pages: Collection[][] = [];
    for (let cursor: string | null = ''; cursor !== null && pages.length < 20; ) {
      const response = await get(`/collections?${query}${cursor ? `&cursor=${cursor}` : ''}`, headers);
      expect(response.statusCode, response.body).toBe(200);
      pages.push(response.json().data);
      cursor = response.json().nextCursor;
    }
    return pages;
  };
  const namesOf = (page: Collection[]) => page.map((c) => c.name);

  it('pages over top-level collections, each page with their whole subtrees, help centers in id (creation) order', async () => {
    const owner = await makeOrganization(harness);
    const [first, second] = [await helpCenter(owner.headers), await helpCenter(owner.headers)];
    await helpCenter(owner.headers); // a third one without collections is passed over
    const top: Record<string, Collection> = {};
    for (let index = 1; index <= 12; index++) {
      const name = `A${String(index).padStart(2, '0')}`;
      top[name] = await collection(first, name, index === 7 ? { isProtected: true } : {}, owner.headers);
    }
    const a021 = await collection(first, 'A02.1', { parentId: top.A02?._id }, owner.headers);
    await collection(first, 'A02.2', { parentId: top.A02?._id }, owner.headers);
    await collection(first, 'A02.1.1', { parentId: a021._id }, owner.headers);
    await collection(first, 'A07.1', { parentId: top.A07?._id }, owner.headers);
    for (const name of ['B1', 'B2', 'B3']) {
      top[name] = await collection(second, name, {}, owner.headers);
    }
    await collection(second, 'B2.1', { parentId: top.B2?._id }, owner.headers);

    const pages = await walk('limit=5', owner.headers);
    expect(pages.map(namesOf)).toEqual([
      ['A01', 'A02', 'A03', 'A04', 'A05', 'A02.1', 'A02.2', 'A02.1.1'],
      ['A06', 'A07', 'A08', 'A09', 'A10', 'A07.1'],
      ['A11', 'A12', 'B1', 'B2', 'B3', 'B2.1'],
    ]);
    expect(pages[1]?.find((c) => c.name === 'A07.1')?.isProtected).toBe(true);
    // One page holding everything is the whole listing, as before pages.
    const whole = (await get('/collections?limit=100', owner.headers)).json();
    expect(whole.nextCursor).toBeNull();
    expect(namesOf(whole.data)).toEqual([
      ...['A01', 'A02', 'A03', 'A04', 'A05', 'A06', 'A07', 'A08', 'A09', 'A10', 'A11', 'A12'],
      ...['A02.1', 'A02.2', 'A07.1', 'A02.1.1', 'B1', 'B2', 'B3', 'B2.1'],
    ]);

    expect(
      (await walk(`limit=5&helpCenterId=${first}`, owner.headers)).map((page) => page.filter((c) => !c.parentId).length),
    ).toEqual([5, 5, 2]);
    expect((await walk('limit=5&parentId=null', owner.headers)).map(namesOf)).toEqual([
      ['A01', 'A02', 'A03', 'A04', 'A05'],
      ['A06', 'A07', 'A08', 'A09', 'A10'],
      ['A11', 'A12', 'B1', 'B2', 'B3'],
    ]);

    // A page that ends with a help center's last top-level collection: the next starts in the next help center.
    expect((await walk('limit=6&parentId=null', owner.headers)).map((page) => page.length)).toEqual([6, 6, 3]);

    const cursor = (await get('/collections?limit=5', owner.headers)).json().nextCursor;
    expect((await get(`/collections?parentId=${top.A02?._id}&cursor=${cursor}`, owner.headers)).json()).toEqual({
      statusCode: 400,
      message: 'cursor is not a nextCursor this list returned',
    });
    const foreign = (await get(`/collections?limit=100&cursor=${cursor}`, globex.headers)).json();
    expect(foreign.data.every((c: { orgId: string }) => c.orgId === globex.organizationId)).toBe(true);
    expect((await get('/collections?cursor=abc', owner.headers)).json()).toEqual({
      statusCode: 400,
      message: 'cursor is not a nextCursor this list returned',
    });
  });

  it('lists each collection with its live articles in the order they were added; a help center without collections lists none', async () => {
    const helpCenterId = await helpCenter();
    const shelf = await collection(helpCenterId, 'Shelf');
    const box = await collection(helpCenterId, 'Box', { parentId: shelf._id });
    const article = async (title: string, collectionId: string): Promise<string> =>
      (await post('/articles', { title, collectionId })).json().data._id;
    const [first, dropped, third] = [
      await article('First', shelf._id),
      await article('Dropped', shelf._id),
      await article('Third', shelf._id),
    ];
    const boxed = await article('Boxed', box._id);
    expect((await remove(`/articles/${dropped}`)).statusCode).toBe(200);

    for (const query of [`?helpCenterId=${helpCenterId}`, `?helpCenterId=${helpCenterId}&limit=1`]) {
      const listed = new Map((await list(query)).map((c) => [c.name, c.articles]));
      expect(listed.get('Shelf')).toEqual([first, third]);
      expect(listed.get('Box')).toEqual([boxed]);
    }
    expect((await list(`?helpCenterId=${helpCenterId}&parentId=null`)).map((c) => c.articles)).toEqual([[first, third]]);

    const empty = await get(`/collections?helpCenterId=${await helpCenter()}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ data: [], nextCursor: null });
    expect((await get(`/collections?helpCenterId=${helpCenterId}`, globex.headers)).json()).toEqual({
      statusCode: 404,
      message: 'Help center not found',
    });
  });

  it("pages a collection's children by order, each reading as protected under a protected parent", async () => {
    const owner = await makeOrganization(harness);
    const helpCenterId = await helpCenter(owner.headers);
    const parent = await collection(helpCenterId, 'Internal', { isProtected: true }, owner.headers);
    const names = Array.from({ length: 12 }, (_, index) => `Child ${String(index + 1).padStart(2, '0')}`);
    const children = [];
    for (const name of names) {
      children.push(await collection(helpCenterId, name, { parentId: parent._id }, owner.headers));
    }
    await collection(helpCenterId, 'Grandchild', { parentId: children[0]?._id }, owner.headers);
    // Moving the last child to the front: pages follow `order`, not creation.
    await patch(`/collections/${children[11]?._id}`, { order: 1 }, owner.headers);

    const pages = await walk(`limit=5&parentId=${parent._id}`, owner.headers);
    expect(pages.map(namesOf)).toEqual([
      ['Child 12', 'Child 01', 'Child 02', 'Child 03', 'Child 04'],
      ['Child 05', 'Child 06', 'Child 07', 'Child 08', 'Child 09'],
      ['Child 10', 'Child 11'],
    ]);
    expect(pages.flat().every((c) => c.isProtected && c.parentId === parent._id)).toBe(true);
    expect(pages.flat().map((c) => c.order)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));

    const elsewhere = await helpCenter(owner.headers);
    expect((await get(`/collections?parentId=${parent._id}&helpCenterId=${elsewhere}`, owner.headers)).json()).toEqual({
      data: [],
      nextCursor: null,
      message: 'Collections retrieved',
    });
  });
});
