import { describe, expect, it } from 'vitest';
import { isWebAddress, linkify } from '../../widget/panel/linkify.js';
import { createSseParser, type ServerSentEvent } from '../../widget/panel/sse-parser.js';

/** The events a stream gives when its text arrives in these chunks; `ended`: the stream closed after them. */
function parse(chunks: string[], ended = true): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) {
    parser.push(chunk);
  }
  if (ended) {
    parser.end();
  }
  return events;
}

describe('the Server-Sent Events parser', () => {
  const STREAM =
    'retry: 2000\n\nid: 1\nevent: message\ndata: {"message":{"id":"m1"}}\n\nid: 2\nevent: delta\ndata: {"text":"Hel"}\n\n' +
    ': heartbeat\n\nid: 3\nevent: done\ndata: {"answered":true}\n\n';

  it('reads the messenger’s frames: name, data and id, comments and retry skipped', () => {
    expect(parse([STREAM])).toEqual([
      { event: 'message', data: '{"message":{"id":"m1"}}', id: '1' },
      { event: 'delta', data: '{"text":"Hel"}', id: '2' },
      { event: 'done', data: '{"answered":true}', id: '3' },
    ]);
  });

  it('gives the same events whatever the chunks, down to one character at a time', () => {
    const whole = parse([STREAM]);
    expect(parse(STREAM.split(''))).toEqual(whole);
    for (const at of [1, 7, 20, 33, 60, STREAM.length - 1]) {
      expect(parse([STREAM.slice(0, at), STREAM.slice(at)]), `split at ${at}`).toEqual(whole);
    }
  });

  it('ends lines with LF, CR LF or CR, even a CR LF split between chunks', () => {
    const expected = [
      { event: 'delta', data: 'a', id: null },
      { event: 'delta', data: 'b', id: null },
    ];
    expect(parse(['event: delta\r\ndata: a\r\n\r\nevent: delta\rdata: b\r\r'])).toEqual(expected);
    expect(parse(['event: delta\r', '\ndata: a\r', '\n\r', '\nevent: delta\ndata: b\n\n'])).toEqual(expected);
  });

  it('joins data lines with LF, keeps a space after the first, and names an unnamed event `message`', () => {
    expect(parse(['data: one\ndata:two\ndata:  three\ndata\n\n'])).toEqual([
      { event: 'message', data: 'one\ntwo\n three\n', id: null },
    ]);
  });

  it('drops an event without data, and one the stream ends before its blank line', () => {
    expect(parse(['event: delta\n\nevent: done\ndata: {}\n'])).toEqual([]);
    // Still open: the last event may yet be completed.
    expect(parse(['event: done\ndata: {}\n'], false)).toEqual([]);
  });

  it('skips a byte-order mark at the start, and unknown fields', () => {
    expect(parse(['\uFEFFevent: x\nfoo: bar\ndata: 1\n\n'])).toEqual([{ event: 'x', data: '1', id: null }]);
  });
});

describe('the answer linkifier', () => {
  it('leaves text without addresses as it is, markup included', () => {
    expect(linkify('Hello <b>there</b> & welcome')).toEqual(['Hello <b>there</b> & welcome']);
    expect(linkify('')).toEqual([]);
  });

  it('turns bare http(s) addresses into links, without the punctuation that ends the sentence', () => {
    expect(linkify('See https://help.example/hc/a/articles/1-refunds. Or http://x.example/b?c=1&d=2, then')).toEqual([
      'See ',
      { href: 'https://help.example/hc/a/articles/1-refunds', text: 'https://help.example/hc/a/articles/1-refunds' },
      '. Or ',
      { href: 'http://x.example/b?c=1&d=2', text: 'http://x.example/b?c=1&d=2' },
      ', then',
    ]);
  });

  it('keeps brackets the address opened, and drops one it did not', () => {
    expect(linkify('(see https://en.example/wiki/A_(b))')).toEqual([
      '(see ',
      { href: 'https://en.example/wiki/A_(b)', text: 'https://en.example/wiki/A_(b)' },
      ')',
    ]);
  });

  it('turns Markdown links to http(s) addresses into links named by their label', () => {
    expect(linkify('Read [Refund policy](https://help.example/r) first.')).toEqual([
      'Read ',
      { href: 'https://help.example/r', text: 'Refund policy' },
      ' first.',
    ]);
  });

  it('never links another scheme, nor text that only looks like a link', () => {
    for (const text of [
      'javascript:alert(1)',
      '[click](javascript:alert(1))',
      'data:text/html,<script>alert(1)</script>',
      'https:// nothing',
      'https://',
    ]) {
      expect(
        linkify(text).every((piece) => typeof piece === 'string'),
        text,
      ).toBe(true);
    }
    expect(linkify('x "https://a.example/"onmouseover=1')).toEqual([
      'x "',
      { href: 'https://a.example/', text: 'https://a.example/' },
      '"onmouseover=1',
    ]);
  });
});

describe('the addresses the panel links', () => {
  it('are http and https addresses with a host, nothing else', () => {
    for (const address of ['https://help.example/hc/a', 'HTTP://x.example', 'http://127.0.0.1:3000/hc/x/articles/1-a']) {
      expect(isWebAddress(address), address).toBe(true);
    }
    for (const address of [
      'javascript:alert(1)',
      'data:text/html,x',
      '/hc/a',
      '//evil.example',
      'https://',
      'https:///x',
      ' https://a',
    ]) {
      expect(isWebAddress(address), address).toBe(false);
    }
  });
});
