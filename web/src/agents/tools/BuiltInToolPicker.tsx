import { useId, useState } from 'react';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import type { BuiltInTool } from './tool-queries';

/** The catalog's tools the agent has not been given yet, each with what it does; one is added at a time. */
export function BuiltInToolPicker({
  available,
  onAdd,
}: {
  available: BuiltInTool[];
  onAdd: (tool: BuiltInTool, requireApproval: boolean) => Promise<unknown>;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<string>('');
  const [requireApproval, setRequireApproval] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const tool = available.find((item) => item.tool_name === chosen);

  const add = async () => {
    if (!tool) {
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onAdd(tool, requireApproval);
      setChosen('');
      setRequireApproval(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setSaving(false);
    }
  };

  if (available.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Every built-in tool is given to this agent.</p>;
  }
  return (
    <div className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Built-in tools</legend>
        {available.map((item) => (
          <div key={item.tool_name} className="flex items-start gap-2">
            <input
              id={`${id}-${item.tool_name}`}
              type="radio"
              name={`${id}-built-in`}
              className="mt-1 h-4 w-4"
              value={item.tool_name}
              checked={chosen === item.tool_name}
              aria-describedby={`${id}-${item.tool_name}-description`}
              onChange={() => setChosen(item.tool_name)}
            />
            <div className="flex flex-col">
              <label htmlFor={`${id}-${item.tool_name}`} className="text-sm font-medium">
                {item.display_name}
              </label>
              <span id={`${id}-${item.tool_name}-description`} className="text-sm text-zinc-600 dark:text-zinc-400">
                {item.description}
              </span>
            </div>
          </div>
        ))}
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="h-4 w-4"
          checked={requireApproval}
          onChange={(event) => setRequireApproval(event.target.checked)}
        />
        Ask a person before each call
      </label>
      <ErrorNotice error={error} />
      <div>
        <Button variant="primary" disabled={!tool || saving} onClick={add}>
          {saving ? 'Adding…' : 'Add built-in tool'}
        </Button>
      </div>
    </div>
  );
}
