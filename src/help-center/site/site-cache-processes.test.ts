import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeTeam } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, type TestApp } from '../../../test/harness.js';
import { makeSiteFixture, type SiteFixture, textsOf } from '../../../test/help-center-site.js';
import { buildApp, depsOfApp } from '../../app.js';
import { createEventSignal, type EventSignal } from '../../platform/events/event.signal.js';
import { helpCenterSitePlugin } from './site.plugin.js';
import { ANONYMOUS, type SiteViewer } from './site.service.js';
import { siteDepsOf, siteSignInDepsOf } from './site-deps.js';
import { createSitePageCache, type SitePageCache } from './site-page-cache.js';

const WATCH_MS = 20;
const SIGNED_IN: SiteViewer = { contact: { id: 'contact-1', email: 'pat@customer.test', name: 'Pat' } };

/** Polls `url` on `app` until `done` holds of its answer; answers how long that took. */
async function waitFor(app: FastifyInstance, url: string, done: (body: string, status: number) => boolean): Promise<number> {
  const started = Date.now();
  for (;;) {
    const response = await app.inject({ method: 'GET', url });
    if (done(response.body, response.statusCode)) {
      return Date.now() - started;
    }
    if (Date.now() - started > 5_000) {
      throw new Error(`${url} did not change: ${response.statusCode}`);
    }
    await sleep(5);
  }
}

/** Two processes on one database; a site whose reader may be signed in; the cache's bounds. */
describe.each(DIALECTS)('the public site cache across processes on %s', (dialect) => {
  let harness: TestApp;
  let site: SiteFixture;
  let other: FastifyInstance;
  let closeOther: () => Promise<void>;
  const page = (path = '/') => `/hc/${site.slug}${path}`;
  const behindTheCache = (description: string) =>
    harness.db
      .updateTable('help_centers')
      .set({ meta: JSON.stringify({ title: null, description, image: null }) })
      .where('id', '=', site.helpCenterId)
      .execute();

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { EVENT_WATCH_INTERVAL_MS: String(WATCH_MS) } });
    site = await makeSiteFixture(harness, `Acme Help ${dialect}`);
    if (dialect === 'postgres') {
      // A second process: its own pool, its own listening session.
      const processes = await serverProcesses(harness);
      other = processes.apps[1] as FastifyInstance;
      closeOther = processes.close;
    } else {
      // One SQLite file, a second app: its own watcher reads the file's log.
      other = await buildApp({ config: harness.config, db: harness.db, clock: harness.clock, log: pino({ level: 'silent' }) });
      closeOther = () => other.close();
    }
  });
  afterAll(async () => {
    await closeOther?.();
    await harness?.close();
  });

  it("shows a change made through one process on the other's pages within the signal interval", async () => {
    const article = page(`/articles/${site.refunds.slug}`);
    expect(textsOf((await other.inject({ method: 'GET', url: page('/') })).body, 'h1')).toEqual([`Acme Help ${dialect}`]);
    expect((await other.inject({ method: 'GET', url: article })).statusCode).toBe(200);
    await behindTheCache('Changed behind the cache.');
    expect((await other.inject({ method: 'GET', url: page('/') })).body).toContain('Answers from the Acme team.');

    const renamed = await site.call('PATCH', `/help-centers/${site.helpCenterId}`, { name: 'Acme Knowledge' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const took = await waitFor(other, page('/'), (body) => textsOf(body, 'h1')[0] === 'Acme Knowledge');
    // The whole page was rendered again, not patched: the change made behind the cache is on it too.
    expect((await other.inject({ method: 'GET', url: page('/') })).body).toContain('Changed behind the cache.');
    expect(took).toBeLessThan(1_500);

    expect((await site.call('POST', `/articles/${site.refunds._id}/unpublish`)).statusCode).toBe(200);
    expect(await waitFor(other, article, (_body, status) => status === 404)).toBeLessThan(1_500);
    expect((await site.call('POST', `/articles/${site.refunds._id}/publish`)).statusCode).toBe(200);
    expect(await waitFor(other, article, (_body, status) => status === 200)).toBeLessThan(1_500);

    const billing = page(`/collections/${site.billing.uid}-billing`);
    expect((await other.inject({ method: 'GET', url: billing })).statusCode).toBe(200);
    const moved = await site.call('PATCH', `/collections/${site.billing._id}`, { name: 'Payments' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await waitFor(other, billing, (_body, status) => status === 301)).toBeLessThan(1_500);
  });

  describe('a site with a signed-in reader and a cache of its own', () => {
    let app: FastifyInstance;
    let signal: EventSignal;
    let pages: SitePageCache;

    beforeAll(async () => {
      signal = createEventSignal({ db: harness.db, config: harness.config, log: pino({ level: 'silent' }) });
      pages = createSitePageCache({
        db: harness.db,
        config: { SITE_CACHE_MAX_PAGES: 3, SITE_CACHE_MAX_BYTES: 64 * 1024 * 1024 },
        signal,
        log: pino({ level: 'silent' }),
        now: () => harness.clock.now().getTime(),
      });
      const appDeps = depsOfApp(harness.app);
      const signIn = siteSignInDepsOf(appDeps);
      app = Fastify();
      await app.register(
        helpCenterSitePlugin(
          {
            ...siteDepsOf(appDeps, signIn),
            pages,
            // Stands in for a contact's session: the contact, or anyone.
            viewerOf: async (request) => (request.headers.cookie === 'hc_session=pat' ? SIGNED_IN : ANONYMOUS),
          },
          signIn,
        ),
        { prefix: '/hc' },
      );
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      pages?.close();
      await signal?.close();
    });

    const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

    it("never serves a signed-in contact's page from the anonymous cache, nor keeps it", async () => {
      const anonymous = await get(page('/'));
      expect(textsOf(anonymous.body, 'h2')).not.toContain('Partners');
      const held = pages.stats.pages;
      const signedIn = await get(page('/'), 'hc_session=pat');
      expect(signedIn.statusCode).toBe(200);
      expect(textsOf(signedIn.body, 'h2')).toContain('Partners');
      expect(signedIn.headers['cache-control']).toBe('private, no-store');
      expect(signedIn.headers.vary).toBe('Cookie');
      expect(pages.stats.pages).toBe(held);
      // A personal page is read afresh each time.
      await harness.db.updateTable('help_centers').set({ name: 'Fresh name' }).where('id', '=', site.helpCenterId).execute();
      expect(textsOf((await get(page('/'), 'hc_session=pat')).body, 'h1')).toEqual(['Fresh name']);
      expect(textsOf((await get(page('/'))).body, 'h2')).not.toContain('Partners');
      const renamed = await site.call('PATCH', `/help-centers/${site.helpCenterId}`, { name: `Acme Help ${dialect}` });
      expect(renamed.statusCode).toBe(200);
      await waitFor(app, page('/'), (body) => textsOf(body, 'h1')[0] === `Acme Help ${dialect}`);
    });

    it('holds at most its number of pages, least recently used out first', async () => {
      for (const path of ['/', `/articles/${site.install.slug}`, `/articles/${site.refunds.slug}`, '/search?q=refunds']) {
        expect((await get(page(path))).statusCode, path).toBe(200);
      }
      expect(pages.stats.pages).toBe(3);
      expect(pages.stats.bytes).toBeGreaterThan(3 * 1024);
    });

    it('reads only the site events of a flood of ticket events, and forgets nothing for them', async () => {
      const desk = await makeTeam(harness, site.acme, { name: 'Desk', identifier: 'DESK' });
      expect((await get(page('/'))).statusCode).toBe(200);
      const before = { ...pages.stats };
      for (let n = 0; n < 20; n += 1) {
        const ticket = await site.call('POST', '/v1/tickets', {
          title: `Printer ${n}`,
          requestorEmail: 'pat@customer.test',
          teamId: desk.teamId,
        });
        expect(ticket.statusCode, ticket.body).toBe(201);
        await sleep(WATCH_MS);
      }
      await sleep(WATCH_MS * 5);
      const after = pages.stats;
      // The log was read as it grew, and nothing was forgotten.
      expect(after.checks - before.checks).toBeGreaterThan(3);
      expect(after.forgotten).toBe(before.forgotten);
      expect(after.pages).toBe(before.pages);
    });
  });
});
