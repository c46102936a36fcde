import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, api, unwrap } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { CustomFieldForm } from './CustomFieldForm';
import {
  BULK_UPDATE_NAMES,
  changedProperties,
  type FieldFormValues,
  fieldFormSchema,
  formValuesOf,
  updatesOf,
} from './custom-field-form';
import { CUSTOM_FIELDS_KEY, type CustomField, customFieldQuery, userNameQuery } from './custom-field-queries';
import { DeleteCustomField } from './DeleteCustomField';

/** One custom field, edited through the versioned bulk update; deleted after a confirmation. */
export function CustomFieldPage() {
  const { fieldId } = useParams({ strict: false }) as { fieldId: string };
  const field = useQuery(customFieldQuery(fieldId));
  return (
    <>
      <PageHeader
        title={field.data?.name ?? 'Custom field'}
        description={field.data ? `Version ${field.data.version}` : undefined}
        actions={
          <>
            <Link
              to="/settings/custom-fields"
              className="inline-flex items-center gap-1 self-center text-sm text-blue-700 hover:underline dark:text-blue-400"
            >
              <ArrowLeft size={14} aria-hidden />
              All fields
            </Link>
            {field.data ? <DeleteCustomField field={field.data} /> : null}
          </>
        }
      />
      {field.error ? <ErrorNotice error={field.error} className="m-4" /> : null}
      {field.isPending ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p> : null}
      {field.data ? <CustomFieldEditor key={field.data.uid} field={field.data} /> : null}
    </>
  );
}

/**
 * The form keeps the version its edits are based on. A save sends only what changed, at that
 * version; when someone else saved first (409) it says who and what, and offers their version
 * (Reload) or ours written over it (Overwrite: the same changes at their version).
 */
function CustomFieldEditor({ field }: { field: CustomField }) {
  const queryClient = useQueryClient();
  const [base, setBase] = useState(field);
  const [theirs, setTheirs] = useState<{ field: CustomField; note: string } | null>(null);
  const form = useForm<FieldFormValues>({ resolver: zodResolver(fieldFormSchema), defaultValues: formValuesOf(field) });
  useUnsavedChanges(form.formState.isDirty);

  const adopt = (current: CustomField, values: FieldFormValues = formValuesOf(current)) => {
    queryClient.setQueryData(customFieldQuery(current.uid).queryKey, current);
    setBase(current);
    setTheirs(null);
    form.reset(values);
  };

  const describeConflict = async (): Promise<void> => {
    const current = await queryClient.fetchQuery({ ...customFieldQuery(base.uid), staleTime: 0 });
    const who = current.updatedBy ? await queryClient.fetchQuery(userNameQuery(current.updatedBy)) : null;
    const what = changedProperties(formValuesOf(base), formValuesOf(current));
    const changes = what.length > 0 ? `: ${what.join(', ')}` : '';
    setTheirs({
      field: current,
      note: `${who ?? 'Someone else'} changed this field while you were editing (now version ${current.version})${changes}.`,
    });
  };

  const save = async (values: FieldFormValues, version: number) => {
    const updates = updatesOf(formValuesOf(base), values);
    if (Object.keys(updates).length === 0) {
      form.reset(values);
      return;
    }
    try {
      const body = { fields: [{ fieldId: base.uid, version, updates }] };
      const [saved] = (await unwrap(api.PATCH('/v1/custom-field', { body }))).data;
      if (saved) {
        adopt(saved);
      }
      await queryClient.invalidateQueries({ queryKey: CUSTOM_FIELDS_KEY, refetchType: 'none' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        await describeConflict().catch(() => undefined);
      }
      showApiError(form, error, BULK_UPDATE_NAMES);
    }
  };

  return (
    <CustomFieldForm
      form={form}
      creating={false}
      conflictNote={theirs?.note}
      onSubmit={(values) => save(values, base.version)}
      onReload={theirs ? () => adopt(theirs.field) : undefined}
      onOverwrite={
        theirs
          ? () => {
              form.clearErrors();
              void save(form.getValues(), theirs.field.version);
            }
          : undefined
      }
    />
  );
}
