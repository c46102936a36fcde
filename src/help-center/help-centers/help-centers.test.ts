import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { firstFreeSlug, slugify } from './help-center.slug.js';

describe('slugs', () => {
  it.each([
    ['Billing & Payments', 'billing-payments'],
    ['  Crème brûlée FAQ  ', 'creme-brulee-faq'],
    ['Überblick 2026', 'uberblick-2026'],
    ['よくある質問', 'よくある質問'],
    ['!!!', 'fallback'],
  ])('%j → %j', (text, slug) => {
    expect(slugify(text, 'fallback')).toBe(slug);
  });

  it('suffixes -2, -3… until free', () => {
    expect(firstFreeSlug('faq', [])).toBe('faq');
    expect(firstFreeSlug('faq', ['faq', 'faq-2', 'faq-4'])).toBe('faq-3');
  });
});

describe.each(DIALECTS)('help centers on %s', (dialect) => {
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
  const helpCenters = async () => (await get('/help-centers')).json().data as { _id: string; slug: string }[];

  it('only admins create and change a help center: a member gets 403 and nothing is written', async () => {
    const member = await makeUser(harness, acme.organizationId);
    const id = (await post('/help-centers', { name: 'Kept as is' })).json().data._id as string;
    const before = await helpCenters();
    const refused = [
      await post('/help-centers', { name: 'Members’ own' }, member.headers),
      await patch(`/help-centers/${id}`, { name: 'Renamed', isProtected: true }, member.headers),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'User does not have access to this resource!', statusCode: 403 });
    }
    expect(await helpCenters()).toEqual(before);
    expect((await get(`/help-centers/${id}`, member.headers)).statusCode).toBe(200);
  });

  it('creates a help center: 201, {data, message}, slug derived from the name', async () => {
    const response = await post('/help-centers', {
      name: 'Acme Help',
      isProtected: true,
      meta: { title: 'Acme support', image: 'https://cdn.acme.test/og.png' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      data: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        orgId: acme.organizationId,
        name: 'Acme Help',
        slug: 'acme-help',
        isProtected: true,
        meta: { title: 'Acme support', description: null, image: 'https://cdn.acme.test/og.png' },
        customDomain: null,
        theme: { logoAttachmentId: null, primaryColor: '#2563eb', footerLinks: [] },
        widget: {
          enabled: false,
          allowedOrigins: [],
          greeting: 'Hi! How can we help?',
          launcherColor: '#2563eb',
          position: 'right',
          agentId: null,
          handoffTeamId: null,
          identityVerificationRequired: false,
          secretSet: false,
        },
        createdBy: acme.userId,
        createdAt: TEST_NOW,
        updatedAt: TEST_NOW,
      },
      message: 'Help center created',
    });
    const id = response.json().data._id;
    expect((await get(`/help-centers/${id}`)).json()).toEqual({ data: response.json().data, message: 'Help center retrieved' });
  });

  it('slugs are unique across the instance (the site is /hc/{slug}/): the same name gets -2, in any organization', async () => {
    const first = (await post('/help-centers', { name: 'Docs' })).json().data;
    const second = (await post('/help-centers', { name: 'docs!' })).json().data;
    const elsewhere = (await post('/help-centers', { name: 'Docs' }, globex.headers)).json().data;
    expect([first.slug, second.slug, elsewhere.slug]).toEqual(['docs', 'docs-2', 'docs-3']);
    expect(first).toMatchObject({ isProtected: false, meta: { title: null, description: null, image: null } });
  });

  it('concurrent creates with one name, in two organizations, get distinct slugs', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) => post('/help-centers', { name: 'Race' }, index % 2 ? globex.headers : acme.headers)),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(6).fill(201));
    const slugs = responses.map((response) => response.json().data.slug).sort();
    expect(slugs).toEqual(['race', 'race-2', 'race-3', 'race-4', 'race-5', 'race-6']);
  });

  it('lists only the organization’s help centers, oldest first', async () => {
    const mine = await helpCenters();
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((helpCenter) => (helpCenter as unknown as { orgId: string }).orgId === acme.organizationId)).toBe(true);
    const theirs = (await get('/help-centers', globex.headers)).json().data as { _id: string }[];
    expect(theirs.map((helpCenter) => helpCenter._id)).not.toEqual(expect.arrayContaining(mine.map((h) => h._id)));
  });

  it('updates name, protection and meta (merged); renaming keeps the slug; a slug can be set, 409 when taken', async () => {
    const helpCenter = (await post('/help-centers', { name: 'Guides', meta: { title: 'T', description: 'D' } })).json().data;
    harness.clock.advance(60_000);
    const updated = await patch(`/help-centers/${helpCenter._id}`, {
      name: 'User Guides',
      isProtected: true,
      meta: { description: null, image: 'https://x.test/i.png' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({
      data: {
        ...helpCenter,
        name: 'User Guides',
        isProtected: true,
        meta: { title: 'T', description: null, image: 'https://x.test/i.png' },
        updatedAt: '2026-01-15T09:01:00.000Z',
      },
      message: 'Help center updated',
    });
    expect((await patch(`/help-centers/${helpCenter._id}`, { slug: 'user-guides' })).json().data.slug).toBe('user-guides');
    await post('/help-centers', { name: 'Taken' });
    const clash = await patch(`/help-centers/${helpCenter._id}`, { slug: 'taken' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ statusCode: 409, message: 'Help center with this slug already exists' });
    // Another organization's slug is taken too; nothing else of the update is written.
    await post('/help-centers', { name: 'Theirs' }, globex.headers);
    const elsewhere = await patch(`/help-centers/${helpCenter._id}`, { slug: 'theirs', name: 'Not applied' });
    expect(elsewhere.json()).toEqual({ statusCode: 409, message: 'Help center with this slug already exists' });
    expect((await get(`/help-centers/${helpCenter._id}`)).json().data).toMatchObject({
      slug: 'user-guides',
      name: 'User Guides',
    });
  });

  it.each([
    [{}, 'name is required'],
    [{ name: '' }, 'name must be at least 1 characters long'],
    [{ name: '   ' }, 'name must not be blank'],
    [{ name: 'X', isProtected: 'yes' }, 'isProtected must be a boolean'],
    [{ name: 'X', meta: { keywords: 'a' } }, 'meta.keywords is not an accepted field'],
    [{ name: 'X', slug: 'x' }, 'slug is not an accepted field'],
  ])('create rejects %j with a 400, writing nothing', async (payload, message) => {
    const before = await helpCenters();
    const response = await post('/help-centers', payload);
    expect(response.json()).toEqual({ statusCode: 400, message });
    expect(await helpCenters()).toEqual(before);
  });

  it('update rejects bad input with a 400, changing nothing', async () => {
    const helpCenter = (await post('/help-centers', { name: 'Stable' })).json().data;
    for (const [payload, message] of [
      [{ name: '' }, 'name must be at least 1 characters long'],
      [{ name: ' ' }, 'name must not be blank'],
      [{ slug: 'Not A Slug' }, 'slug has an invalid format'],
    ] as const) {
      expect((await patch(`/help-centers/${helpCenter._id}`, payload)).json()).toEqual({ statusCode: 400, message });
    }
    expect((await get(`/help-centers/${helpCenter._id}`)).json().data).toEqual(helpCenter);
  });

  it('a malformed id is a 400; an unknown or foreign one a 404', async () => {
    expect((await get('/help-centers/nope')).json()).toEqual({ statusCode: 400, message: 'id has an invalid format' });
    const unknown = await get('/help-centers/507f1f77bcf86cd799439011');
    expect(unknown.json()).toEqual({ statusCode: 404, message: 'Help center not found' });
    const foreign = (await post('/help-centers', { name: 'Globex Help' }, globex.headers)).json().data;
    expect((await get(`/help-centers/${foreign._id}`)).statusCode).toBe(404);
    const update = await patch(`/help-centers/${foreign._id}`, { name: 'Mine' });
    expect(update.json()).toEqual({ statusCode: 404, message: 'Help center not found' });
    expect((await get(`/help-centers/${foreign._id}`, globex.headers)).json().data.name).toBe('Globex Help');
  });

  /** Every page of `path` by cursor, each page's names. */
  const walk = async (path: string, headers = acme.headers) => {
    const pages: string[][] = [];
    for (let cursor: string | null = ''; cursor !== null && pages.length < 20; ) {
      const response = await get(`${path}${cursor ? `&cursor=${cursor}` : ''}`, headers);
      expect(response.statusCode, response.body).toBe(200);
      pages.push(response.json().data.map((helpCenter: { name: string }) => helpCenter.name));
      cursor = response.json().nextCursor;
    }
    return pages;
  };

  it('pages by cursor, oldest first, each help center once, ties on the creation time by id', async () => {
    const owner = await makeOrganization(harness);
    const names = Array.from({ length: 25 }, (_, index) => `Help ${String(index).padStart(2, '0')}`);
    try {
      for (const [index, name] of names.entries()) {
        // Five help centers per instant: the id breaks the ties.
        harness.clock.advance(index % 5 === 0 ? 1000 : 0);
        expect((await post('/help-centers', { name }, owner.headers)).statusCode).toBe(201);
      }
    } finally {
      harness.clock.set(TEST_NOW);
    }
    const pages = await walk('/help-centers?limit=10', owner.headers);
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(names);
    const whole = (await get('/help-centers?limit=25', owner.headers)).json();
    expect(whole.data.map((helpCenter: { name: string }) => helpCenter.name)).toEqual(names);
    expect(whole.nextCursor).toBeNull();

    // Another organization's cursor pages its own list from that position: nothing of the owner's.
    const first = (await get('/help-centers?limit=10', owner.headers)).json();
    const foreign = (await get(`/help-centers?limit=100&cursor=${first.nextCursor}`, globex.headers)).json();
    expect(foreign.data.every((helpCenter: { orgId: string }) => helpCenter.orgId === globex.organizationId)).toBe(true);
  });

  it.each([
    ['?cursor=not*a*cursor', 'cursor is not a nextCursor this list returned'],
    [
      `?cursor=${Buffer.from('["tag", "507f1f77bcf86cd799439011"]').toString('base64url')}`,
      'cursor is not a nextCursor this list returned',
    ],
    [`?cursor=${Buffer.from('[1, 2, 3]').toString('base64url')}`, 'cursor is not a nextCursor this list returned'],
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=101', 'limit must be at most 100'],
    ['?page=1', 'page is not an accepted field'],
  ])('refuses the list query %s with a 400 naming the parameter', async (query, message) => {
    expect((await get(`/help-centers${query}`)).json()).toEqual({ statusCode: 400, message });
  });
});
