import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Eye, Pencil } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../ui/Button';
import { InputField, SelectField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { Markdown } from '../../ui/Markdown';
import { Tabs } from '../../ui/Tabs';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { attributeValuesQuery } from './account-queries';

const noteSchema = z.object({
  content: z.string().trim().min(1, 'Write the note first').max(100_000, 'At most 100,000 characters'),
  type: z.string(),
  visibility: z.enum(['public', 'private']),
});
export type NoteValues = z.infer<typeof noteSchema>;
export const NEW_NOTE: NoteValues = { content: '', type: '', visibility: 'public' };

const VISIBILITIES = [
  { value: 'public', label: 'Everyone in the organization' },
  { value: 'private', label: 'Only me and admins' },
];

/**
 * A note in markdown, with a preview, its type and who may read it; a new note may carry files.
 * On a refused save what was typed stays, and the API's words show beside the field they name.
 */
export function NoteEditor({
  defaultValues,
  submitLabel,
  withFiles,
  onSave,
  onCancel,
}: {
  defaultValues: NoteValues;
  submitLabel: string;
  withFiles: boolean;
  onSave: (values: NoteValues, files: File[]) => Promise<void>;
  onCancel?: () => void;
}) {
  const form = useForm<NoteValues>({ resolver: zodResolver(noteSchema), defaultValues });
  const { register, formState, watch } = form;
  const { errors } = formState;
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [files, setFiles] = useState<File[]>([]);
  const [fileInputKey, setFileInputKey] = useState(0);
  const types = useQuery(attributeValuesQuery('note_type'));
  useUnsavedChanges(formState.isDirty || files.length > 0);
  const submit = async (values: NoteValues) => {
    try {
      await onSave(values, files);
      form.reset(defaultValues);
      setFiles([]);
      setFileInputKey((key) => key + 1);
      setTab('write');
    } catch (error) {
      showApiError(form, error);
    }
  };
  return (
    <form noValidate onSubmit={form.handleSubmit(submit)} className="flex flex-col gap-3">
      <FormProblems errors={errors} />
      <Tabs
        label="Note editor"
        value={tab}
        onValueChange={setTab}
        items={[
          { value: 'write', label: 'Write', icon: <Pencil size={14} aria-hidden /> },
          { value: 'preview', label: 'Preview', icon: <Eye size={14} aria-hidden /> },
        ]}
      >
        <div className="pt-2">
          {tab === 'write' ? (
            <TextareaField
              label="Note"
              hint="Markdown: **bold**, lists, links"
              error={errors.content?.message}
              {...register('content')}
            />
          ) : (
            <Markdown
              label="Preview"
              markdown={watch('content') || '_Nothing to preview yet._'}
              className="min-h-24 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
            />
          )}
        </div>
      </Tabs>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Type"
          options={[
            { value: '', label: 'Default' },
            ...(types.data ?? []).map((type) => ({ value: type.id, label: type.value })),
          ]}
          error={errors.type?.message}
          {...register('type')}
        />
        <SelectField label="Visibility" options={VISIBILITIES} error={errors.visibility?.message} {...register('visibility')} />
      </div>
      {withFiles ? (
        <InputField
          key={fileInputKey}
          label="Files"
          type="file"
          multiple
          onChange={(event) => setFiles([...(event.target.files ?? [])])}
        />
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
          {submitLabel}
        </Button>
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
      </div>
    </form>
  );
}
