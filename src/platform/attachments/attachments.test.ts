import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp, testConfig } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import type { AttachmentStorageKind } from '../../config.js';
import { connectPostgres } from '../../db/connect.js';
import { contentDisposition } from '../../http/uploads.js';
import { AppError } from '../../lib/errors.js';
import { cleanContentType, cleanFileName, requireAttachments } from './attachment.service.js';
import { CHUNK_BYTES } from './attachment-database.storage.js';

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  content: Buffer | string;
}

const BOUNDARY = '----switchboard-test-boundary';

/** A multipart/form-data body, written out by hand so the test controls every byte. */
function multipart(parts: Part[], options: { truncate?: number } = {}) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType ? `\r\nContent-Type: ${part.contentType}` : '';
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, 'utf8'));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  const payload = Buffer.concat(chunks);
  return {
    payload: options.truncate === undefined ? payload : payload.subarray(0, options.truncate),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

const bytes = (length: number) => Buffer.from(Array.from({ length }, (_, index) => (index * 7) % 256));

const LIMIT = 1_500_000;

/** Disk on both databases; the database store where it can run, on PostgreSQL. */
const STORAGES = DIALECTS.flatMap((dialect) =>
  (dialect === 'postgres' ? ['disk', 'database'] : ['disk']).map(
    (storage) => [dialect, storage as AttachmentStorageKind] as const,
  ),
);

/**
 * An app on `db` (the harness's database, or another pool on it standing for another machine) that
 * keeps files in the database, configured as a PostgreSQL deployment is: with its `DATABASE_URL`.
 */
function databaseInstance(harness: TestApp, env: Record<string, string>, db = harness.db): Promise<FastifyInstance> {
  const config = testConfig({ ...env, DATABASE_URL: harness.url ?? '', ATTACHMENT_STORAGE: 'database' });
  return buildApp({ config, db, clock: harness.clock, ids: harness.ids, log: pino({ level: 'silent' }) });
}

describe.each(STORAGES)('attachments on %s, kept on %s', (dialect, storage) => {
  /** The app under test: the harness as built (disk), or an instance over its database keeping files there. */
  let harness: TestApp;
  /** The harness as built, keeping files on disk in `dataDir`. */
  let diskHarness: TestApp;
  let dataDir: string;
  let env: Record<string, string>;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-attachments-'));
    env = { ATTACHMENT_MAX_BYTES: String(LIMIT), DATA_DIR: dataDir };
    diskHarness = await buildTestApp(dialect, { env });
    harness = diskHarness;
    if (storage === 'database') {
      const app = await databaseInstance(diskHarness, env);
      harness = { ...diskHarness, app, close: async () => app.close() };
    }
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId);
  });
  afterAll(async () => {
    if (harness !== diskHarness) {
      await harness.close();
    }
    await diskHarness.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (parts: Part[], headers: Record<string, string> = acme.headers, app = harness.app) => {
    const body = multipart(parts);
    return app.inject({
      method: 'POST',
      url: '/v1/attachments',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };
  const get = (url: string, headers: Record<string, string> = acme.headers, app = harness.app) => app.inject({ url, headers });
  const organizationDir = (organization: TestOrganization) => join(dataDir, 'attachments', organization.organizationId);
  const storedFiles = (organization: TestOrganization) =>
    existsSync(organizationDir(organization)) ? readdirSync(organizationDir(organization)) : [];
  const chunkRows = () =>
    harness.db.selectFrom('attachment_chunks').select(['attachment_id', 'seq']).orderBy('attachment_id').orderBy('seq').execute();
  /** Everything kept of uploads: files on disk (partial ones included) and chunks in the database. */
  const keptBytes = async () => ({ files: [...storedFiles(acme), ...storedFiles(globex)], chunks: await chunkRows() });
  /** The stored bytes of an attachment, read where this storage keeps them. */
  const storedBytes = async (organization: TestOrganization, id: string) => {
    if (storage === 'disk') {
      return readFileSync(join(organizationDir(organization), id));
    }
    const chunks = await harness.db
      .selectFrom('attachment_chunks')
      .select('data')
      .where('attachment_id', '=', id)
      .orderBy('seq')
      .execute();
    return Buffer.concat(chunks.map((chunk) => chunk.data));
  };

  it('uploads a file (201, envelope, url) and streams the same bytes back with its headers', async () => {
    const content = bytes(1000);
    const response = await upload([{ name: 'file', filename: 'report.bin', contentType: 'application/pdf', content }]);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    const id = body.data.id as string;
    expect(body).toEqual({
      status: true,
      message: 'Success',
      timestamp: TEST_NOW,
      data: {
        id,
        fileName: 'report.bin',
        contentType: 'application/pdf',
        size: 1000,
        url: `http://localhost:3000/v1/attachments/${id}`,
      },
    });
    // Kept where the storage keeps files (on disk named by the id, in the organization's folder),
    // with no temporary file left; the database store writes nothing to disk.
    expect((await storedBytes(acme, id)).equals(content)).toBe(true);
    expect(storedFiles(acme)).toEqual(storage === 'disk' ? [id] : []);

    const download = await get(`/v1/attachments/${id}`, member.headers);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(content)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': '1000',
      'content-disposition': `attachment; filename="report.bin"; filename*=UTF-8''report.bin`,
      'x-content-type-options': 'nosniff',
    });

    const metadata = await get(`/v1/attachments/${id}/metadata`);
    expect(metadata.statusCode).toBe(200);
    expect(metadata.json().data).toEqual({
      ...body.data,
      sha256: createHash('sha256').update(content).digest('hex'),
      uploadedById: acme.userId,
      createdAt: TEST_NOW,
    });
  });

  it('stores a file of several chunks and serves it back byte for byte', async () => {
    const content = randomBytes(4 * CHUNK_BYTES + 5);
    const response = await upload([{ name: 'file', filename: 'big.bin', content }]);
    expect(response.statusCode).toBe(201);
    const { id, size } = response.json().data;
    expect(size).toBe(content.length);
    if (storage === 'database') {
      const chunks = await harness.db
        .selectFrom('attachment_chunks')
        .select(['seq', 'data'])
        .where('attachment_id', '=', id)
        .orderBy('seq')
        .execute();
      expect(chunks.map((chunk) => [chunk.seq, chunk.data.length])).toEqual([
        [0, CHUNK_BYTES],
        [1, CHUNK_BYTES],
        [2, CHUNK_BYTES],
        [3, CHUNK_BYTES],
        [4, 5],
      ]);
    }
    const download = await get(`/v1/attachments/${id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe(String(content.length));
    expect(download.rawPayload.equals(content)).toBe(true);
    expect((await get(`/v1/attachments/${id}/metadata`)).json().data.sha256).toBe(
      createHash('sha256').update(content).digest('hex'),
    );
  });

  it('stores and serves an empty file', async () => {
    const response = await upload([{ name: 'file', filename: 'empty.txt', content: '' }]);
    expect(response.statusCode).toBe(201);
    const download = await get(`/v1/attachments/${response.json().data.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-length']).toBe('0');
    expect(download.rawPayload.length).toBe(0);
  });

  it('keeps a non-ASCII name for display and encodes it safely in content-disposition', async () => {
    const response = await upload([
      { name: 'file', filename: "Résumé d'été (1).txt", contentType: 'text/html', content: 'hello' },
    ]);
    expect(response.statusCode).toBe(201);
    const { id, fileName, contentType } = response.json().data;
    expect(fileName).toBe("Résumé d'été (1).txt");
    expect(contentType).toBe('text/html');
    const download = await get(`/v1/attachments/${id}`);
    expect(download.body).toBe('hello');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="R_sum_ d'_t_ (1).txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20d%27%C3%A9t%C3%A9%20%281%29.txt`,
    );
    // Served as a download that cannot run script in our origin.
    expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('rejects a file over ATTACHMENT_MAX_BYTES with 413 and keeps nothing', async () => {
    const before = await keptBytes();
    const response = await upload([{ name: 'file', filename: 'too-big.bin', content: Buffer.alloc(LIMIT + 1, 'x') }]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      statusCode: 413,
      message: `File is larger than the limit of ${LIMIT} bytes`,
      error: 'Payload Too Large',
    });
    expect(await keptBytes()).toEqual(before);
    const rows = await harness.db.selectFrom('attachments').select('id').where('file_name', '=', 'too-big.bin').execute();
    expect(rows).toEqual([]);
  });

  it('tells a client the limit (ATTACHMENT_MAX_BYTES) to refuse a larger file before sending it; 401 without a key', async () => {
    const response = await get('/v1/attachments/limits', member.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ data: { maxBytes: LIMIT } });
    expect((await get('/v1/attachments/limits', {})).statusCode).toBe(401);
  });

  it('keeps nothing of an upload whose body breaks off mid-file (400)', async () => {
    const before = await keptBytes();
    const body = multipart([{ name: 'file', filename: 'cut.bin', content: randomBytes(4 * CHUNK_BYTES) }], {
      truncate: 3 * CHUNK_BYTES,
    });
    // Sent in pieces, as a network would, so the store has begun writing when the body breaks off.
    const pieces: Buffer[] = [];
    for (let offset = 0; offset < body.payload.length; offset += 64 * 1024) {
      pieces.push(body.payload.subarray(offset, offset + 64 * 1024));
    }
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/attachments',
      headers: { ...acme.headers, ...body.headers },
      payload: Readable.from(pieces),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      message: 'Request body is not valid multipart/form-data',
      error: 'Bad Request',
    });
    expect(await keptBytes()).toEqual(before);
    const rows = await harness.db.selectFrom('attachments').select('id').where('file_name', '=', 'cut.bin').execute();
    expect(rows).toEqual([]);
  });

  it.each([
    [
      'no file part',
      [{ name: 'note', content: 'just text' }],
      'file is required: send the file in a multipart part named "file"',
    ],
    [
      'a file under another name',
      [{ name: 'upload', filename: 'a.txt', content: 'x' }],
      'file is required: send the file in a multipart part named "file"',
    ],
    [
      'an unknown field before the file',
      [
        { name: 'note', content: 'hi' },
        { name: 'file', filename: 'a.txt', content: 'x' },
      ],
      'note is not an accepted field',
    ],
  ])('answers 400 for %s', async (_case, parts, message) => {
    const response = await upload(parts);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
  });

  it('answers 415 for a body that is not multipart, and 401 without a key', async () => {
    const json = await harness.app.inject({
      method: 'POST',
      url: '/v1/attachments',
      headers: acme.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().error).toBe('Unsupported Media Type');
    const anonymous = await upload([{ name: 'file', filename: 'a.txt', content: 'x' }], {});
    expect(anonymous.statusCode).toBe(401);
    expect((await get('/v1/attachments/01JBZZZZZZZZZZZZZZZZZZZZZZ', {})).statusCode).toBe(401);
  });

  it("answers 404 for another organization's attachment and for unknown ids", async () => {
    const { id } = (await upload([{ name: 'file', filename: 'secret.txt', content: 'acme only' }])).json().data;
    for (const url of [`/v1/attachments/${id}`, `/v1/attachments/${id}/metadata`, '/v1/attachments/01JBZZZZZZZZZZZZZZZZZZZZZZ']) {
      const response = await get(url, url.includes(id) ? globex.headers : acme.headers);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message: 'Attachment not found!', error: 'Not Found' });
    }
    expect((await get('/v1/attachments/not-an-id')).statusCode).toBe(400);
  });

  it('requireAttachments returns the named attachments in order and names every unknown id', async () => {
    const first = (await upload([{ name: 'file', filename: 'one.txt', content: '1' }])).json().data;
    const second = (await upload([{ name: 'file', filename: 'two.txt', content: '2' }])).json().data;
    const foreign = (await upload([{ name: 'file', filename: 'other.txt', content: '3' }], globex.headers)).json().data;

    const rows = await requireAttachments(harness.db, acme.organizationId, [second.id, first.id, second.id]);
    expect(rows.map((row) => row.id)).toEqual([second.id, first.id]);
    expect(await requireAttachments(harness.db, acme.organizationId, [])).toEqual([]);

    const missing = '01JBZZZZZZZZZZZZZZZZZZZZZZ';
    const error = await requireAttachments(harness.db, acme.organizationId, [first.id, foreign.id, missing]).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(400);
    expect(error.message).toBe(`attachmentIds contains unknown attachment ids: ${foreign.id}, ${missing}`);
    const nested = await requireAttachments(harness.db, acme.organizationId, [missing], ['comment', 'attachmentIds']).catch(
      (e) => e,
    );
    expect(nested.message).toBe(`comment.attachmentIds contains unknown attachment ids: ${missing}`);
  });

  if (storage === 'database') {
    it('serves a file uploaded through one instance from another on the same database', async () => {
      // Another machine: its own connection pool and its own, empty, data folder.
      const otherDataDir = mkdtempSync(join(tmpdir(), 'switchboard-attachments-'));
      const otherHandle = connectPostgres(harness.url as string, 2);
      const other = await databaseInstance(harness, { ...env, DATA_DIR: otherDataDir }, otherHandle.db);
      try {
        const content = randomBytes(2 * CHUNK_BYTES + 3);
        const response = await upload([{ name: 'file', filename: 'shared.bin', contentType: 'image/png', content }]);
        expect(response.statusCode).toBe(201);
        const { id } = response.json().data;

        const download = await get(`/v1/attachments/${id}`, member.headers, other);
        expect(download.statusCode).toBe(200);
        expect(download.headers).toMatchObject({ 'content-type': 'image/png', 'content-length': String(content.length) });
        expect(download.rawPayload.equals(content)).toBe(true);
        expect((await get(`/v1/attachments/${id}`, globex.headers, other)).statusCode).toBe(404);

        // And the other way round.
        const back = await upload(
          [{ name: 'file', filename: 'back.txt', content: 'from the other machine' }],
          acme.headers,
          other,
        );
        expect((await get(`/v1/attachments/${back.json().data.id}`)).body).toBe('from the other machine');
        expect(readdirSync(otherDataDir)).toEqual([]);
      } finally {
        await other.close();
        await otherHandle.close();
        rmSync(otherDataDir, { recursive: true, force: true });
      }
    });

    it('still serves files kept on disk before the switch to the database', async () => {
      const response = await upload(
        [{ name: 'file', filename: 'old.txt', content: 'kept on disk' }],
        acme.headers,
        diskHarness.app,
      );
      expect(response.statusCode).toBe(201);
      const { id } = response.json().data;
      expect(storedFiles(acme)).toContain(id);
      const download = await get(`/v1/attachments/${id}`);
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe('kept on disk');
    });
  }
});

describe('attachment names and headers', () => {
  it('cleans file names: no paths, control characters or direction overrides', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\me\\notes.txt')).toBe('notes.txt');
    expect(cleanFileName('in\r\nvoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName('')).toBe('file');
    expect([...cleanFileName('é'.repeat(300))]).toHaveLength(255);
  });

  it('keeps a content type only when it is a plain type/subtype', () => {
    expect(cleanContentType('Text/Plain; charset=utf-8')).toBe('text/plain');
    expect(cleanContentType('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(cleanContentType('')).toBe('application/octet-stream');
  });

  it('content-disposition cannot be broken out of', () => {
    const header = contentDisposition('a"; filename=evil.exe\r\nSet-Cookie: x=1');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(
      `attachment; filename="a_; filename=evil.exe__Set-Cookie: x=1"; filename*=UTF-8''a%22%3B%20filename%3Devil.exe%0D%0ASet-Cookie%3A%20x%3D1`,
    );
  });
});
