import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ModelProvider, ModelProviderTestResult } from '../api/agent-studio-client';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { CheckboxField, InputField, SelectField } from '../ui/FormField';
import { FormProblems } from '../ui/FormProblems';
import { showApiError } from '../ui/use-api-form';
import { useUnsavedChanges } from '../ui/use-unsaved-changes';
import { PROVIDER_KINDS, type ProviderFormValues, providerFormValues, tryKey } from './provider-form';

/**
 * A model provider's settings, new or saved. A typed key is tried first; one that fails its test
 * is saved only when the user says so. A refused save keeps what was typed and shows the API's
 * words beside the field they name.
 */
export function ProviderForm({
  provider,
  submitLabel,
  onSave,
}: {
  provider?: ModelProvider;
  submitLabel: string;
  /** Sends the values; answers the saved provider, which the form then shows as unchanged. */
  onSave: (values: ProviderFormValues) => Promise<ModelProvider>;
}) {
  const form = useForm<ProviderFormValues>({ defaultValues: providerFormValues(provider) });
  const { register, handleSubmit, formState, reset } = form;
  const [failedKey, setFailedKey] = useState<{ values: ProviderFormValues; result: ModelProviderTestResult } | null>(null);
  const [saving, setSaving] = useState(false);
  useUnsavedChanges(formState.isDirty && !formState.isSubmitting && !saving);

  const save = async (values: ProviderFormValues) => {
    setSaving(true);
    try {
      reset(providerFormValues(await onSave(values)));
    } catch (error) {
      showApiError(form, error);
    } finally {
      setSaving(false);
    }
  };

  const submit = handleSubmit(async (values) => {
    if (values.api_key) {
      try {
        const result = await tryKey(values);
        if (!result.ok) {
          setFailedKey({ values, result });
          return;
        }
      } catch (error) {
        showApiError(form, error);
        return;
      }
    }
    await save(values);
  });

  const keyHint = provider?.has_api_key
    ? 'A key is set; it is never shown. Leave this empty to keep it, or type a new one to replace it.'
    : 'No key is set. A key you type is tried with one tiny completion before it is saved.';
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <FormProblems errors={formState.errors} />
      <InputField label="Name" error={formState.errors.name?.message} {...register('name')} />
      <SelectField label="Kind" options={PROVIDER_KINDS} error={formState.errors.kind?.message} {...register('kind')} />
      <InputField
        label="Base URL"
        type="url"
        placeholder="https://api.openai.com/v1"
        hint="The API root; a private address only where the server's OUTBOUND_ALLOWED_HOSTS names it."
        error={formState.errors.base_url?.message}
        {...register('base_url')}
      />
      <InputField
        label="Default model"
        placeholder="gpt-4o-mini"
        hint="The model of agents that name none."
        error={formState.errors.default_model?.message}
        {...register('default_model')}
      />
      <InputField
        label="API key"
        type="password"
        autoComplete="new-password"
        placeholder={provider?.has_api_key ? 'Set (hidden)' : 'Not set'}
        hint={keyHint}
        error={formState.errors.api_key?.message}
        {...register('api_key')}
      />
      {provider?.has_api_key ? (
        <CheckboxField label="Remove the key" hint="The provider is then called without one." {...register('remove_key')} />
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={formState.isSubmitting || saving}>
          {formState.isSubmitting || saving ? 'Saving…' : submitLabel}
        </Button>
      </div>
      <ConfirmDialog
        open={failedKey !== null}
        onOpenChange={(open) => (open ? undefined : setFailedKey(null))}
        title="The key failed its test"
        description={`${failedKey?.result.error ?? 'The provider did not answer.'} Save the provider with this key anyway?`}
        confirmLabel="Save anyway"
        pending={saving}
        onConfirm={() => {
          const values = failedKey?.values;
          setFailedKey(null);
          if (values) {
            void save(values);
          }
        }}
      />
    </form>
  );
}
