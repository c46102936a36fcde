import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * A modal dialog: focus trapped inside and given back on close, Escape and a click outside close
 * it, its title is its accessible name.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  hideTitle = false,
  className = '',
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  /** For dialogs whose first field says what they are (the command bar): the title stays for screen readers. */
  hideTitle?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/40" />
        <RadixDialog.Content
          // Without a description Radix wants aria-describedby cleared explicitly.
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={`fixed left-1/2 top-[12vh] z-50 flex max-h-[76vh] w-[calc(100vw-1.5rem)] max-w-lg -translate-x-1/2 flex-col rounded-lg border border-zinc-200 bg-white shadow-xl outline-none dark:border-zinc-800 dark:bg-zinc-900 ${className}`}
        >
          <div className={hideTitle ? 'sr-only' : 'px-4 pt-4 pr-10'}>
            <RadixDialog.Title className="text-base font-semibold">{title}</RadixDialog.Title>
            {description ? (
              <RadixDialog.Description className="mt-0.5 text-sm text-zinc-500 dark:text-zinc-400">
                {description}
              </RadixDialog.Description>
            ) : null}
          </div>
          {children}
          {/* Last in the content, so that opening focuses the dialog's first field rather than this button. */}
          {hideTitle ? null : (
            <RadixDialog.Close
              className="absolute top-3 right-3 rounded p-1 hover:bg-zinc-100 dark:hover:bg-zinc-800"
              aria-label="Close dialog"
            >
              <X size={16} aria-hidden />
            </RadixDialog.Close>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
