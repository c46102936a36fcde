import { useNavigate } from '@tanstack/react-router';
import { type Dispatch, type SetStateAction, useEffect, useRef } from 'react';
import type { BulkTicketChange } from '../api/types';
import { moveFocus, type Selection, targetIds, toggle } from './selection';
import { inboxShortcut } from './shortcuts';

/**
 * The inbox's keyboard shortcuts, on the whole window: move and toggle the focus, open, close or
 * assign the targeted tickets, and show the shortcuts. The listener is added once; it reads the
 * latest selection, rows and actions through a ref.
 */
export function useInboxShortcuts({
  selection,
  ids,
  change,
  closeStatus,
  setSelection,
  setAssigning,
  setHelpOpen,
}: {
  selection: Selection;
  ids: readonly string[];
  change: (ticketIds: string[], change: BulkTicketChange) => void;
  closeStatus: string;
  setSelection: Dispatch<SetStateAction<Selection>>;
  setAssigning: (ticketIds: string[]) => void;
  setHelpOpen: (open: boolean) => void;
}) {
  const navigate = useNavigate({ from: '/' });
  const latest = useRef({ selection, ids, change, closeStatus, setSelection, setAssigning, setHelpOpen });
  latest.current = { selection, ids, change, closeStatus, setSelection, setAssigning, setHelpOpen };
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const action = inboxShortcut(event);
      if (!action) {
        return;
      }
      const { selection: current, ids: rows, change: apply, closeStatus: closed } = latest.current;
      const { setSelection: select, setAssigning: assign, setHelpOpen: help } = latest.current;
      event.preventDefault();
      switch (action) {
        case 'next':
        case 'previous':
          select((state) => moveFocus(state, rows, action === 'next' ? 1 : -1));
          return;
        case 'toggle':
          if (current.focusId) {
            select((state) => toggle(state, current.focusId ?? ''));
          }
          return;
        case 'open':
          if (current.focusId) {
            void navigate({ to: '/tickets/$ticketId', params: { ticketId: current.focusId } });
          }
          return;
        case 'close':
          apply(targetIds(current, rows), { statusName: closed });
          return;
        case 'assign': {
          const targets = targetIds(current, rows);
          if (targets.length > 0) {
            assign(targets);
          }
          return;
        }
        case 'help':
          help(true);
          return;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navigate]);
}
