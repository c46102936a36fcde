import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { AppError } from '../../http/errors.js';
import { contentDisposition } from './attachment.routes.js';
import { cleanContentType, cleanFileName, requireAttachments } from './attachment.service.js';

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

describe.each(DIALECTS)('attachments on %s', (dialect) => {
  let harness: TestApp;
  let dataDir: string;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-attachments-'));
    harness = await buildTestApp(dialect, { env: { ATTACHMENT_MAX_BYTES: '1000', DATA_DIR: dataDir } });
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    member = await makeUser(harness, acme.organizationId);
  });
  afterAll(async () => {
    await harness.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (parts: Part[], headers: Record<string, string> = acme.headers, options: { truncate?: number } = {}) => {
    const body = multipart(parts, options);
    return harness.app.inject({
      method: 'POST',
      url: '/v1/attachments',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };
  const get = (url: string, headers: Record<string, string> = acme.headers) => harness.app.inject({ url, headers });
  const organizationDir = (organization: TestOrganization) => join(dataDir, 'attachments', organization.organizationId);
  const storedFiles = (organization: TestOrganization) =>
    existsSync(organizationDir(organization)) ? readdirSync(organizationDir(organization)) : [];

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
    // On disk in the organization's folder, named by the id, with no temporary file left.
    expect(readdirSync(organizationDir(acme))).toContain(id);
    expect(readFileSync(join(organizationDir(acme), id)).equals(content)).toBe(true);
    expect(storedFiles(acme).filter((name) => name.endsWith('.partial'))).toEqual([]);

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
    const before = storedFiles(acme);
    const response = await upload([{ name: 'file', filename: 'big.bin', content: bytes(1001) }]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      statusCode: 413,
      message: 'File is larger than the limit of 1000 bytes',
      error: 'Payload Too Large',
    });
    expect(storedFiles(acme)).toEqual(before);
    const rows = await harness.db.selectFrom('attachments').select('id').where('file_name', '=', 'big.bin').execute();
    expect(rows).toEqual([]);
  });

  it('removes the partial file when the body breaks off mid-file (400)', async () => {
    const before = storedFiles(acme);
    const response = await upload([{ name: 'file', filename: 'cut.bin', content: bytes(800) }], acme.headers, { truncate: 500 });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      message: 'Request body is not valid multipart/form-data',
      error: 'Bad Request',
    });
    expect(storedFiles(acme)).toEqual(before);
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
