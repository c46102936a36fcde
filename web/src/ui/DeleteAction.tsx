import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from './Button';
import { ConfirmDialog } from './ConfirmDialog';
import { ErrorNotice } from './ErrorNotice';

/**
 * A "Delete …" button that asks first, saying what deleting does, then calls `remove` and
 * `onDeleted`; a refusal shows the API's message beside the button.
 */
export function DeleteAction({
  label,
  accessibleName,
  variant = 'danger',
  title,
  description,
  confirmLabel = label,
  remove,
  onDeleted,
}: {
  label: string;
  /** Where one page holds several (a note each), the name that tells them apart. */
  accessibleName?: string;
  variant?: 'danger' | 'ghost';
  title: string;
  description: string;
  confirmLabel?: string;
  remove: () => Promise<unknown>;
  onDeleted: () => Promise<unknown> | undefined;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await remove();
      setOpen(false);
      await onDeleted();
    } catch (failure) {
      setOpen(false);
      setError(failure);
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)} aria-label={accessibleName}>
        <Trash2 size={14} aria-hidden />
        {label}
      </Button>
      <ErrorNotice error={error} className="basis-full" />
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        confirmLabel={confirmLabel}
        pending={pending}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
