import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { recordingStatements } from '../../../test/sent-statements.js';
import { AppError } from '../../lib/errors.js';
import { listOrganizationArticles } from '../articles/article.service.js';
import { type ArticleFeedbackInput, recordArticleFeedback } from './article-feedback.service.js';

interface Counts {
  _id: string;
  helpfulCount: number;
  notHelpfulCount: number;
}

describe.each(DIALECTS)('article feedback on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let collectionId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const helpCenterId = (await post('/help-centers', { name: 'Feedback Help' })).json().data._id;
    collectionId = (await post('/collections', { helpCenterId, name: 'General' })).json().data._id;
  });
  afterAll(() => harness.close());

  const post = (url: string, payload?: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url, headers, payload });
  const get = (url: string, headers = acme.headers) => harness.app.inject({ url, headers });

  const article = async (options: { publish?: boolean } = {}) => {
    const created = await post('/articles', { title: 'Resetting a password', collectionId, contentHtml: '<p>Steps</p>' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data._id as string;
    if (options.publish ?? true) {
      expect((await post(`/articles/${id}/publish`)).statusCode).toBe(200);
    }
    return id;
  };
  const vote = (articleId: string, voterKey: string, helpful: boolean, comment?: string | null) =>
    recordArticleFeedback(harness, { organizationId: acme.organizationId, articleId, voterKey, helpful, comment });
  const counts = async (articleId: string) => {
    const { helpfulCount, notHelpfulCount } = (await get(`/articles/${articleId}`)).json().data as Counts;
    return { helpfulCount, notHelpfulCount };
  };
  const feedbackRows = () =>
    harness.db.selectFrom('article_feedback').select(['article_id', 'voter_key', 'helpful', 'comment']).execute();
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    return { code: (error as AppError).code, message: (error as AppError).message };
  };

  it('one vote per browser per article: a later vote replaces the earlier; each browser counts once', async () => {
    const id = await article();
    expect(await counts(id)).toEqual({ helpfulCount: 0, notHelpfulCount: 0 });
    const first = await vote(id, 'browser-a', true);
    expect(first).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      helpful: true,
      comment: null,
      createdAt: TEST_NOW,
      updatedAt: TEST_NOW,
    });
    expect(await counts(id)).toEqual({ helpfulCount: 1, notHelpfulCount: 0 });

    harness.clock.advance(60_000);
    const changed = await vote(id, 'browser-a', false, 'The second step is missing');
    expect(changed).toEqual({
      _id: first._id,
      helpful: false,
      comment: 'The second step is missing',
      createdAt: TEST_NOW,
      updatedAt: '2026-01-15T09:01:00.000Z',
    });
    expect(await counts(id)).toEqual({ helpfulCount: 0, notHelpfulCount: 1 });

    await vote(id, 'browser-b', true);
    expect(await counts(id)).toEqual({ helpfulCount: 1, notHelpfulCount: 1 });
    // The browser's id is kept only as its hash.
    const rows = (await feedbackRows()).filter((row) => row.article_id === id);
    expect(rows.map((row) => row.voter_key).sort()).toEqual(
      ['browser-a', 'browser-b'].map((key) => createHash('sha256').update(key).digest('hex')).sort(),
    );
    harness.clock.set(TEST_NOW);
  });

  it('concurrent votes of one browser leave one vote; of several browsers, one each', async () => {
    const id = await article();
    await Promise.all(Array.from({ length: 8 }, (_, index) => vote(id, 'racing-browser', index % 2 === 0)));
    const total = await counts(id);
    expect(total.helpfulCount + total.notHelpfulCount).toBe(1);
    await Promise.all(Array.from({ length: 8 }, (_, index) => vote(id, `browser-${index}`, index < 3)));
    expect((await counts(id)).helpfulCount + (await counts(id)).notHelpfulCount).toBe(9);
  });

  it('comments: NUL characters dropped, blank is none, at most 2,000 characters (more is a 400 and nothing is written)', async () => {
    const id = await article();
    expect((await vote(id, 'nul', false, `Missing\u0000 step`)).comment).toBe('Missing step');
    expect((await vote(id, 'blank', false, '   ')).comment).toBeNull();
    expect((await vote(id, 'longest', false, 'é'.repeat(2000))).comment).toBe('é'.repeat(2000));
    const before = await feedbackRows();
    expect(await refusal(vote(id, 'too-long', false, 'x'.repeat(2001)))).toEqual({
      code: 'VALIDATION',
      message: 'comment must be at most 2000 characters long',
    });
    expect(await refusal(vote(id, 'longest', true, 'x'.repeat(2001)))).toMatchObject({ code: 'VALIDATION' });
    expect(await feedbackRows()).toEqual(before);
  });

  it('only a published, live article of the organization takes votes: else a 404 and nothing is written', async () => {
    const draft = await article({ publish: false });
    const withdrawn = await article();
    await post(`/articles/${withdrawn}/unpublish`);
    const deleted = await article();
    await harness.app.inject({ method: 'DELETE', url: `/articles/${deleted}`, headers: acme.headers });
    const published = await article();
    const before = await feedbackRows();
    const attempts: ArticleFeedbackInput[] = [
      { organizationId: acme.organizationId, articleId: draft, voterKey: 'k', helpful: true },
      { organizationId: acme.organizationId, articleId: withdrawn, voterKey: 'k', helpful: true },
      { organizationId: acme.organizationId, articleId: deleted, voterKey: 'k', helpful: true },
      { organizationId: acme.organizationId, articleId: '507f1f77bcf86cd799439011', voterKey: 'k', helpful: true },
      { organizationId: globex.organizationId, articleId: published, voterKey: 'k', helpful: true },
    ];
    for (const input of attempts) {
      expect(await refusal(recordArticleFeedback(harness, input))).toEqual({ code: 'NOT_FOUND', message: 'Article not found' });
    }
    expect(await feedbackRows()).toEqual(before);
  });

  it('article answers carry the counts: get, list, update and publish; a list counts its page in one query', async () => {
    const [first, second, third] = [await article(), await article(), await article()];
    if (!first || !second || !third) {
      throw new Error('three articles');
    }
    await vote(first, 'a', true);
    await vote(first, 'b', true);
    await vote(first, 'c', false);
    await vote(second, 'a', false);
    const listed = (await get('/articles?limit=100')).json().data as Counts[];
    const byId = new Map(listed.map((entry) => [entry._id, [entry.helpfulCount, entry.notHelpfulCount]]));
    expect([byId.get(first), byId.get(second), byId.get(third)]).toEqual([
      [2, 1],
      [0, 1],
      [0, 0],
    ]);
    const updated = await harness.app.inject({
      method: 'PATCH',
      url: `/articles/${first}`,
      headers: acme.headers,
      payload: { title: 'Renamed' },
    });
    expect(updated.json().data).toMatchObject({ helpfulCount: 2, notHelpfulCount: 1 });
    expect((await post(`/articles/${first}/publish`)).json().data).toMatchObject({ helpfulCount: 2, notHelpfulCount: 1 });

    const recording = recordingStatements(harness.db);
    const principal = { organizationId: acme.organizationId, userId: acme.userId, userType: 'ORG_ADMIN' as const };
    const page = await listOrganizationArticles(recording.db, principal, { limit: 100 });
    expect(page.items.length).toBeGreaterThanOrEqual(3);
    expect(recording.statements.filter((statement) => statement.sql.includes('article_feedback'))).toHaveLength(1);
  });

  it('GET /articles/{articleId}/feedback pages the votes, most recent first, without who gave them', async () => {
    const id = await article();
    try {
      for (const [index, voter] of ['v1', 'v2', 'v3'].entries()) {
        harness.clock.advance(1000);
        await vote(id, voter, index !== 1, index === 1 ? 'Unclear' : null);
      }
      harness.clock.advance(1000);
      await vote(id, 'v1', false, 'Changed my mind');
    } finally {
      harness.clock.set(TEST_NOW);
    }
    const first = await get(`/articles/${id}/feedback?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      data: [
        {
          _id: expect.any(String),
          helpful: false,
          comment: 'Changed my mind',
          createdAt: '2026-01-15T09:00:01.000Z',
          updatedAt: '2026-01-15T09:00:04.000Z',
        },
        {
          _id: expect.any(String),
          helpful: true,
          comment: null,
          createdAt: '2026-01-15T09:00:03.000Z',
          updatedAt: '2026-01-15T09:00:03.000Z',
        },
      ],
      nextCursor: expect.any(String),
      message: 'Article feedback retrieved',
    });
    const second = (await get(`/articles/${id}/feedback?limit=2&cursor=${first.json().nextCursor}`)).json();
    expect(second.data.map((entry: { comment: string | null }) => entry.comment)).toEqual(['Unclear']);
    expect(second.nextCursor).toBeNull();
    // A member (a writer) reads it too.
    const member = await makeUser(harness, acme.organizationId);
    expect((await get(`/articles/${id}/feedback`, member.headers)).json().data).toHaveLength(3);
  });

  it('the feedback list: another organization’s or an unknown article is a 404, a malformed id or cursor a 400', async () => {
    const id = await article();
    await vote(id, 'someone', true);
    expect((await get(`/articles/${id}/feedback`, globex.headers)).json()).toEqual({
      statusCode: 404,
      message: 'Article not found',
    });
    expect((await get('/articles/507f1f77bcf86cd799439011/feedback')).json()).toEqual({
      statusCode: 404,
      message: 'Article not found',
    });
    expect((await get('/articles/nope/feedback')).json()).toEqual({
      statusCode: 400,
      message: 'articleId has an invalid format',
    });
    expect((await get(`/articles/${id}/feedback?cursor=bad*cursor`)).json()).toEqual({
      statusCode: 400,
      message: 'cursor is not a nextCursor this list returned',
    });
    expect((await get(`/articles/${id}/feedback?limit=101`)).json()).toEqual({
      statusCode: 400,
      message: 'limit must be at most 100',
    });
    await harness.app.inject({ method: 'DELETE', url: `/articles/${id}`, headers: acme.headers });
    expect((await get(`/articles/${id}/feedback`)).statusCode).toBe(404);
  });
});
