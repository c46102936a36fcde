import { useState } from 'react';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { InputField } from '../../ui/FormField';

/** A link's address for the selected text: http(s) or mailto only; an empty address removes the link. */
export function LinkDialog({
  open,
  initial,
  onOpenChange,
  onApply,
}: {
  open: boolean;
  initial: string;
  onOpenChange: (open: boolean) => void;
  onApply: (href: string | null) => void;
}) {
  const [href, setHref] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const apply = () => {
    const value = href.trim();
    if (value !== '' && !/^(https?:\/\/|mailto:|\/)/i.test(value)) {
      setProblem('Start the address with https://, http://, mailto: or /');
      return;
    }
    onApply(value === '' ? null : value);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Link">
      <form
        className="flex flex-col gap-3 p-4"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <InputField
          label="Address"
          value={href}
          error={problem ?? undefined}
          hint="Leave empty to remove the link."
          onChange={(event) => {
            setHref(event.target.value);
            setProblem(null);
          }}
        />
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary">
            Apply link
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
