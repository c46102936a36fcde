import { useState } from 'react';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { InputField, SelectField } from '../../ui/FormField';
import { mergeTag, renameTag, type Tag } from './tags-api';

/** Renames a tag, or merges it into another: the API's refusal stays beside the field it is about. */
export function TagDialog({
  tag,
  mode,
  tags,
  onOpenChange,
  onDone,
}: {
  tag: Tag;
  mode: 'rename' | 'merge';
  tags: Tag[];
  onOpenChange: (open: boolean) => void;
  onDone: () => Promise<unknown>;
}) {
  const others = tags.filter((other) => other._id !== tag._id);
  const [name, setName] = useState(tag.name);
  const [intoTagId, setIntoTagId] = useState(others[0]?._id ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = mode === 'rename' ? `Rename tag ${tag.name}` : `Merge tag ${tag.name}`;
  const submit = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await (mode === 'rename' ? renameTag(tag._id, name) : mergeTag(tag._id, intoTagId));
      await onDone();
      onOpenChange(false);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={onOpenChange} title={title}>
      <form
        aria-label={title}
        className="flex flex-col gap-3 p-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {mode === 'rename' ? (
          <InputField label="Name" value={name} error={problem ?? undefined} onChange={(event) => setName(event.target.value)} />
        ) : (
          <SelectField
            label="Merge into"
            hint={`Articles tagged ${tag.name} get this tag instead, and ${tag.name} is deleted.`}
            value={intoTagId}
            error={problem ?? undefined}
            options={others.map((other) => ({ value: other._id, label: other.name }))}
            onChange={(event) => setIntoTagId(event.target.value)}
          />
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {mode === 'rename' ? 'Save name' : 'Merge tags'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
