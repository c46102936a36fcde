import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { liveHtml, liveMarkdown, renderMarkdown, shownText } from '../../../test/markup.js';

const editorDocument = (text: string) =>
  JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

/** Bodies that must come out with no live markup in any derived form. */
const HOSTILE: [string, Record<string, string>][] = [
  ['a script typed as text', { content: '<script>alert(1)</script>' }],
  ['an escaped tag in HTML', { contentHtml: '<p>&lt;img src=x onerror=alert(1)&gt;</p>' }],
  ['a live image with a handler', { contentHtml: '<img src=x onerror=alert(1)>' }],
  ['escaped entities typed as text', { content: '&lt;script&gt;alert(1)&lt;/script&gt;' }],
  ['a javascript: link', { contentHtml: '<a href="javascript:alert(1)">x</a>' }],
  ['a tag split across elements', { contentHtml: '<p>&lt;<span>img src=x onerror=alert(1)</span>&gt;</p>' }],
  ['nested broken tags', { contentHtml: '<<img src=x onerror=alert(1)>img src=x onerror=alert(1)>' }],
  ['a tag hidden in a tag', { contentHtml: '<scr<script>ipt>alert(1)</script>' }],
  ['markdown syntax typed as text', { content: '[x](javascript:alert(1)) <http://evil.test> <!-- hidden -->' }],
  ['an HTML block typed as text', { content: 'Hi\n\n<div>\n<script>alert(1)</script>\n</div>' }],
  [
    'a link whose address breaks the markdown link',
    { contentHtml: '<a href="https://x.test/a&#10;b" title="&lt;img src=x onerror=alert(1)&gt;">y</a>' },
  ],
  [
    'an image alt text with a tag',
    { contentHtml: '<img src="https://x.test/a&#10;b" alt="&lt;img src=x onerror=alert(1)&gt;">' },
  ],
  ['code that closes its own fence', { contentHtml: '<pre><code>a\n  ```\n&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>' }],
  ['an editor document with a tag as text', { contentJson: editorDocument('<img src=x onerror=alert(1)>') }],
];

/** Bodies whose HTML shows text that must read the same in the markdown. */
const TEXT: [string, Record<string, string>][] = [
  ['a < b && c > d', { content: 'a < b && c > d' }],
  ['1 < 2', { content: '1 < 2' }],
  ['escaped entities typed as text', { content: '&lt;script&gt; &amp; AT&T' }],
  ['double-escaped HTML', { contentHtml: '<p>&amp;lt;b&amp;gt; is how you write &lt;b&gt;</p>' }],
  ['a tag split across elements', { contentHtml: '<p>&lt;<b>img</b> src=x&gt;</p>' }],
  ['markdown syntax typed as text', { content: '# not a heading\n\n> not a quote\n\n- not a list' }],
  ['an email address in angle brackets', { content: 'Write to <pat@customer.test>' }],
];

describe.each(DIALECTS)('derived comment content is safe on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let ticketId: string;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    const desk = await makeTeam(harness, acme);
    const created = await harness.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: acme.headers,
      payload: { title: 'Safety', requestorEmail: 'pat@customer.test', teamId: desk.teamId },
    });
    expect(created.statusCode, created.body).toBe(201);
    ticketId = created.json().data.id;
  });
  afterAll(() => harness.close());

  const comment = async (payload: object) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/comment`,
      headers: acme.headers,
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; content: string; contentHtml: string; contentMarkdown: string };
  };

  it.each(HOSTILE)('%s: neither the HTML nor the markdown holds live markup', async (_, body) => {
    const created = await comment(body);
    expect(liveHtml(created.contentHtml)).toEqual([]);
    expect(liveMarkdown(created.contentMarkdown)).toEqual([]);
    expect(liveHtml(renderMarkdown(created.contentMarkdown))).toEqual([]);
  });

  it.each(TEXT)('%s: the markdown shows the text the HTML shows', async (_, body) => {
    const created = await comment(body);
    expect(liveMarkdown(created.contentMarkdown)).toEqual([]);
    expect(shownText(renderMarkdown(created.contentMarkdown))).toBe(shownText(created.contentHtml));
  });

  it('leaves comparisons in text readable: nothing to escape in a < b && c > d or 1 < 2', async () => {
    expect((await comment({ content: 'a < b && c > d' })).contentMarkdown).toBe('a < b && c > d');
    expect((await comment({ content: '1 < 2' })).contentMarkdown).toBe('1 < 2');
  });

  it('an edit derives safe markdown too', async () => {
    const created = await comment({ content: 'First draft' });
    const edited = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${ticketId}/comments/${created.id}`,
      headers: acme.headers,
      payload: { contentHtml: '<p>&lt;img src=x onerror=alert(1)&gt;</p>' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const { contentMarkdown, contentHtml } = edited.json().data;
    expect(liveMarkdown(contentMarkdown)).toEqual([]);
    expect(shownText(renderMarkdown(contentMarkdown))).toBe(shownText(contentHtml));
  });

  it('the email of a comment carries the sanitised HTML and the text as typed', async () => {
    const created = await comment({ content: '<script>alert(1)</script>', shouldSendEmail: true });
    const email = await harness.db
      .selectFrom('email_outbox')
      .select(['html_body', 'text_body'])
      .where('dedupe_key', '=', `comment:${created.id}`)
      .executeTakeFirstOrThrow();
    expect(liveHtml(email.html_body ?? '')).toEqual([]);
    expect(email.html_body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.text_body).toContain('<script>alert(1)</script>');
  });

  it("another organization's ticket is a 404 and stores nothing", async () => {
    const before = await harness.db.selectFrom('ticket_comments').select('id').execute();
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/comment`,
      headers: globex.headers,
      payload: { content: '<script>alert(1)</script>' },
    });
    expect(response.statusCode).toBe(404);
    expect(await harness.db.selectFrom('ticket_comments').select('id').execute()).toEqual(before);
  });

  it('a body that is not an editor document is a 400 and stores nothing', async () => {
    const before = await harness.db.selectFrom('ticket_comments').select('id').execute();
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/comment`,
      headers: acme.headers,
      payload: { contentJson: '<script>alert(1)</script>' },
    });
    expect(response.statusCode).toBe(400);
    expect(await harness.db.selectFrom('ticket_comments').select('id').execute()).toEqual(before);
  });

  it.each(['<script>alert(1)</script>', '<style>p{}</style><iframe src="https://x.example"></iframe>', '<p>   </p>'])(
    'HTML with nothing left once sanitised (%s) is a 400 naming contentHtml and stores nothing',
    async (contentHtml) => {
      const before = await harness.db.selectFrom('ticket_comments').select('id').execute();
      const response = await harness.app.inject({
        method: 'POST',
        url: `/v1/tickets/${ticketId}/comment`,
        headers: acme.headers,
        payload: { contentHtml },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('contentHtml has nothing left to show once unsafe HTML is removed');
      expect(await harness.db.selectFrom('ticket_comments').select('id').execute()).toEqual(before);
    },
  );

  it('an image alone is content', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/comment`,
      headers: acme.headers,
      payload: { contentHtml: '<p><img src="https://files.example/shot.png" alt=""></p>' },
    });
    expect(response.statusCode, response.body).toBe(201);
  });
});
