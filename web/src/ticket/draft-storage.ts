/**
 * Unsent replies, kept in the browser per ticket: a reload, a crash or an expired session (which
 * sends the user to sign-in and back) never loses what was typed. The `deDuplicationKey` is made
 * once per draft and kept with it, so sending the same draft twice (a double click, a retry after
 * a failed answer) names the same comment and the API posts it once.
 */

export type ComposerMode = 'reply' | 'note';

/** An uploaded file waiting in a draft; its bytes are already on the server. */
export interface DraftAttachment {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
}

/** A user picked from the @mention list, so the note names them even if two users share a name. */
export interface DraftMention {
  id: string;
  token: string;
}

export interface Draft {
  text: string;
  mode: ComposerMode;
  deDuplicationKey: string;
  attachments: DraftAttachment[];
  mentions: DraftMention[];
  /** Epoch milliseconds of the last change; old drafts are dropped. */
  savedAt: number;
}

/** What of `localStorage` drafts use, so tests can hand in a plain map. */
export type DraftStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const PREFIX = 'switchboard.draft.';
/** A draft untouched this long is forgotten: the ticket has likely moved on. */
export const DRAFT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export function draftKey(ticketId: string): string {
  return `${PREFIX}${ticketId}`;
}

export function newDraft(mode: ComposerMode, now: number, makeKey: () => string = () => crypto.randomUUID()): Draft {
  return { text: '', mode, deDuplicationKey: makeKey(), attachments: [], mentions: [], savedAt: now };
}

/** Whether the draft holds anything worth keeping (and worth a collision warning). */
export function isDraftEmpty(draft: Pick<Draft, 'text' | 'attachments'>): boolean {
  return draft.text.trim() === '' && draft.attachments.length === 0;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function readAttachments(value: unknown): DraftAttachment[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.filter(
    (entry): entry is DraftAttachment =>
      entry !== null &&
      typeof entry === 'object' &&
      isString(entry.id) &&
      isString(entry.fileName) &&
      isString(entry.contentType) &&
      typeof entry.size === 'number',
  );
}

function readMentions(value: unknown): DraftMention[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.filter(
    (entry): entry is DraftMention => entry !== null && typeof entry === 'object' && isString(entry.id) && isString(entry.token),
  );
}

/** The ticket's draft, or null when there is none, it is too old, or what is stored is not a draft (another version, a hand edit). */
export function loadDraft(store: DraftStore, ticketId: string, now: number): Draft | null {
  let stored: unknown;
  try {
    stored = JSON.parse(store.getItem(draftKey(ticketId)) ?? 'null');
  } catch {
    return null;
  }
  if (stored === null || typeof stored !== 'object') {
    return null;
  }
  const record = stored as Record<string, unknown>;
  const mode = record.mode === 'note' ? 'note' : record.mode === 'reply' ? 'reply' : null;
  if (!isString(record.text) || !mode || !isString(record.deDuplicationKey) || record.deDuplicationKey === '') {
    return null;
  }
  const savedAt = typeof record.savedAt === 'number' ? record.savedAt : 0;
  if (now - savedAt > DRAFT_MAX_AGE_MS) {
    store.removeItem(draftKey(ticketId));
    return null;
  }
  return {
    text: record.text,
    mode,
    deDuplicationKey: record.deDuplicationKey,
    attachments: readAttachments(record.attachments),
    mentions: readMentions(record.mentions),
    savedAt,
  };
}

/**
 * Keeps the draft; an empty one is removed instead, so opening a ticket without typing leaves
 * nothing behind. A full or refused storage (private mode) is not an error: the draft still lives
 * in the page.
 */
export function saveDraft(store: DraftStore, ticketId: string, draft: Draft): void {
  try {
    if (isDraftEmpty(draft)) {
      store.removeItem(draftKey(ticketId));
    } else {
      store.setItem(draftKey(ticketId), JSON.stringify(draft));
    }
  } catch {
    // Storage unavailable: nothing more to do.
  }
}

export function clearDraft(store: DraftStore, ticketId: string): void {
  try {
    store.removeItem(draftKey(ticketId));
  } catch {
    // Storage unavailable.
  }
}
