import { describe, expect, it } from 'vitest';
import { accentColors, DEFAULT_ACCENT } from '../../widget/shared/colors.js';
import { asLoaderMessage, asPanelMessage } from '../../widget/shared/messages.js';

describe('the accent and the text on it', () => {
  it.each([
    ['#ffcc00', '#000000'],
    ['#ffff00', '#000000'],
    ['#FFF', '#000000'],
    ['#1f6feb', '#ffffff'],
    ['#000000', '#ffffff'],
    ['#777777', '#000000'],
    ['#6f6f6f', '#ffffff'],
  ])('%s carries %s, whichever contrasts more', (color, onAccent) => {
    expect(accentColors(color)).toEqual({ accent: color, onAccent });
  });

  it('falls back to the default for anything but a hex colour, so nothing else reaches a stylesheet', () => {
    for (const color of [null, undefined, '', 'red', '#12345', 'url(x)', '#fff;background:red', 'rgb(0,0,0)']) {
      expect(accentColors(color), String(color)).toEqual({ accent: DEFAULT_ACCENT, onAccent: '#ffffff' });
    }
  });
});

describe('the messages between the loader and the panel', () => {
  it('reads the agreed ones, and nothing else', () => {
    expect(asLoaderMessage({ type: 'switchboard:open' })).toEqual({ type: 'switchboard:open' });
    expect(asLoaderMessage({ type: 'switchboard:close' })).toEqual({ type: 'switchboard:close' });
    expect(asLoaderMessage({ type: 'switchboard:identify', token: 'a.b.c', extra: 1 })).toEqual({
      type: 'switchboard:identify',
      token: 'a.b.c',
    });
    expect(asPanelMessage({ type: 'switchboard:unread', count: 3 })).toEqual({ type: 'switchboard:unread', count: 3 });
    expect(asPanelMessage({ type: 'switchboard:ready' })).toEqual({ type: 'switchboard:ready' });
    expect(asPanelMessage({ type: 'switchboard:close' })).toEqual({ type: 'switchboard:close' });
    for (const data of [
      null,
      'switchboard:open',
      { type: 'switchboard:identify' },
      { type: 'switchboard:identify', token: '' },
      { type: 'switchboard:identify', token: 42 },
      { type: 'switchboard:ready' },
      { type: 'other' },
    ]) {
      expect(asLoaderMessage(data), JSON.stringify(data)).toBeNull();
    }
    for (const data of [
      { type: 'switchboard:unread', count: -1 },
      { type: 'switchboard:unread', count: 1.5 },
      { type: 'switchboard:unread', count: '2' },
      { type: 'switchboard:open' },
      undefined,
    ]) {
      expect(asPanelMessage(data), JSON.stringify(data)).toBeNull();
    }
  });
});
