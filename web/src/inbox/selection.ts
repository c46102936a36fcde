/**
 * The list's keyboard focus and multi-selection, by ticket id rather than row index, so that a
 * ticket arriving live above the focus moves nothing under the user's hands.
 */
export interface Selection {
  /** The row `j`/`k` move and `Enter`, `x`, `e`, `a` act on. */
  focusId: string | null;
  selected: ReadonlySet<string>;
  /** Where a shift-click range starts: the last row toggled. */
  anchorId: string | null;
}

export const EMPTY_SELECTION: Selection = { focusId: null, selected: new Set(), anchorId: null };

/** The focus moved by `delta` rows, kept within the list; from nowhere, `j` lands on the first row and `k` on the last. */
export function moveFocus(selection: Selection, ids: readonly string[], delta: number): Selection {
  if (ids.length === 0) {
    return selection;
  }
  const current = selection.focusId === null ? -1 : ids.indexOf(selection.focusId);
  const next = current === -1 ? (delta > 0 ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, current + delta));
  return { ...selection, focusId: ids[next] ?? null };
}

export function focus(selection: Selection, id: string): Selection {
  return { ...selection, focusId: id };
}

/** One row in or out of the selection; it becomes the focus and the anchor of a later range. */
export function toggle(selection: Selection, id: string): Selection {
  const selected = new Set(selection.selected);
  if (!selected.delete(id)) {
    selected.add(id);
  }
  return { focusId: id, selected, anchorId: id };
}

/**
 * Shift-click: every row from the anchor to this one takes the state the anchor has (selected,
 * usually), as file managers do. Without an anchor it is a plain toggle.
 */
export function selectRange(selection: Selection, ids: readonly string[], id: string): Selection {
  const from = selection.anchorId === null ? -1 : ids.indexOf(selection.anchorId);
  const to = ids.indexOf(id);
  if (from === -1 || to === -1) {
    return toggle(selection, id);
  }
  const select = selection.selected.has(selection.anchorId ?? '');
  const selected = new Set(selection.selected);
  for (const rangeId of ids.slice(Math.min(from, to), Math.max(from, to) + 1)) {
    if (select) {
      selected.add(rangeId);
    } else {
      selected.delete(rangeId);
    }
  }
  return { ...selection, focusId: id, selected };
}

/** Every loaded row selected, or none when all already are (the header checkbox). */
export function toggleAll(selection: Selection, ids: readonly string[]): Selection {
  const allSelected = ids.length > 0 && ids.every((id) => selection.selected.has(id));
  return { ...selection, selected: allSelected ? new Set() : new Set(ids) };
}

export function clearSelection(selection: Selection): Selection {
  return { ...selection, selected: new Set(), anchorId: null };
}

/** Forgets rows that left the list (closed, deleted, filtered away); the focus moves to the row that took its place. */
export function prune(selection: Selection, ids: readonly string[], previousIds: readonly string[]): Selection {
  const present = new Set(ids);
  const selected = [...selection.selected].filter((id) => present.has(id));
  let focusId = selection.focusId;
  if (focusId !== null && !present.has(focusId)) {
    const was = previousIds.indexOf(focusId);
    const survivors = previousIds.slice(Math.max(0, was)).find((id) => present.has(id));
    focusId = survivors ?? ids[ids.length - 1] ?? null;
  }
  const anchorId = selection.anchorId !== null && present.has(selection.anchorId) ? selection.anchorId : null;
  if (focusId === selection.focusId && anchorId === selection.anchorId && selected.length === selection.selected.size) {
    return selection;
  }
  return { focusId, selected: new Set(selected), anchorId };
}

/** What `e` and `a` act on: the selected rows, or else the focused one. */
export function targetIds(selection: Selection, ids: readonly string[]): string[] {
  if (selection.selected.size > 0) {
    return ids.filter((id) => selection.selected.has(id));
  }
  return selection.focusId !== null && ids.includes(selection.focusId) ? [selection.focusId] : [];
}
