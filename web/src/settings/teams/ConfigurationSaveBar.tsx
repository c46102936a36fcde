import { Button } from '../../ui/Button';
import { FormProblems } from '../../ui/FormProblems';
import type { ConfigurationForm } from './use-configuration-form';

/** One Save for hours and routing together (one PATCH), with what the API refused that names no field. */
export function ConfigurationSaveBar({ configuration }: { configuration: ConfigurationForm }) {
  const { form, saving, saved, reload } = configuration;
  const dirty = form.formState.isDirty;
  return (
    <div className="flex flex-col gap-2 border-t border-zinc-200 pt-3 dark:border-zinc-800">
      <FormProblems errors={form.formState.errors} onReload={reload} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save configuration'}
        </Button>
        {dirty ? (
          <Button variant="ghost" onClick={reload}>
            Discard changes
          </Button>
        ) : null}
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
          {dirty ? 'Unsaved changes to hours or routing.' : saved ? 'Saved.' : ''}
        </p>
      </div>
    </div>
  );
}
