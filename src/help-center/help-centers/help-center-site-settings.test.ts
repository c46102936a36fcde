import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { createAttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { findHelpCenterByDomain, findHelpCenterBySlug, listCustomDomains, readHelpCenterLogo } from './help-center.service.js';

const BOUNDARY = '----switchboard-logo-boundary';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]);
const DEFAULT_THEME = { logoAttachmentId: null, primaryColor: '#2563eb', footerLinks: [] };
const DOMAIN_TAKEN = { statusCode: 409, message: 'Custom domain is already used by another help center' };

describe.each(DIALECTS)('help center addresses and theme on %s', (dialect) => {
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
  const helpCenter = async (name: string, headers = acme.headers) => {
    const response = await post('/help-centers', { name }, headers);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { _id: string; slug: string; customDomain: string | null };
  };
  const upload = async (fileName: string, contentType: string, content: Buffer, headers = acme.headers) => {
    const payload = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/attachments',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as string;
  };

  it('sets a custom domain (lower-case, without the trailing dot), shows it in every answer, and removes it with null', async () => {
    const { _id: id } = await helpCenter('Domain Help');
    const set = await patch(`/help-centers/${id}`, { customDomain: '  Help.Acme-Corp.TEST. ' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ customDomain: 'help.acme-corp.test', theme: DEFAULT_THEME });
    expect((await get(`/help-centers/${id}`)).json().data.customDomain).toBe('help.acme-corp.test');
    const listed = (await get('/help-centers?limit=100')).json().data as { _id: string; customDomain: string | null }[];
    expect(listed.find((entry) => entry._id === id)?.customDomain).toBe('help.acme-corp.test');

    expect((await findHelpCenterByDomain(harness.db, 'HELP.acme-corp.test:443'))?.id).toBe(id);
    expect((await findHelpCenterByDomain(harness.db, 'help.acme-corp.test.'))?.id).toBe(id);
    expect(await findHelpCenterByDomain(harness.db, 'other.acme-corp.test')).toBeUndefined();
    expect(await listCustomDomains(harness.db)).toContainEqual({
      domain: 'help.acme-corp.test',
      helpCenterId: id,
      organizationId: acme.organizationId,
      slug: 'domain-help',
    });

    const removed = await patch(`/help-centers/${id}`, { customDomain: null });
    expect(removed.json().data.customDomain).toBeNull();
    expect(await findHelpCenterByDomain(harness.db, 'help.acme-corp.test')).toBeUndefined();
    expect((await listCustomDomains(harness.db)).map((entry) => entry.helpCenterId)).not.toContain(id);
  });

  it('a custom domain names one help center of the instance: 409 in another organization, nothing else written', async () => {
    const mine = await helpCenter('Taken Domain');
    const theirs = await helpCenter('Wants Domain', globex.headers);
    const sibling = await helpCenter('Sibling');
    expect((await patch(`/help-centers/${mine._id}`, { customDomain: 'support.shared.test' })).statusCode).toBe(200);
    const before = (await get(`/help-centers/${theirs._id}`, globex.headers)).json().data;

    const clash = await patch(
      `/help-centers/${theirs._id}`,
      { customDomain: 'SUPPORT.shared.test', name: 'Renamed' },
      globex.headers,
    );
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual(DOMAIN_TAKEN);
    expect((await patch(`/help-centers/${sibling._id}`, { customDomain: 'support.shared.test' })).json()).toEqual(DOMAIN_TAKEN);
    expect((await get(`/help-centers/${theirs._id}`, globex.headers)).json().data).toEqual(before);

    // Setting the domain a help center already has is no clash; once released, another may take it.
    expect((await patch(`/help-centers/${mine._id}`, { customDomain: 'support.shared.test' })).statusCode).toBe(200);
    await patch(`/help-centers/${mine._id}`, { customDomain: null });
    const taken = await patch(`/help-centers/${theirs._id}`, { customDomain: 'support.shared.test' }, globex.headers);
    expect(taken.json().data.customDomain).toBe('support.shared.test');
  });

  it('two organizations racing for one domain: one gets it, the other a 409', async () => {
    const first = await helpCenter('Race A');
    const second = await helpCenter('Race B', globex.headers);
    const responses = await Promise.all([
      patch(`/help-centers/${first._id}`, { customDomain: 'race.example.test' }),
      patch(`/help-centers/${second._id}`, { customDomain: 'race.example.test' }, globex.headers),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.statusCode === 409)?.json()).toEqual(DOMAIN_TAKEN);
    const holders = (await listCustomDomains(harness.db)).filter((entry) => entry.domain === 'race.example.test');
    expect(holders).toHaveLength(1);
  });

  it.each([
    ['https://help.acme.test', 'must be a host name without a scheme (help.example.com, not https://help.example.com)'],
    ['help.acme.test/docs', 'must be a host name without a path'],
    ['help.acme.test:8080', 'must be a host name without a port'],
    ['192.168.1.10', 'must be a host name, not an IP address'],
    ['[::1]', 'must be a host name, not an IP address'],
    ['::1', 'must be a host name, not an IP address'],
    ['10.0.0.300', 'must be a host name, not an IP address'],
    ['localhost', 'must have at least two labels (help.example.com)'],
    ['help..acme.test', 'must be labels of letters, digits and hyphens (at most 63 each) joined by dots'],
    ['-help.acme.test', 'must be labels of letters, digits and hyphens (at most 63 each) joined by dots'],
    ['help_desk.acme.test', 'must be labels of letters, digits and hyphens (at most 63 each) joined by dots'],
    ['hilfe.bücher.test', 'must be labels of letters, digits and hyphens (at most 63 each) joined by dots'],
    [`${'a'.repeat(64)}.test`, 'must be labels of letters, digits and hyphens (at most 63 each) joined by dots'],
    ['', 'must be labels of letters, digits and hyphens (at most 63 each) joined by dots'],
    [`${`${'a'.repeat(63)}.`.repeat(4)}test`, 'must be at most 253 characters long'],
  ])('refuses the custom domain %j with a 400 naming the field, writing nothing', async (customDomain, message) => {
    const { _id: id } = await helpCenter('Bad Domain');
    const before = (await get(`/help-centers/${id}`)).json().data;
    const response = await patch(`/help-centers/${id}`, { customDomain, name: 'Not applied' });
    expect(response.json()).toEqual({ statusCode: 400, message: `customDomain ${message}` });
    expect((await get(`/help-centers/${id}`)).json().data).toEqual(before);
  });

  it('refuses a custom domain over 300 characters and one that is not a string', async () => {
    const { _id: id } = await helpCenter('Bad Domain Types');
    expect((await patch(`/help-centers/${id}`, { customDomain: `${'a'.repeat(300)}.test` })).json()).toEqual({
      statusCode: 400,
      message: 'customDomain must be at most 300 characters long',
    });
    expect((await patch(`/help-centers/${id}`, { customDomain: ['a.test'] })).statusCode).toBe(400);
  });

  it('sets a theme: keys merge into what is stored, footerLinks replaces the list, the colour is stored lower-case', async () => {
    const { _id: id } = await helpCenter('Themed');
    const links = [
      { label: 'Status', url: 'https://status.acme.test' },
      { label: ' Privacy ', url: 'http://acme.test/privacy' },
    ];
    const first = await patch(`/help-centers/${id}`, { theme: { primaryColor: '#AB12CD', footerLinks: links } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.theme).toEqual({
      logoAttachmentId: null,
      primaryColor: '#ab12cd',
      footerLinks: [links[0], { label: 'Privacy', url: 'http://acme.test/privacy' }],
    });
    // Only keys ever set are stored: the others follow the defaults.
    const stored = await harness.db.selectFrom('help_centers').select('theme').where('id', '=', id).executeTakeFirstOrThrow();
    const storedTheme = typeof stored.theme === 'string' ? JSON.parse(stored.theme) : stored.theme;
    expect(Object.keys(storedTheme).sort()).toEqual(['footerLinks', 'primaryColor']);
    const logo = await upload('logo.png', 'image/png', PNG);
    const second = await patch(`/help-centers/${id}`, { theme: { logoAttachmentId: logo } });
    expect(second.json().data.theme).toEqual({ ...first.json().data.theme, logoAttachmentId: logo });
    const third = await patch(`/help-centers/${id}`, { theme: { footerLinks: [{ label: 'Home', url: 'https://acme.test' }] } });
    expect(third.json().data.theme).toEqual({
      logoAttachmentId: logo,
      primaryColor: '#ab12cd',
      footerLinks: [{ label: 'Home', url: 'https://acme.test' }],
    });
    const cleared = await patch(`/help-centers/${id}`, { theme: { logoAttachmentId: null, footerLinks: [] } });
    expect(cleared.json().data.theme).toEqual({ logoAttachmentId: null, primaryColor: '#ab12cd', footerLinks: [] });
    expect((await get(`/help-centers/${id}`)).json().data.theme).toEqual(cleared.json().data.theme);
  });

  const link = (label: string, url = 'https://acme.test') => ({ label, url });
  it.each([
    [{ primaryColor: 'red' }, 'theme.primaryColor has an invalid format'],
    [{ primaryColor: '#abc' }, 'theme.primaryColor has an invalid format'],
    [{ primaryColor: '#abcdef0' }, 'theme.primaryColor has an invalid format'],
    [
      { footerLinks: Array.from({ length: 11 }, (_, index) => link(`L${index}`)) },
      'theme.footerLinks must have at most 10 items',
    ],
    [{ footerLinks: [link('')] }, 'theme.footerLinks.0.label must be at least 1 characters long'],
    [{ footerLinks: [link('x'.repeat(61))] }, 'theme.footerLinks.0.label must be at most 60 characters long'],
    [{ footerLinks: [link('ok'), link('   ')] }, 'theme.footerLinks.1.label must not be blank'],
    [{ footerLinks: [link('JS', 'javascript:alert(1)')] }, 'theme.footerLinks.0.url must be a valid http-url'],
    [{ footerLinks: [link('FTP', 'ftp://acme.test/file')] }, 'theme.footerLinks.0.url must be a valid http-url'],
    [{ footerLinks: [{ label: 'No URL' }] }, 'theme.footerLinks.0.url is required'],
    [{ footerLinks: [{ ...link('Icon'), icon: 'x' }] }, 'theme.footerLinks.0.icon is not an accepted field'],
    [{ font: 'Comic Sans' }, 'theme.font is not an accepted field'],
    [{ logoAttachmentId: 'logo.png' }, 'theme.logoAttachmentId has an invalid format'],
  ])('refuses the theme %j with a 400, writing nothing', async (theme, message) => {
    const { _id: id } = await helpCenter('Bad Theme');
    const before = (await get(`/help-centers/${id}`)).json().data;
    const response = await patch(`/help-centers/${id}`, { theme, name: 'Not applied' });
    expect(response.json()).toEqual({ statusCode: 400, message });
    expect((await get(`/help-centers/${id}`)).json().data).toEqual(before);
  });

  it('a logo must be an image attachment of the organization: another organization’s or unknown is a 404, SVG and others a 400', async () => {
    const { _id: id } = await helpCenter('Logo Rules');
    const before = (await get(`/help-centers/${id}`)).json().data;
    const theirs = await upload('logo.png', 'image/png', PNG, globex.headers);
    const svg = await upload(
      'logo.svg',
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    );
    const text = await upload('logo.txt', 'text/plain', Buffer.from('not an image'));
    const notFound = { statusCode: 404, message: 'Attachment not found' };
    const notImage = { statusCode: 400, message: 'theme.logoAttachmentId must be a PNG, JPEG, GIF or WebP image' };
    for (const [logoAttachmentId, answer] of [
      [theirs, notFound],
      ['01HZZZZZZZZZZZZZZZZZZZZZZZ', notFound],
      [svg, notImage],
      [text, notImage],
    ] as const) {
      const response = await patch(`/help-centers/${id}`, { theme: { logoAttachmentId, primaryColor: '#000000' } });
      expect(response.json()).toEqual(answer);
    }
    expect((await get(`/help-centers/${id}`)).json().data).toEqual(before);
    for (const [fileName, contentType] of [
      ['logo.jpg', 'image/jpeg'],
      ['logo.gif', 'image/gif'],
      ['logo.webp', 'image/webp'],
    ] as const) {
      const logo = await upload(fileName, contentType, PNG);
      expect((await patch(`/help-centers/${id}`, { theme: { logoAttachmentId: logo } })).json().data.theme.logoAttachmentId).toBe(
        logo,
      );
    }
  });

  it('refuses a logo over 2 MiB: the site reads it whole to serve it', async () => {
    const { _id: id } = await helpCenter('Big Logo');
    const big = await upload('big.png', 'image/png', Buffer.alloc(2 * 1024 * 1024 + 1, 1));
    expect((await patch(`/help-centers/${id}`, { theme: { logoAttachmentId: big } })).json()).toEqual({
      statusCode: 400,
      message: 'theme.logoAttachmentId must be an image of at most 2097152 bytes',
    });
  });

  it('readHelpCenterLogo answers the logo’s type, bytes and ETag for the site, null without one', async () => {
    const storage = createAttachmentStorage(harness.config);
    const { _id: id, slug } = await helpCenter('Logo Served', globex.headers);
    const row = async () => {
      const found = await findHelpCenterBySlug(harness.db, slug);
      expect(found?.id).toBe(id);
      return found ?? { organization_id: '', theme: null };
    };
    expect(await readHelpCenterLogo({ db: harness.db, storage }, await row())).toBeNull();
    const logo = await upload('logo.png', 'image/png', PNG, globex.headers);
    await patch(`/help-centers/${id}`, { theme: { logoAttachmentId: logo } }, globex.headers);
    expect(await readHelpCenterLogo({ db: harness.db, storage }, await row())).toEqual({
      contentType: 'image/png',
      body: PNG,
      etag: `"${createHash('sha256').update(PNG).digest('hex')}"`,
    });
    await patch(`/help-centers/${id}`, { theme: { logoAttachmentId: null } }, globex.headers);
    expect(await readHelpCenterLogo({ db: harness.db, storage }, await row())).toBeNull();
  });

  it('findHelpCenterBySlug finds a help center of any organization; an unknown slug finds none', async () => {
    const theirs = await helpCenter('Slug Lookup', globex.headers);
    expect(await findHelpCenterBySlug(harness.db, theirs.slug)).toMatchObject({
      id: theirs._id,
      organization_id: globex.organizationId,
    });
    expect(await findHelpCenterBySlug(harness.db, 'no-such-help-center')).toBeUndefined();
  });
});
