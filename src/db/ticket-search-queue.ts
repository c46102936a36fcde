import type Database from 'better-sqlite3';

/**
 * SQLite: indexes the ticket search documents queued since the last commit (the
 * `2026-11-30T1600_ticket_search_queue` migration) into the FTS5 index, in one statement, so FTS5
 * writes one segment for all of them. Run on the connection's open transaction just before its
 * COMMIT, and after any write made outside a transaction (which committed on its own), so that a
 * search after a write is answered from an index that holds it.
 *
 * Synchronous, on the connection's own handle: its caller holds the connection.
 */
export interface TicketSearchQueue {
  index(): void;
}

const QUEUE_EXISTS = `select 1 from sqlite_master where type = 'table' and name = 'ticket_search_pending'`;
const ANY_QUEUED = 'select 1 from ticket_search_pending limit 1';
const INDEX_QUEUED = `insert into ticket_search (rowid, title, body)
  select d.id, d.title, d.body from ticket_search_pending p join ticket_search_documents d on d.id = p.id order by p.id`;
const EMPTY_QUEUE = 'delete from ticket_search_pending';

export function ticketSearchQueueOf(sqlite: Database.Database): TicketSearchQueue {
  // Prepared once the migration made the queue: before that (a new database migrating) there is none.
  let prepared: (() => void) | null = null;
  const prepare = () => {
    const anyQueued = sqlite.prepare(ANY_QUEUED).pluck();
    const indexQueued = sqlite.prepare(INDEX_QUEUED);
    const emptyQueue = sqlite.prepare(EMPTY_QUEUE);
    const indexAll = () => {
      indexQueued.run();
      emptyQueue.run();
    };
    // Outside a transaction the two statements become one, so no search sees the queue half indexed.
    const indexAllAtOnce = sqlite.transaction(indexAll);
    return () => {
      if (anyQueued.get() === undefined) {
        return;
      }
      if (sqlite.inTransaction) {
        indexAll();
      } else {
        indexAllAtOnce();
      }
    };
  };
  return {
    index() {
      if (!prepared) {
        if (sqlite.prepare(QUEUE_EXISTS).get() === undefined) {
          return;
        }
        prepared = prepare();
      }
      try {
        prepared();
      } catch (error) {
        // Migrated down past the queue (tests do): nothing is queued any more.
        if (sqlite.prepare(QUEUE_EXISTS).get() !== undefined) {
          throw error;
        }
        prepared = null;
      }
    },
  };
}
