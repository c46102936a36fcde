import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';

interface Tag {
  _id: string;
  name: string;
}

describe.each(DIALECTS)('merging help center tags on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let collectionId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const helpCenterId = (await post('/help-centers', { name: 'Help' })).json().data._id;
    collectionId = (await post('/collections', { helpCenterId, name: 'General' })).json().data._id;
  });
  afterAll(() => harness.close());

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const get = (url: string, headers = acme.headers) => harness.app.inject({ url, headers });
  const tag = async (name: string, headers = acme.headers) => {
    const response = await post('/tags', { name }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Tag;
  };
  const article = async (tags: string[]) => {
    const response = await post('/articles', { title: 'Tagged', collectionId, tags });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data._id as string;
  };
  const tagsOf = async (id: string) => (await get(`/articles/${id}`)).json().data.tags as string[];
  const tagIds = async () => ((await get('/tags?limit=100')).json().data as Tag[]).map((t) => t._id);

  it('moves the articles to the target tag, keeps one tagging each, deletes the source: 200 with the target', async () => {
    const billing = await tag('Billing');
    const invoices = await tag('Invoices');
    const other = await tag('Other');
    const onlySource = await article([billing._id]);
    const both = await article([billing._id, invoices._id, other._id]);
    const onlyTarget = await article([invoices._id]);
    harness.clock.advance(1000);
    const merged = await post(`/tags/${billing._id}/merge`, { intoTagId: invoices._id });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toMatchObject({
      data: { _id: invoices._id, name: 'Invoices', updatedAt: harness.clock.now().toISOString() },
      message: 'Tags merged',
    });
    expect(await tagsOf(onlySource)).toEqual([invoices._id]);
    expect((await tagsOf(both)).sort()).toEqual([invoices._id, other._id].sort());
    expect(await tagsOf(onlyTarget)).toEqual([invoices._id]);
    expect(await tagIds()).not.toContain(billing._id);
    const listed = (await get(`/articles?tag=${invoices._id}`)).json().data.map((a: { _id: string }) => a._id);
    expect(listed.sort()).toEqual([onlySource, both, onlyTarget].sort());
  });

  it('validation: into itself, a missing or malformed intoTagId, an unknown field: 400, nothing written', async () => {
    const a = await tag('Alpha');
    const b = await tag('Beta');
    const tagged = await article([a._id]);
    const before = await tagIds();
    for (const payload of [{ intoTagId: a._id }, {}, { intoTagId: 'nope' }, { intoTagId: b._id, extra: 1 }]) {
      const response = await post(`/tags/${a._id}/merge`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400 });
    }
    expect(await tagIds()).toEqual(before);
    expect(await tagsOf(tagged)).toEqual([a._id]);
  });

  it("another organization's tag, as source or target, and an unknown tag: 404, nothing written", async () => {
    const mine = await tag('Mine');
    const theirs = await tag('Theirs', globex.headers);
    const tagged = await article([mine._id]);
    const unknown = '0123456789abcdef01234567';
    expect((await post(`/tags/${mine._id}/merge`, { intoTagId: theirs._id })).json()).toEqual({
      statusCode: 404,
      message: 'Tag not found',
    });
    expect((await post(`/tags/${theirs._id}/merge`, { intoTagId: mine._id })).statusCode).toBe(404);
    expect((await post(`/tags/${mine._id}/merge`, { intoTagId: theirs._id }, globex.headers)).statusCode).toBe(404);
    expect((await post(`/tags/${unknown}/merge`, { intoTagId: mine._id })).statusCode).toBe(404);
    expect((await post(`/tags/${mine._id}/merge`, { intoTagId: unknown })).statusCode).toBe(404);
    expect(await tagsOf(tagged)).toEqual([mine._id]);
    expect(await tagIds()).toContain(mine._id);
    expect(((await get('/tags', globex.headers)).json().data as Tag[]).map((t) => t._id)).toContain(theirs._id);
  });

  it('concurrent merges of one pair both ways: one wins, the other finds its tag gone (404); articles keep one tag', async () => {
    const processes = await serverProcesses(harness);
    try {
      for (let round = 0; round < 4; round++) {
        const x = await tag(`X${round}`);
        const y = await tag(`Y${round}`);
        const tagged = [await article([x._id]), await article([y._id]), await article([x._id, y._id])];
        const [first, second] = processes.apps.length > 1 ? processes.apps : [harness.app, harness.app];
        const results = await Promise.all([
          first?.inject({ method: 'POST', url: `/tags/${x._id}/merge`, headers: acme.headers, payload: { intoTagId: y._id } }),
          second?.inject({ method: 'POST', url: `/tags/${y._id}/merge`, headers: acme.headers, payload: { intoTagId: x._id } }),
        ]);
        expect(results.map((response) => response?.statusCode).sort()).toEqual([200, 404]);
        const survivor = results.find((response) => response?.statusCode === 200)?.json().data._id as string;
        const remaining = (await tagIds()).filter((id) => id === x._id || id === y._id);
        expect(remaining).toEqual([survivor]);
        for (const id of tagged) {
          expect(await tagsOf(id)).toEqual([survivor]);
        }
      }
    } finally {
      await processes.close();
    }
  });
});
