import { describe, expect, it } from 'vitest';
import { highlightParts } from './search-highlight';

describe('search highlights', () => {
  it('become text parts, marked where they matched, entities decoded and no HTML kept', () => {
    expect(highlightParts('Refund &lt;b&gt;for&lt;/b&gt; <mark>invoice</mark> &amp; <mark>tax</mark>&#39;s')).toEqual([
      { text: 'Refund <b>for</b> ', marked: false },
      { text: 'invoice', marked: true },
      { text: ' & ', marked: false },
      { text: 'tax', marked: true },
      { text: "'s", marked: false },
    ]);
    expect(highlightParts('')).toEqual([]);
  });
});
