import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, unwrap } from '../../api/client';
import { PageHeader } from '../../ui/PageHeader';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { CustomFieldForm } from './CustomFieldForm';
import { createBodyOf, type FieldFormValues, fieldFormSchema, NEW_FIELD } from './custom-field-form';
import { CUSTOM_FIELDS_KEY, customFieldQuery } from './custom-field-queries';

/** "New field": the definition, created at version 1, then its own page. */
export function NewCustomFieldPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<FieldFormValues>({ resolver: zodResolver(fieldFormSchema), defaultValues: NEW_FIELD });
  const [createdId, setCreatedId] = useState<string | null>(null);
  useUnsavedChanges(form.formState.isDirty && createdId === null);
  useEffect(() => {
    // After the render that let go of the unsaved-changes guard.
    if (createdId) {
      void navigate({ to: '/settings/custom-fields/$fieldId', params: { fieldId: createdId } });
    }
  }, [createdId, navigate]);

  const create = async (values: FieldFormValues) => {
    try {
      const created = (await unwrap(api.POST('/v1/custom-field', { body: createBodyOf(values) }))).data;
      queryClient.setQueryData(customFieldQuery(created.uid).queryKey, created);
      await queryClient.invalidateQueries({ queryKey: CUSTOM_FIELDS_KEY, refetchType: 'none' });
      setCreatedId(created.uid);
    } catch (error) {
      showApiError(form, error);
    }
  };

  return (
    <>
      <PageHeader title="New field" description="A field people fill in on tickets, accounts or contacts." />
      <CustomFieldForm form={form} creating onSubmit={create} />
    </>
  );
}
