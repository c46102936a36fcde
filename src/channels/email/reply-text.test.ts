import { describe, expect, it } from 'vitest';
import { visibleReplyHtml, visibleReplyText } from './reply-text.js';

const lines = (...text: string[]) => text.join('\r\n');

describe('the shown text of a reply', () => {
  it('drops Gmail quoting, with its attribution wrapped onto two lines', () => {
    const gmail = lines(
      'Thanks, that fixed it.',
      '',
      'On Thu, Jan 15, 2026 at 9:00 AM Acme Support <support+bill-1.3f9c2a71d0e4@acme.test>',
      'wrote:',
      '',
      '> Please restart the printer.',
      '>',
      '> --',
      '> Acme Support',
    );
    expect(visibleReplyText(gmail)).toBe('Thanks, that fixed it.');
    expect(visibleReplyText(lines('Short one.', '', 'On Thu, Jan 15, 2026 at 9:00 AM Support <s@acme.test> wrote:', '> x'))).toBe(
      'Short one.',
    );
  });

  it('drops an Outlook header block, with or without its line of underscores, and "Original Message"', () => {
    const outlook = lines(
      'It happens again today.',
      '',
      '________________________________',
      'From: Acme Support <support@acme.test>',
      'Sent: Thursday, January 15, 2026 9:00 AM',
      'To: Jane Doe <jane@customer.test>',
      'Subject: RE: [BILL-1] Printer on fire',
      '',
      'Please restart the printer.',
    );
    expect(visibleReplyText(outlook)).toBe('It happens again today.');
    const desktop = lines('See below.', '', 'From: Acme Support', 'Date: 15 January 2026', 'Subject: x', '', 'old text');
    expect(visibleReplyText(desktop)).toBe('See below.');
    const original = lines('Yes.', '-----Original Message-----', 'From: someone', 'old');
    expect(visibleReplyText(original)).toBe('Yes.');
    const german = lines(
      'Danke!',
      '',
      'Von: Acme Support <support@acme.test>',
      'Gesendet: Donnerstag, 15. Januar 2026 09:00',
      'An: Jane',
      'Betreff: x',
    );
    expect(visibleReplyText(german)).toBe('Danke!');
  });

  it('drops Apple Mail and Thunderbird quoting, and other languages', () => {
    const apple = lines(
      'Works now.',
      '',
      'Sent from my iPhone',
      '',
      '> On 15 Jan 2026, at 09:00, Acme Support <support@acme.test> wrote:',
      '>',
      '> Restart it.',
    );
    expect(visibleReplyText(apple)).toBe('Works now.');
    const appleDesktop = lines(
      'Works now.',
      '',
      'On 15 Jan 2026, at 09:00, Acme Support <support@acme.test> wrote:',
      '',
      '> Restart it.',
    );
    expect(visibleReplyText(appleDesktop)).toBe('Works now.');
    expect(visibleReplyText(lines('Merci.', '', 'Le jeu. 15 janv. 2026 à 09:00, Support <s@acme.test> a écrit :', '> x'))).toBe(
      'Merci.',
    );
    expect(
      visibleReplyText(lines('Danke.', '', 'Am Do., 15. Jan. 2026 um 09:00 Uhr schrieb Support <s@acme.test>:', '> x')),
    ).toBe('Danke.');
  });

  it('drops the signature after "-- " and a trailing mobile signature', () => {
    expect(visibleReplyText(lines('All good.', '', '-- ', 'Jane Doe', 'Customer Inc'))).toBe('All good.');
    expect(visibleReplyText(lines('All good.', '', 'Get Outlook for iOS'))).toBe('All good.');
    expect(visibleReplyText(lines('All good.', 'Sent from my Galaxy'))).toBe('All good.');
  });

  it('keeps an inline answer between quotes, and text that only looks like a quote mark', () => {
    const inline = lines('> Is the printer on?', 'Yes.', '> Is it plugged in?', 'Also yes.');
    expect(visibleReplyText(inline)).toBe(inline.replace(/\r\n/g, '\n'));
    const prose = lines('On Monday I tried again and it wrote garbage.', 'From: here on it is fine.');
    expect(visibleReplyText(prose)).toBe(prose.replace(/\r\n/g, '\n'));
  });

  it('answers an empty string when the reply is nothing but the quote (the caller shows the whole text)', () => {
    expect(visibleReplyText(lines('On Thu, Jan 15, 2026 at 9:00 AM Support <s@acme.test> wrote:', '> x'))).toBe('');
    expect(visibleReplyText('')).toBe('');
  });
});

describe('the shown HTML of a reply', () => {
  it('cuts Gmail, Apple Mail, Thunderbird and Outlook quotes', () => {
    const gmail =
      '<div dir="ltr">Thanks!</div><br><div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">On Thu … wrote:<br></div><blockquote class="gmail_quote">old</blockquote></div>';
    expect(visibleReplyHtml(gmail)).toBe('<div dir="ltr">Thanks!</div><br>');
    const signature = '<div>Thanks!</div><div><br></div>-- <br><div dir="ltr" class="gmail_signature">Jane</div>';
    expect(visibleReplyHtml(signature)).toBe('<div>Thanks!</div><div><br></div>-- <br>');
    const apple =
      '<div>Works.</div><div><br><blockquote type="cite">On 15 Jan 2026 … wrote:<br><br></blockquote></div><blockquote type="cite">old</blockquote>';
    expect(visibleReplyHtml(apple)).toBe('<div>Works.</div><div><br>');
    const thunderbird =
      '<p>Fine.</p><div class="moz-cite-prefix">On 1/15/26 9:00 AM, Support wrote:<br></div><blockquote type="cite">old</blockquote>';
    expect(visibleReplyHtml(thunderbird)).toBe('<p>Fine.</p>');
    const outlookWeb =
      '<div>Again.</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> Support</div><div>old</div>';
    expect(visibleReplyHtml(outlookWeb)).toBe('<div>Again.</div>');
    const outlookDesktop =
      '<p>Again.</p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p><b>From:</b> Support</p></div></div><p>old</p>';
    expect(visibleReplyHtml(outlookDesktop)).toBe('<p>Again.</p><div>');
  });

  it('leaves HTML without a quote as it is', () => {
    const html = '<p>Hello <blockquote>a quote the customer wrote</blockquote></p>';
    expect(visibleReplyHtml(html)).toBe(html);
  });
});
