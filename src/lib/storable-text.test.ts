import { describe, expect, it } from 'vitest';
import { storableJson, storableJsonText, storableText } from './storable-text.js';

const NUL = String.fromCharCode(0);
const HIGH = '\uD83D';
const LOW = '\uDE00';
const PAIR = `${HIGH}${LOW}`;
const REPLACEMENT = '\uFFFD';

describe('storableText', () => {
  it('drops NUL characters and replaces lone surrogates, keeping everything else', () => {
    expect(storableText(`a${NUL}b${NUL}${NUL}c`)).toBe('abc');
    expect(storableText(`x${HIGH}y`)).toBe(`x${REPLACEMENT}y`);
    expect(storableText(`x${LOW}y`)).toBe(`x${REPLACEMENT}y`);
    expect(storableText(`${LOW}${HIGH}`)).toBe(`${REPLACEMENT}${REPLACEMENT}`);
    expect(storableText(`end${HIGH}`)).toBe(`end${REPLACEMENT}`);
    // A NUL between the halves of a pair: once it is gone, the pair is whole again.
    expect(storableText(`${HIGH}${NUL}${LOW}`)).toBe(PAIR);
    expect(storableText(`emoji ${PAIR} Gr\u00fc\u00dfe \u65e5\u672c, tab\tline\r\n\u0001`)).toBe(
      `emoji ${PAIR} Gr\u00fc\u00dfe \u65e5\u672c, tab\tline\r\n\u0001`,
    );
  });

  it('answers the same string when there is nothing to change, and null for null', () => {
    const clean = `plain text ${PAIR}`;
    expect(storableText(clean)).toBe(clean);
    expect(storableText('')).toBe('');
    expect(storableText(null)).toBeNull();
  });

  it('makes what a decoder reads of invalid UTF-8 storable', () => {
    // 0xff is never UTF-8; ed a0 80 would be a surrogate (CESU-8); c3 alone is cut short.
    const decoded = new TextDecoder().decode(Buffer.from([0x6f, 0x6b, 0x00, 0xff, 0xed, 0xa0, 0x80, 0xc3]));
    const stored = storableText(decoded);
    expect(stored.startsWith('ok')).toBe(true);
    expect(stored).not.toContain(NUL);
    expect(Buffer.from(stored, 'utf8').toString('utf8')).toBe(stored);
  });
});

describe('storableJson', () => {
  it('drops NUL and replaces lone surrogates inside strings and keys, at any depth', () => {
    const value = {
      [`k${NUL}ey`]: `v${NUL}alue`,
      list: [`${HIGH}`, { deep: `a${LOW}b${NUL}` }],
      fine: `${PAIR} "quoted" \\ back`,
      number: 1.5,
      none: null,
    };
    expect(JSON.parse(storableJson(value))).toEqual({
      key: 'value',
      list: [REPLACEMENT, { deep: `a${REPLACEMENT}b` }],
      fine: `${PAIR} "quoted" \\ back`,
      number: 1.5,
      none: null,
    });
    expect(storableJson(value)).not.toMatch(/\\u0000|\\ud[89a-f]/i);
  });

  it('keeps text that only looks like an escape: a backslash followed by u0000 or ud800', () => {
    const value = { path: 'C:\\u0000\\ud800', mixed: `\\${NUL}u0000` };
    expect(JSON.parse(storableJson(value))).toEqual({ path: 'C:\\u0000\\ud800', mixed: '\\u0000' });
  });

  it('keeps a surrogate pair written as two escapes, and writes what JSON.stringify cannot as null', () => {
    expect(JSON.parse(storableJsonText('["\\ud83d\\ude00", "\\ud83d", "\\ude00\\ud83d"]'))).toEqual([
      PAIR,
      REPLACEMENT,
      `${REPLACEMENT}${REPLACEMENT}`,
    ]);
    expect(storableJson(undefined)).toBe('null');
    const clean = JSON.stringify({ a: 'b', c: [1, 2] });
    expect(storableJsonText(clean)).toBe(clean);
  });
});
