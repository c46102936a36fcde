import { describe, expect, it } from 'vitest';
import {
  clearSelection,
  EMPTY_SELECTION,
  moveFocus,
  prune,
  type Selection,
  selectRange,
  targetIds,
  toggle,
  toggleAll,
} from './selection';

const IDS = ['a', 'b', 'c', 'd', 'e'];
const selected = (selection: Selection) => [...selection.selected].sort();

describe('the keyboard focus', () => {
  it('starts on the first row with j and the last with k, and stays within the list', () => {
    expect(moveFocus(EMPTY_SELECTION, IDS, 1).focusId).toBe('a');
    expect(moveFocus(EMPTY_SELECTION, IDS, -1).focusId).toBe('e');
    let selection = moveFocus(EMPTY_SELECTION, IDS, 1);
    selection = moveFocus(moveFocus(selection, IDS, 1), IDS, 1);
    expect(selection.focusId).toBe('c');
    expect(moveFocus(moveFocus(selection, IDS, 5), IDS, 1).focusId).toBe('e');
    expect(moveFocus(selection, IDS, -9).focusId).toBe('a');
    expect(moveFocus(EMPTY_SELECTION, [], 1)).toBe(EMPTY_SELECTION);
  });

  it('moves to the row that took its place when its ticket leaves the list', () => {
    const selection = { ...EMPTY_SELECTION, focusId: 'c' };
    expect(prune(selection, ['a', 'b', 'd', 'e'], IDS).focusId).toBe('d');
    expect(prune({ ...selection, focusId: 'e' }, ['a', 'b'], IDS).focusId).toBe('b');
    expect(prune(selection, IDS, IDS)).toBe(selection);
  });
});

describe('multi-selection', () => {
  it('toggles rows, and shift-click selects the range from the last toggled row in either direction', () => {
    let selection = toggle(EMPTY_SELECTION, 'b');
    selection = selectRange(selection, IDS, 'd');
    expect(selected(selection)).toEqual(['b', 'c', 'd']);
    expect(selection.focusId).toBe('d');
    selection = toggle(selection, 'e');
    selection = selectRange(selection, IDS, 'a');
    expect(selected(selection)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('shift-click from an unselected anchor unselects the range; without an anchor it toggles', () => {
    let selection = toggleAll(EMPTY_SELECTION, IDS);
    selection = toggle(selection, 'b');
    selection = selectRange(selection, IDS, 'd');
    expect(selected(selection)).toEqual(['a', 'e']);
    expect(selected(selectRange(EMPTY_SELECTION, IDS, 'c'))).toEqual(['c']);
  });

  it('selects all loaded rows, or none when all are', () => {
    const all = toggleAll(toggle(EMPTY_SELECTION, 'a'), IDS);
    expect(selected(all)).toEqual(IDS);
    expect(selected(toggleAll(all, IDS))).toEqual([]);
    expect(selected(clearSelection(all))).toEqual([]);
  });

  it('acts on the selected rows in list order, else on the focused one', () => {
    const selection = toggle(toggle({ ...EMPTY_SELECTION, focusId: 'a' }, 'd'), 'b');
    expect(targetIds(selection, IDS)).toEqual(['b', 'd']);
    expect(targetIds({ ...EMPTY_SELECTION, focusId: 'c' }, IDS)).toEqual(['c']);
    expect(targetIds({ ...EMPTY_SELECTION, focusId: 'gone' }, IDS)).toEqual([]);
  });

  it('forgets selected rows that left the list', () => {
    const selection = toggle(toggle(EMPTY_SELECTION, 'a'), 'c');
    const pruned = prune(selection, ['a', 'b'], IDS);
    expect(selected(pruned)).toEqual(['a']);
    expect(pruned.anchorId).toBeNull();
  });
});
