import { describe, expect, it } from 'vitest';
import { percentOf } from './percent';

describe('percentOf', () => {
  it('reads a share as a percentage to a tenth, and keeps "nothing measured" apart from 0', () => {
    expect(percentOf(0.75)).toBe(75);
    expect(percentOf(2 / 3)).toBe(66.7);
    expect(percentOf(1)).toBe(100);
    expect(percentOf(0)).toBe(0);
    expect(percentOf(null)).toBeNull();
  });
});
