import { describe, expect, it } from 'vitest';
import { DRAFT_MAX_AGE_MS, type DraftStore, draftKey, isDraftEmpty, loadDraft, newDraft, saveDraft } from './draft-storage';

/** localStorage's contract over a map, as a browser profile would keep it. */
function memoryStore(): DraftStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);

describe('drafts kept per ticket', () => {
  it('keeps text, mode, attachments, mentions and the deduplication key, per ticket', () => {
    const store = memoryStore();
    const draft = {
      ...newDraft('note', NOW, () => 'key-1'),
      text: 'Hello @Ada Agent',
      attachments: [{ id: 'A1', fileName: 'shot.png', contentType: 'image/png', size: 12 }],
      mentions: [{ id: 'U1', token: '@Ada Agent' }],
    };
    saveDraft(store, 'T1', draft);
    expect(loadDraft(store, 'T1', NOW + 1000)).toEqual(draft);
    expect(loadDraft(store, 'T2', NOW)).toBeNull();
  });

  it('makes a new key for each new draft and keeps the same one while the draft lives', () => {
    const first = newDraft('reply', NOW);
    const second = newDraft('reply', NOW);
    expect(first.deDuplicationKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.deDuplicationKey).not.toBe(first.deDuplicationKey);
    const store = memoryStore();
    saveDraft(store, 'T1', { ...first, text: 'a' });
    saveDraft(store, 'T1', { ...first, text: 'ab' });
    expect(loadDraft(store, 'T1', NOW)?.deDuplicationKey).toBe(first.deDuplicationKey);
  });

  it('removes an empty draft instead of storing it', () => {
    const store = memoryStore();
    const draft = { ...newDraft('reply', NOW, () => 'k'), text: 'typed' };
    saveDraft(store, 'T1', draft);
    expect(store.entries.has(draftKey('T1'))).toBe(true);
    saveDraft(store, 'T1', { ...draft, text: '   ' });
    expect(store.entries.has(draftKey('T1'))).toBe(false);
    expect(isDraftEmpty({ text: ' ', attachments: [{ id: 'A', fileName: 'f', contentType: 'text/plain', size: 1 }] })).toBe(
      false,
    );
  });

  it('forgets a draft older than the limit', () => {
    const store = memoryStore();
    saveDraft(store, 'T1', { ...newDraft('reply', NOW, () => 'k'), text: 'old' });
    expect(loadDraft(store, 'T1', NOW + DRAFT_MAX_AGE_MS)).not.toBeNull();
    expect(loadDraft(store, 'T1', NOW + DRAFT_MAX_AGE_MS + 1)).toBeNull();
    expect(store.entries.has(draftKey('T1'))).toBe(false);
  });

  it('ignores what is not a draft: broken JSON, missing key, unknown mode, bad entries', () => {
    const store = memoryStore();
    for (const stored of [
      '{',
      'null',
      '"text"',
      JSON.stringify({ text: 'x', mode: 'reply', savedAt: NOW }),
      JSON.stringify({ text: 'x', mode: 'shout', deDuplicationKey: 'k', savedAt: NOW }),
      JSON.stringify({ text: 7, mode: 'reply', deDuplicationKey: 'k', savedAt: NOW }),
    ]) {
      store.setItem(draftKey('T1'), stored);
      expect(loadDraft(store, 'T1', NOW), stored).toBeNull();
    }
    store.setItem(
      draftKey('T1'),
      JSON.stringify({
        text: 'x',
        mode: 'reply',
        deDuplicationKey: 'k',
        savedAt: NOW,
        attachments: [{ id: 'A' }, { id: 'B', fileName: 'b.txt', contentType: 'text/plain', size: 3 }],
        mentions: 'nobody',
      }),
    );
    const draft = loadDraft(store, 'T1', NOW);
    expect(draft?.attachments.map((attachment) => attachment.id)).toEqual(['B']);
    expect(draft?.mentions).toEqual([]);
  });

  it('survives a storage that refuses writes', () => {
    const refusing: DraftStore = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(() => saveDraft(refusing, 'T1', { ...newDraft('reply', NOW), text: 'x' })).not.toThrow();
    expect(() => saveDraft(refusing, 'T1', newDraft('reply', NOW))).not.toThrow();
  });
});
