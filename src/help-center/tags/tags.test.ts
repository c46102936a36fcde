import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

interface Tag {
  _id: string;
  name: string;
  lowerName: string;
}

describe.each(DIALECTS)('help center tags on %s', (dialect) => {
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
  const get = (url: string, headers = acme.headers) => harness.app.inject({ url, headers });
  const tags = async (headers = acme.headers) => (await get('/tags', headers)).json().data as Tag[];
  const tag = async (name: string, headers = acme.headers) => {
    const response = await post('/tags', { name }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Tag;
  };

  it('creates a tag: 201 with the tag object and its lower-case name', async () => {
    const response = await post('/tags', { name: '  Getting Started ' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      data: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        orgId: acme.organizationId,
        name: 'Getting Started',
        lowerName: 'getting started',
        createdBy: acme.userId,
        createdAt: TEST_NOW,
        updatedAt: TEST_NOW,
      },
      message: 'Tag created',
    });
  });

  it('names are unique per organization by lowerName: 409, nothing written; free in another organization', async () => {
    await tag('Billing');
    const before = await tags();
    const clash = await post('/tags', { name: 'BILLING' });
    expect(clash.json()).toEqual({ statusCode: 409, message: 'Tag with this name already exists' });
    expect(await tags()).toEqual(before);
    expect((await post('/tags', { name: 'billing' }, globex.headers)).statusCode).toBe(201);
  });

  it('lists the organization’s tags alphabetically', async () => {
    await tag('zebra');
    await tag('Apple');
    const names = (await tags()).map((t) => t.lowerName);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['apple', 'zebra']));
    expect((await tags(globex.headers)).map((t) => t.lowerName)).not.toContain('apple');
  });

  it('renames a tag (endpoint 13): {data: tag, message}, lowerName follows', async () => {
    const created = await tag('Onboardng');
    harness.clock.advance(2000);
    const response = await patch(`/tags/${created._id}`, { name: 'Onboarding' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: { ...created, name: 'Onboarding', lowerName: 'onboarding', updatedAt: harness.clock.now().toISOString() },
      message: 'Tag updated',
    });
    expect((await patch(`/tags/${created._id}`, { name: 'ONBOARDING' })).json().data).toMatchObject({
      name: 'ONBOARDING',
      lowerName: 'onboarding',
    });
  });

  it('rename rejects a taken name (409) and bad input (400), changing nothing', async () => {
    await tag('Security');
    const target = await tag('Privacy');
    const cases = [
      [{ name: 'security' }, 409, 'Tag with this name already exists'],
      [{}, 400, 'name is required'],
      [{ name: '' }, 400, 'name must be at least 1 characters long'],
      [{ name: '   ' }, 400, 'name must not be blank'],
      [{ name: 'x'.repeat(51) }, 400, 'name must be at most 50 characters long'],
      [{ name: 42 }, 400, 'name must be a string'],
      [{ name: 'Ok', color: '#fff' }, 400, 'color is not an accepted field'],
    ] as const;
    for (const [payload, statusCode, message] of cases) {
      expect((await patch(`/tags/${target._id}`, payload)).json(), JSON.stringify(payload)).toEqual({ statusCode, message });
    }
    expect((await tags()).find((t) => t._id === target._id)).toEqual(target);
  });

  it.each([
    [{}, 'name is required'],
    [{ name: '' }, 'name must be at least 1 characters long'],
    [{ name: ' ' }, 'name must not be blank'],
  ])('create rejects %j with a 400, writing nothing', async (payload, message) => {
    const before = await tags();
    expect((await post('/tags', payload)).json()).toEqual({ statusCode: 400, message });
    expect(await tags()).toEqual(before);
  });

  it('a malformed tagId is a 400; an unknown or foreign one a 404', async () => {
    expect((await patch('/tags/not-an-id', { name: 'x' })).json()).toEqual({
      statusCode: 400,
      message: 'tagId has an invalid format',
    });
    expect((await patch('/tags/507f1f77bcf86cd799439011', { name: 'x' })).json()).toEqual({
      statusCode: 404,
      message: 'Tag not found',
    });
    const foreign = await tag('Theirs', globex.headers);
    expect((await patch(`/tags/${foreign._id}`, { name: 'Mine' })).json()).toEqual({ statusCode: 404, message: 'Tag not found' });
    const deleted = await harness.app.inject({ method: 'DELETE', url: `/tags/${foreign._id}`, headers: acme.headers });
    expect(deleted.json()).toEqual({ statusCode: 404, message: 'Tag not found' });
    expect((await tags(globex.headers)).map((t) => t.name)).toContain('Theirs');
  });

  it('deleting a tag removes it from articles', async () => {
    const helpCenterId = (await post('/help-centers', { name: 'Help' })).json().data._id;
    const collectionId = (await post('/collections', { helpCenterId, name: 'C' })).json().data._id;
    const [keep, drop] = [await tag('Keep'), await tag('Drop')];
    const article = (await post('/articles', { title: 'Tagged', collectionId, tags: [keep._id, drop._id] })).json().data;
    expect(article.tags).toEqual([drop._id, keep._id]);

    const response = await harness.app.inject({ method: 'DELETE', url: `/tags/${drop._id}`, headers: acme.headers });
    expect(response.json()).toEqual({ data: drop, message: 'Tag deleted' });
    expect((await get(`/articles/${article._id}`)).json().data.tags).toEqual([keep._id]);
    expect((await tags()).map((t) => t._id)).not.toContain(drop._id);
    expect((await get(`/articles?tag=${drop._id}`)).statusCode).toBe(404);
  });

  it('concurrent creates of one name: one tag, and the others get the tag 409 message', async () => {
    const responses = await Promise.all(['Race', 'race', 'RACE'].map((name) => post('/tags', { name })));
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: 'Tag with this name already exists', statusCode: 409 });
    }
  });

  it('pages by cursor, alphabetically by lower-case name, each tag once; another organization sees none of them', async () => {
    const owner = await makeOrganization(harness);
    // Created out of order and in mixed case: the list is by lowerName.
    const names = Array.from(
      { length: 25 },
      (_, index) => `${index % 2 ? 'Tag' : 'tag'} ${String((index * 7) % 25).padStart(2, '0')}`,
    );
    for (const name of names) {
      expect((await post('/tags', { name }, owner.headers)).statusCode).toBe(201);
    }
    const pages: string[][] = [];
    for (let cursor: string | null = ''; cursor !== null && pages.length < 10; ) {
      const response = await get(`/tags?limit=10${cursor ? `&cursor=${cursor}` : ''}`, owner.headers);
      expect(response.statusCode, response.body).toBe(200);
      pages.push(response.json().data.map((t: Tag) => t.lowerName));
      cursor = response.json().nextCursor;
    }
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(names.map((name) => name.toLowerCase()).sort());

    const first = (await get('/tags?limit=10', owner.headers)).json();
    const foreign = (await get(`/tags?limit=100&cursor=${first.nextCursor}`, globex.headers)).json();
    expect(foreign.data.every((t: { orgId: string }) => t.orgId === globex.organizationId)).toBe(true);
    expect((await get('/tags?cursor=%2A', owner.headers)).json()).toEqual({
      statusCode: 400,
      message: 'cursor is not a nextCursor this list returned',
    });
  });
});
