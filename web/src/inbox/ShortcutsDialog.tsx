import { Dialog } from '../ui/Dialog';
import { INBOX_SHORTCUTS } from './shortcuts';

/** `?`: the inbox's keys. */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 p-4 text-sm">
        {INBOX_SHORTCUTS.map((shortcut) => (
          <div key={shortcut.action} className="contents">
            <dt className="flex gap-1">
              {shortcut.keys.map((key) => (
                <kbd
                  key={key}
                  className="rounded border border-zinc-300 bg-zinc-50 px-1.5 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-800"
                >
                  {key}
                </kbd>
              ))}
            </dt>
            <dd>{shortcut.label}</dd>
          </div>
        ))}
      </dl>
      <p className="px-4 pb-4 text-xs text-zinc-500 dark:text-zinc-400">Shortcuts are off while you type in a field.</p>
    </Dialog>
  );
}
