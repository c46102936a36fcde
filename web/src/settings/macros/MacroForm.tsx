import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { MacroPlaceholder } from '../../../../src/shared/macro-placeholders';
import type { Macro } from '../../api/types';
import { useMe } from '../../auth/session';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CheckboxField, InputField, SelectField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { MacroActionsFields } from './MacroActionsFields';
import { MacroPreview } from './MacroPreview';
import { EMPTY_MACRO, type MacroFormValues, macroFormSchema, macroFormValues } from './macro-form';
import { PlaceholderHelp } from './PlaceholderHelp';
import { useMacroChoices } from './use-macro-choices';
import { useMacroSave } from './use-macro-save';

/** A sample team name for the preview of a personal macro, which runs on tickets of any team. */
const ANY_TEAM = 'Support';

/**
 * Creates (no `macro`) or edits a macro: its name, who shares it, the reply with its placeholders
 * and a live preview, and the changes it makes to the ticket. The API judges every value; a refused
 * save keeps what was typed and shows its message beside the field it names.
 */
export function MacroForm({ macro }: { macro?: Macro }) {
  const me = useMe();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const form = useForm<MacroFormValues>({
    resolver: zodResolver(macroFormSchema),
    defaultValues: macro ? macroFormValues(macro) : EMPTY_MACRO,
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty);
  const [teamId, content, visibility] = useWatch({ control: form.control, name: ['teamId', 'content', 'commentVisibility'] });
  const choices = useMacroChoices(teamId);
  const contentRef = useRef<HTMLTextAreaElement | null>(null);
  const { ref: registerContent, ...contentField } = form.register('content');

  const { onSubmit, onDelete, deleting, saved } = useMacroSave(form, macro);

  const insertPlaceholder = (name: MacroPlaceholder) => {
    const textarea = contentRef.current;
    const text = `{{${name}}}`;
    const value = form.getValues('content');
    const start = textarea?.selectionStart ?? value.length;
    const end = textarea?.selectionEnd ?? value.length;
    form.setValue('content', value.slice(0, start) + text + value.slice(end), {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
    textarea?.focus();
    textarea?.setSelectionRange(start + text.length, start + text.length);
  };

  const teamName = choices.teams.find((team) => team.id === teamId)?.name ?? ANY_TEAM;
  const teamChoices = [
    { value: '', label: 'Only me (personal)' },
    ...choices.teams.map((team) => ({ value: team.id, label: team.name })),
    ...(teamId && !choices.teams.some((team) => team.id === teamId) ? [{ value: teamId, label: 'Its team' }] : []),
  ];

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4 p-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="flex min-w-0 flex-col gap-4">
        <FormProblems errors={errors} />
        <div className="grid gap-3 sm:grid-cols-2">
          <InputField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
          <SelectField
            label="Shared with"
            hint="A team's members use a shared macro; its admins change it."
            error={errors.teamId?.message}
            options={teamChoices}
            {...form.register('teamId')}
          />
        </div>
        <InputField
          label="Description"
          hint="What the macro is for and when to use it; agents see it when they pick one."
          autoComplete="off"
          error={errors.description?.message}
          {...form.register('description')}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label="Posts"
            error={errors.commentVisibility?.message}
            options={[
              { value: 'public', label: 'A public reply to the requestor' },
              { value: 'private', label: 'An internal note' },
            ]}
            {...form.register('commentVisibility')}
          />
          <CheckboxField
            label="Email the reply to the requestor"
            hint={visibility === 'private' ? 'Notes are never emailed.' : undefined}
            disabled={visibility === 'private'}
            className="sm:pt-7"
            error={errors.shouldSendEmail?.message}
            {...form.register('shouldSendEmail')}
          />
        </div>
        <TextareaField
          label="Reply"
          hint="Markdown. Placeholders such as {{requestor.firstName}} are filled in from the ticket."
          rows={8}
          error={errors.content?.message}
          {...contentField}
          {...{
            ref: (element: HTMLTextAreaElement | null) => {
              registerContent(element);
              contentRef.current = element;
            },
          }}
        />
        <MacroActionsFields form={form} choices={choices} />
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" variant="primary" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save'}
          </Button>
          {macro ? (
            <Button variant="ghost" className="text-red-700 dark:text-red-400" onClick={() => setConfirmingDelete(true)}>
              Delete
            </Button>
          ) : null}
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {saved && !isDirty ? 'Saved.' : ''}
          </p>
        </div>
      </div>
      <div className="flex min-w-0 flex-col gap-4">
        <MacroPreview content={content} teamName={teamName} agent={me.user} />
        <PlaceholderHelp onInsert={insertPlaceholder} />
      </div>
      {macro ? (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={setConfirmingDelete}
          title={`Delete the macro “${macro.name}”?`}
          description="Agents will no longer find it on tickets. Replies it already posted stay."
          confirmLabel="Delete macro"
          pending={deleting}
          onConfirm={() => void onDelete().then((deleted) => deleted || setConfirmingDelete(false))}
        />
      ) : null}
    </form>
  );
}
