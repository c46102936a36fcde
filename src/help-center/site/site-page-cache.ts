import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { EventSignal } from '../../platform/events/event.signal.js';
import { lastEventSeq, readEventBatch } from '../../platform/events/event-log.service.js';
import { HELP_CENTER_SITE_EVENT_TYPES } from '../../shared/event-types.js';

/** A rendered page as it is sent again: its bytes and the headers that describe them. */
export interface CachedPage {
  organizationId: string;
  status: number;
  body: Buffer;
  etag: string;
  /** Milliseconds, whole seconds (what `Last-Modified` can say). */
  lastModified: number;
  styleHash: string;
  cacheControl: string;
}

/** Handed out before a page's data is read; the page is kept only if nothing changed for its organization meanwhile. */
export interface RenderTicket {
  readonly organizationId: string;
  readonly state: OrganizationState;
  readonly generation: number;
}

/**
 * Rendered pages of the public site for anonymous readers, in this process's memory: a least
 * recently used list bounded by count and bytes. An organization's pages are forgotten when its
 * event log holds a change the site shows (`HELP_CENTER_SITE_EVENT_TYPES`), whichever process made
 * it: the event signal says when its log grew, and the cache reads only those types after the last
 * number it saw (an index seek), so a flood of ticket events costs a read per signal and forgets
 * nothing. A change made through this process is forgotten before its answer leaves
 * (`changed`, from the help center API's hook).
 */
export interface SitePageCache {
  readonly enabled: boolean;
  get(key: string): CachedPage | undefined;
  /** Call before reading what the page shows. */
  begin(organizationId: string): Promise<RenderTicket>;
  /** Keeps the page unless its organization's pages were forgotten since `ticket` was taken. */
  store(ticket: RenderTicket, key: string, page: CachedPage): void;
  /** The latest change this process has seen in the organization's site (ms), 0 when none. */
  changedAt(organizationId: string): number;
  /**
   * A change of the organization's site has committed in this process: its pages are forgotten and
   * its log read past the change, so the signal that follows forgets nothing more. Never fails.
   */
  changed(organizationId: string): Promise<void>;
  readonly stats: { pages: number; bytes: number; forgotten: number; checks: number };
  close(): void;
}

export interface SitePageCacheDeps {
  db: Kysely<DB>;
  config: Pick<Config, 'SITE_CACHE_MAX_PAGES' | 'SITE_CACHE_MAX_BYTES'>;
  signal: EventSignal;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now(): number;
}

/** What the cache knows of an organization's log. */
interface OrganizationState {
  /** Events up to this number are reflected in the cached pages; null until the first read. */
  seenSeq: number | null;
  ready: Promise<void>;
  /** Goes up whenever the organization's pages are forgotten: renders that began before are not kept. */
  generation: number;
  checking: Promise<void> | null;
  checkAgain: boolean;
  changedAt: number;
}

/** Events read per check: more means a second check at once (everything was forgotten anyway). */
const CHECK_BATCH = 100;

/**
 * A new organization's state: its log's last number is read before any page's data, so an event
 * after it is checked when signalled. `failed` runs when it cannot be read.
 */
function readSeenSeq(db: Kysely<DB>, organizationId: string, failed: () => void): OrganizationState {
  const state: OrganizationState = {
    seenSeq: null,
    ready: Promise.resolve(),
    generation: 0,
    checking: null,
    checkAgain: false,
    changedAt: 0,
  };
  state.ready = lastEventSeq(db, organizationId).then(
    (seq) => {
      state.seenSeq = seq;
    },
    (error: unknown) => {
      failed();
      throw error;
    },
  );
  return state;
}

export function createSitePageCache(deps: SitePageCacheDeps): SitePageCache {
  const { SITE_CACHE_MAX_PAGES: maxPages, SITE_CACHE_MAX_BYTES: maxBytes } = deps.config;
  const enabled = maxPages > 0 && maxBytes > 0;
  const pages = new LRUCache<string, CachedPage>({
    max: Math.max(maxPages, 1),
    maxSize: Math.max(maxBytes, 1),
    sizeCalculation: (page) => page.body.length + 512,
  });
  const organizations = new Map<string, OrganizationState>();
  const stats = { forgotten: 0, checks: 0 };
  let unsubscribe: (() => void) | null = null;

  function forget(organizationId: string, state: OrganizationState | undefined): void {
    if (state) {
      state.generation += 1;
      state.changedAt = Math.max(state.changedAt, deps.now());
    }
    const keys = [...pages.entries()].filter(([, page]) => page.organizationId === organizationId).map(([key]) => key);
    for (const key of keys) {
      pages.delete(key);
    }
    stats.forgotten += keys.length;
  }

  /** Reads the site's events after the last number seen; forgets the organization's pages when there is one. */
  async function checkOnce(organizationId: string, state: OrganizationState): Promise<void> {
    stats.checks += 1;
    const afterSeq = state.seenSeq ?? 0;
    const batch = await readEventBatch(deps.db, organizationId, {
      types: HELP_CENTER_SITE_EVENT_TYPES,
      afterSeq,
      limit: CHECK_BATCH,
    });
    if (batch.events.length > 0) {
      forget(organizationId, state);
      for (const event of batch.events) {
        state.changedAt = Math.max(state.changedAt, Date.parse(String(event.occurred_at)) || 0);
      }
      state.checkAgain ||= batch.events.length === CHECK_BATCH;
    }
    state.seenSeq = Math.max(afterSeq, batch.nextSeq);
  }

  /** Reads the organization's log now (once more if a read is under way); never fails. */
  function check(organizationId: string): Promise<void> {
    const state = organizations.get(organizationId);
    if (!state) {
      return Promise.resolve();
    }
    if (state.checking) {
      state.checkAgain = true;
      return state.checking;
    }
    state.checking = (async () => {
      try {
        await state.ready;
        do {
          state.checkAgain = false;
          await checkOnce(organizationId, state);
        } while (state.checkAgain);
      } catch (error) {
        // Unsure what changed: forget the pages, and read the log afresh at the next page.
        deps.log.warn({ err: error, organizationId }, 'reading the event log for the site cache failed');
        organizations.delete(organizationId);
        forget(organizationId, state);
      } finally {
        state.checking = null;
      }
    })();
    return state.checking;
  }

  function listen(): void {
    unsubscribe ??= deps.signal.subscribe((organizationId) => {
      // Null: any log may have grown (listening has just begun or resumed): look at each we hold pages of.
      for (const id of organizationId === null ? [...organizations.keys()] : [organizationId]) {
        void check(id);
      }
    });
  }

  function stateOf(organizationId: string): OrganizationState {
    let state = organizations.get(organizationId);
    if (!state) {
      state = readSeenSeq(deps.db, organizationId, () => organizations.delete(organizationId));
      organizations.set(organizationId, state);
    }
    return state;
  }

  return {
    enabled,
    get: (key) => (enabled ? pages.get(key) : undefined),
    async begin(organizationId) {
      listen();
      const state = stateOf(organizationId);
      const generation = state.generation;
      await state.ready;
      return { organizationId, state, generation };
    },
    store(ticket, key, page) {
      const state = organizations.get(ticket.organizationId);
      if (enabled && state === ticket.state && state.generation === ticket.generation) {
        pages.set(key, page);
      }
    },
    changedAt: (organizationId) => organizations.get(organizationId)?.changedAt ?? 0,
    changed(organizationId) {
      forget(organizationId, organizations.get(organizationId));
      return check(organizationId);
    },
    get stats() {
      return { pages: pages.size, bytes: pages.calculatedSize, ...stats };
    },
    close() {
      unsubscribe?.();
      unsubscribe = null;
      pages.clear();
      organizations.clear();
    },
  };
}
