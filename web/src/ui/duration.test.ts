import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration';

describe('durations', () => {
  it('reads what people write, in minutes', () => {
    expect(parseDuration('1 h 30 min')).toBe(90);
    expect(parseDuration('1h30')).toBe(90);
    expect(parseDuration('2d')).toBe(2880);
    expect(parseDuration(' 45 ')).toBe(45);
    expect(parseDuration('3 hours 5 minutes')).toBe(185);
    expect(parseDuration('1 day 4 hrs')).toBe(1680);
  });

  it('tells an empty cell from one that does not read', () => {
    expect(parseDuration('  ')).toBeUndefined();
    expect(parseDuration('soon')).toBeNull();
    expect(parseDuration('1 h and a bit')).toBeNull();
    expect(parseDuration('1.5 h')).toBeNull();
  });

  it('writes minutes back the way it reads them', () => {
    expect(formatDuration(90)).toBe('1 h 30 min');
    expect(formatDuration(480)).toBe('8 h');
    expect(formatDuration(2880)).toBe('2 d');
    expect(formatDuration(1501)).toBe('1 d 1 h 1 min');
    expect(formatDuration(undefined)).toBe('');
    for (const minutes of [1, 59, 60, 61, 1439, 1440, 525_600]) {
      expect(parseDuration(formatDuration(minutes))).toBe(minutes);
    }
  });
});
