import { sql } from 'kysely';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization } from '../../../test/factories.js';
import { createTestDatabase, TEST_NOW } from '../../../test/harness.js';
import { connectPostgres, type DatabaseHandle } from '../../db/connect.js';
import { fixedClock } from '../../lib/clock.js';
import { createIdFactory } from '../../lib/ids.js';
import { takeEventSeqs } from './event.repository.js';
import { createEventSignal, type EventSignal } from './event.signal.js';

/**
 * The signal on its own, on a database of its own (no other process watches it): which process
 * watches, taking over when it stops, and listening again after a lost session. The stream's tests
 * cover what readers do with it.
 */
describe.each(DIALECTS)('event signal on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  async function setUp() {
    const database = await createTestDatabase(dialect);
    cleanups.push(database.drop);
    const clock = fixedClock(TEST_NOW);
    const organization = await makeOrganization({ db: database.db, clock, ids: createIdFactory(clock) });
    /** A second process's connections: on PostgreSQL a pool of its own; SQLite is one process's file. */
    let other: DatabaseHandle['db'] = database.db;
    if (database.url) {
      const handle = connectPostgres(database.url, 2);
      cleanups.push(() => handle.close());
      other = handle.db;
    }
    const write = () => database.db.transaction().execute((trx) => takeEventSeqs(trx, organization.organizationId, 1));
    return { database, organizationId: organization.organizationId, other, write };
  }

  function watch(db: DatabaseHandle['db']) {
    const signal: EventSignal = createEventSignal({
      db,
      config: { EVENT_WATCH_INTERVAL_MS: 20 },
      log: pino({ level: 'silent' }),
    });
    const heard: (string | null)[] = [];
    const waiters = new Set<() => void>();
    signal.subscribe((organizationId) => {
      heard.push(organizationId);
      for (const waiter of [...waiters]) {
        waiter();
      }
    });
    let closed = false;
    const close = async () => {
      if (!closed) {
        closed = true;
        await signal.close();
      }
    };
    cleanups.push(close);
    /** Waits until `count` signals for `organizationId` (null: "look at everything") have come. */
    const until = (organizationId: string | null, count = 1) =>
      waitFor(() => heard.filter((heardId) => heardId === organizationId).length >= count, `${count} × ${organizationId}`);
    /**
     * Waits until the signal has told of `organizationId` since `mark` (a length of `heard`), by its
     * id or by "look at everything", which a watcher that has just taken the watch over sends.
     */
    const told = (organizationId: string, mark: number, byIdOnly = false) =>
      waitFor(
        () => heard.slice(mark).some((heardId) => heardId === organizationId || (heardId === null && !byIdOnly)),
        organizationId,
      );
    const waitFor = (holds: () => boolean, label: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (holds()) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => reject(new Error(`no signal: ${label}; heard ${heard.join(',')}`)), 10_000);
        waiters.add(check);
        check();
      });
    return { heard, until, told, close, mark: () => heard.length };
  }

  it('tells every process when an organization writes events, whichever process wrote them', async () => {
    const { database, organizationId, other, write } = await setUp();
    const first = watch(database.db);
    const second = watch(other);
    await Promise.all([first.until(null), second.until(null)]);
    for (let round = 0; round < 3; round++) {
      const marks = [first.mark(), second.mark()] as const;
      await write();
      await Promise.all([first.told(organizationId, marks[0]), second.told(organizationId, marks[1])]);
    }
    // Once the watcher has seen the organization, its writes are told by its id.
    const mark = first.mark();
    await write();
    await first.told(organizationId, mark, true);
  });

  it.runIf(dialect === 'postgres')('has another process watch when the watching one stops', async () => {
    const { database, organizationId, other, write } = await setUp();
    const watching = watch(database.db);
    // Listening, then the watcher's first "look at everything": it holds the watch.
    await watching.until(null, 2);
    const next = watch(other);
    await next.until(null, 1);
    let mark = next.mark();
    await write();
    await next.told(organizationId, mark);
    await watching.close();
    mark = next.mark();
    await write();
    await next.told(organizationId, mark);
  });

  it.runIf(dialect === 'postgres')(
    'listens again after losing its session, telling its readers to look at everything',
    async () => {
      const { database, organizationId, write } = await setUp();
      const signal = watch(database.db);
      await signal.until(null, 2);
      const ended = await sql<{ ended: boolean }>`
      select pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = current_database() and application_name = 'switchboard switchboard_events'`.execute(database.db);
      expect(ended.rows.map((row) => row.ended)).toEqual([true]);
      // Listening again: readers look at everything.
      await signal.until(null, 3);
      const mark = signal.mark();
      await write();
      await signal.told(organizationId, mark);
    },
  );

  it("tells its eager listeners of this process's own writes at once, the others only at the next watch", async () => {
    const { database, organizationId } = await setUp();
    const signal = createEventSignal({
      db: database.db,
      config: { EVENT_WATCH_INTERVAL_MS: 60_000 },
      log: pino({ level: 'silent' }),
    });
    cleanups.push(() => signal.close());
    const eager: (string | null)[] = [];
    const batched: (string | null)[] = [];
    signal.subscribe((id) => eager.push(id), { eagerly: true });
    signal.subscribe((id) => batched.push(id));
    const before = { eager: eager.length, batched: batched.length };
    signal.wroteHere(organizationId);
    expect(eager.slice(before.eager)).toEqual([organizationId]);
    expect(batched.slice(before.batched)).toEqual([]);
    await signal.close();
    signal.wroteHere(organizationId);
    expect(eager.slice(before.eager)).toEqual([organizationId]);
  });

  it.runIf(dialect === 'postgres')(
    "tells another process's eager listeners of a write at once, in one notification of the writer's, never twice here",
    async () => {
      const { database, organizationId, other } = await setUp();
      const secondOrganization = (
        await makeOrganization({ db: database.db, clock: fixedClock(TEST_NOW), ids: createIdFactory(fixedClock(TEST_NOW)) })
      ).organizationId;
      // A watch too slow to matter: only the writer's own notification can tell in time.
      const open = (db: DatabaseHandle['db']) => {
        const signal = createEventSignal({ db, config: { EVENT_WATCH_INTERVAL_MS: 60_000 }, log: pino({ level: 'silent' }) });
        cleanups.push(() => signal.close());
        const eager: (string | null)[] = [];
        const batched: (string | null)[] = [];
        signal.subscribe((id) => eager.push(id), { eagerly: true });
        signal.subscribe((id) => batched.push(id));
        return { signal, eager, batched, ofOrganizations: (heard: (string | null)[]) => heard.filter((id) => id !== null) };
      };
      const writer = open(database.db);
      const reader = open(other);
      // Both listen (the "look at everything" of a started session) before the write.
      await expect.poll(() => writer.eager.length + reader.eager.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      const startedAt = performance.now();
      writer.signal.wroteHere(organizationId);
      writer.signal.wroteHere(secondOrganization);
      writer.signal.wroteHere(organizationId);
      await expect
        .poll(() => reader.ofOrganizations(reader.eager).sort(), { timeout: 5_000, interval: 5 })
        .toEqual([organizationId, secondOrganization].sort());
      expect(performance.now() - startedAt).toBeLessThan(2_000);
      // The writer's own listeners heard each write once, at once; nobody's batched listeners heard a thing.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(writer.ofOrganizations(writer.eager)).toEqual([organizationId, secondOrganization, organizationId]);
      expect(reader.ofOrganizations(reader.eager).sort()).toEqual([organizationId, secondOrganization].sort());
      expect([...writer.ofOrganizations(writer.batched), ...reader.ofOrganizations(reader.batched)]).toEqual([]);
    },
  );
});
