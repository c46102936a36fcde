import { describe, expect, it } from 'vitest';
import { fileRefusalText, fileSizeText } from '../../widget/panel/file-text.js';
import { type ShownMessage, shown, withLiveMessage } from '../../widget/panel/live-conversation.js';
import { ApiError, type ConversationMessage } from '../../widget/panel/messenger-client.js';
import { createSoundPreference, type PreferenceStorage } from '../../widget/panel/sound.js';

describe('the size of a file in words', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [512, '512 bytes'],
    [1023, '1023 bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [14 * 1024 + 300, '14 KB'],
    [1024 * 1024 - 1, '1 MB'],
    [1000 * 1024, '1000 KB'],
    [1023 * 1024 + 511, '1023 KB'],
    [1024 * 1024, '1 MB'],
    [2.5 * 1024 * 1024, '2.5 MB'],
    [25 * 1024 * 1024, '25 MB'],
    [3 * 1024 ** 3, '3 GB'],
    [5000 * 1024 ** 3, '5000 GB'],
  ])('%d bytes read "%s"', (bytes, words) => {
    expect(fileSizeText(bytes)).toBe(words);
  });

  it('says the size is unknown for what is not a size', () => {
    expect(fileSizeText(-1)).toBe('unknown size');
    expect(fileSizeText(Number.NaN)).toBe('unknown size');
    expect(fileSizeText(Number.POSITIVE_INFINITY)).toBe('unknown size');
  });
});

describe('why a file was not sent', () => {
  const refused = (status: number) => fileRefusalText(new ApiError(status, 'code', 'The server’s words'));

  it('says each refusal of the server in words of its own', () => {
    expect(refused(413)).toBe('This file is too large to send. Try a smaller file.');
    expect(refused(409)).toBe('Files can only be sent once a person has the conversation.');
    expect(refused(415)).toBe('This kind of file cannot be sent.');
    expect(refused(429)).toBe('You are sending too quickly. Wait a moment, then try again.');
    expect(refused(500)).toBe('The file could not be sent. Try again in a moment.');
  });

  it('tells a connection that failed from a refusal', () => {
    expect(fileRefusalText(new TypeError('Failed to fetch'))).toBe(
      'The file could not be sent. Check your connection and try again.',
    );
  });
});

/** Storage as the frame's localStorage behaves, or refusing every call (a browser blocking a framed site's storage). */
function storageOf(refusing = false): PreferenceStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  const refuse = () => {
    if (refusing) {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    }
  };
  return {
    items,
    getItem: (key) => {
      refuse();
      return items.get(key) ?? null;
    },
    setItem: (key, value) => {
      refuse();
      items.set(key, value);
    },
  };
}

describe('the notification sound’s preference', () => {
  it('is off until the visitor turns it on, and is remembered per help center', () => {
    const storage = storageOf();
    expect(createSoundPreference(storage, 'lumen').read()).toBe(false);
    createSoundPreference(storage, 'lumen').write(true);
    expect(storage.items.get('switchboard.sound.lumen')).toBe('on');
    // A new panel (the page reloaded) reads it back; another help center's panel does not share it.
    expect(createSoundPreference(storage, 'lumen').read()).toBe(true);
    expect(createSoundPreference(storage, 'other').read()).toBe(false);
    createSoundPreference(storage, 'lumen').write(false);
    expect(storage.items.get('switchboard.sound.lumen')).toBe('off');
    expect(createSoundPreference(storage, 'lumen').read()).toBe(false);
  });

  it('reads anything but "on" as off', () => {
    const storage = storageOf();
    storage.items.set('switchboard.sound.lumen', 'true');
    expect(createSoundPreference(storage, 'lumen').read()).toBe(false);
  });

  it('lasts as long as the page when storage is refused, or missing', () => {
    for (const storage of [storageOf(true), null]) {
      const preference = createSoundPreference(storage, 'lumen');
      expect(preference.read()).toBe(false);
      preference.write(true);
      expect(preference.read()).toBe(true);
      preference.write(false);
      expect(preference.read()).toBe(false);
    }
  });
});

describe('a file message in the live conversation', () => {
  const messageOf = (id: string, change: Partial<ConversationMessage> = {}): ConversationMessage => ({
    id,
    author: 'visitor',
    authorName: null,
    content: `text of ${id}`,
    citations: [],
    helpful: null,
    createdAt: '2026-11-27T18:30:00.000Z',
    ...change,
  });
  const file = { id: 'file-1', name: 'statement.png', contentType: 'image/png', size: 68 };

  it('goes after the visitor’s messages already stored, though they keep the key they were shown with', () => {
    const stored: ShownMessage = shown(messageOf('m1'), 'local-1');
    const pending: ShownMessage = shown(messageOf('local-2', { content: 'on its way' }), 'local-2');
    const sent = messageOf('m3', { attachments: [file] });
    expect(withLiveMessage([stored], sent).map((message) => message.id)).toEqual(['m1', 'm3']);
    // A message still on its way stays last.
    expect(withLiveMessage([stored, pending], sent).map((message) => message.id)).toEqual(['m1', 'm3', 'local-2']);
  });

  it('keeps its files when the live stream brings it again naming none, and takes the files it names', () => {
    const shownWithFile = [shown(messageOf('m3', { attachments: [file] }))];
    expect(withLiveMessage(shownWithFile, messageOf('m3', { attachments: [] }))[0]?.attachments).toEqual([file]);
    const other = { ...file, id: 'file-2', name: 'other.pdf', contentType: 'application/pdf' };
    expect(withLiveMessage(shownWithFile, messageOf('m3', { attachments: [other] }))[0]?.attachments).toEqual([other]);
  });
});
