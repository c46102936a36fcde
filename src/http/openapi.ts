import { pino } from 'pino';
import { buildApp, DOC_FILES, documentsOf } from '../app.js';
import { AREAS, parseConfig } from '../config.js';
import { connectSqlite } from '../db/connect.js';
import { fixedClock } from '../lib/clock.js';

/** The configuration the committed copies under `openapi/` are generated with. */
export const OPENAPI_EXPORT_ENV = { PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' };

/**
 * Builds the app (on a throwaway in-memory database; no query runs) and reads each area's
 * document through its docs route, exactly as a client would. Keyed by file name.
 */
export async function generateOpenApiDocuments(): Promise<Record<string, unknown>> {
  const handle = connectSqlite(':memory:');
  const app = await buildApp({
    config: parseConfig(OPENAPI_EXPORT_ENV),
    db: handle.db,
    clock: fixedClock('2026-01-01T00:00:00.000Z'),
    log: pino({ level: 'silent' }),
  });
  try {
    await app.ready();
    const documents: Record<string, unknown> = {};
    for (const name of documentsOf(AREAS)) {
      const response = await app.inject({ url: `/docs/${DOC_FILES[name]}` });
      documents[DOC_FILES[name]] = response.json();
    }
    return documents;
  } finally {
    await app.close();
    await handle.close();
  }
}

export function serializeDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
