import { Paperclip } from 'lucide-react';
import type { Macro } from '../api/types';
import { MacroPicker } from './MacroPicker';

/** Above the text: the write/preview switch, the macros, and the file chooser. */
export function ComposerToolbar({
  preview,
  onPreviewChange,
  teamId,
  onInsertMacro,
  onApplyMacro,
  applyingMacro,
  onAttach,
}: {
  preview: boolean;
  onPreviewChange: (preview: boolean) => void;
  teamId: string;
  onInsertMacro: (macro: Macro) => void;
  onApplyMacro: (macro: Macro) => void;
  applyingMacro: boolean;
  onAttach: (files: readonly File[]) => void;
}) {
  return (
    <div className="flex items-center gap-1 px-2 pt-2">
      <fieldset aria-label="Editor view" className="flex rounded-md border border-zinc-200 p-0.5 dark:border-zinc-700">
        <button
          type="button"
          aria-pressed={!preview}
          className="rounded px-2 py-0.5 text-xs aria-pressed:bg-zinc-200 dark:aria-pressed:bg-zinc-700"
          onClick={() => onPreviewChange(false)}
        >
          Write
        </button>
        <button
          type="button"
          aria-pressed={preview}
          className="rounded px-2 py-0.5 text-xs aria-pressed:bg-zinc-200 dark:aria-pressed:bg-zinc-700"
          onClick={() => onPreviewChange(true)}
        >
          Preview
        </button>
      </fieldset>
      <MacroPicker teamId={teamId} onInsert={onInsertMacro} onApply={onApplyMacro} applying={applyingMacro} />
      <label className="inline-flex cursor-pointer items-center gap-1 rounded px-2 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-blue-600 dark:text-zinc-300 dark:hover:bg-zinc-800">
        <Paperclip size={14} aria-hidden />
        Attach files
        <input
          type="file"
          multiple
          className="sr-only"
          onChange={(event) => {
            onAttach([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </label>
    </div>
  );
}
