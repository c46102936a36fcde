import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

describe.each(DIALECTS)('attachments of private notes on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let author: Awaited<ReturnType<typeof makeUser>>;
  let reader: Awaited<ReturnType<typeof makeUser>>;
  let attachmentId: string;
  let publicAttachmentId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    author = await makeUser(harness, acme.organizationId, { name: 'Ann Author' });
    reader = await makeUser(harness, acme.organizationId, { name: 'Ray Reader' });
    const account = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/accounts',
        headers: acme.headers,
        payload: { name: 'Initech', primaryDomain: 'initech.test' },
      })
    ).json();
    const note = async (visibility: string, url: string) =>
      (
        await harness.app.inject({
          method: 'POST',
          url: '/v1/accounts/notes',
          headers: author.headers,
          payload: { accountId: account.id, content: `${visibility} note`, visibility, attachmentUrls: [url] },
        })
      ).json();
    attachmentId = (await note('private', 'https://files.test/secret.pdf')).attachments[0];
    publicAttachmentId = (await note('public', 'https://files.test/open.pdf')).attachments[0];
  });
  afterAll(() => harness.close());

  it('are hidden from other members like the note itself, but not from its author or admins', async () => {
    for (const url of [`/v1/attachments/${attachmentId}`, `/v1/attachments/${attachmentId}/metadata`]) {
      const hidden = await harness.app.inject({ url, headers: reader.headers });
      expect(hidden.statusCode, url).toBe(404);
      expect(hidden.json()).toEqual({ statusCode: 404, message: 'Attachment not found!', error: 'Not Found' });
      expect((await harness.app.inject({ url, headers: author.headers })).statusCode, url).not.toBe(404);
      expect((await harness.app.inject({ url, headers: acme.headers })).statusCode, url).not.toBe(404);
    }
    const open = await harness.app.inject({ url: `/v1/attachments/${publicAttachmentId}/metadata`, headers: reader.headers });
    expect(open.statusCode).toBe(200);
  });
});
