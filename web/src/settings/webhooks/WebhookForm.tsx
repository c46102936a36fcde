import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '../../ui/Button';
import { CheckboxField, InputField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { EventTypePicker } from './EventTypePicker';
import { type WebhookFormValues, webhookFormSchema, webhookFormValues } from './webhook-form';
import type { Webhook } from './webhook-queries';

/**
 * A webhook's settings, new or saved. A refused save keeps what was typed and shows the API's
 * words beside the field they name (a private or non-http(s) URL beside the URL).
 */
export function WebhookForm({
  webhook,
  submitLabel,
  onSave,
}: {
  webhook?: Webhook;
  submitLabel: string;
  /** Sends the values; answers the saved webhook, which the form then shows as unchanged. */
  onSave: (values: WebhookFormValues) => Promise<Webhook>;
}) {
  const form = useForm<WebhookFormValues>({
    resolver: zodResolver(webhookFormSchema),
    defaultValues: webhookFormValues(webhook),
  });
  const { register, handleSubmit, formState, reset } = form;
  useUnsavedChanges(formState.isDirty && !formState.isSubmitting);

  const submit = handleSubmit(async (values) => {
    try {
      reset(webhookFormValues(await onSave(values)));
    } catch (error) {
      showApiError(form, error);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <FormProblems errors={formState.errors} />
      <InputField
        label="URL"
        type="url"
        placeholder="https://example.com/webhooks/switchboard"
        hint="Deliveries are POSTed here, signed as Standard Webhooks. It must be https on a public address."
        error={formState.errors.url?.message}
        {...register('url')}
      />
      <TextareaField
        label="Description"
        placeholder="What receives these events"
        error={formState.errors.description?.message}
        {...register('description')}
      />
      <EventTypePicker field={register('eventTypes')} error={formState.errors.eventTypes?.message} />
      <CheckboxField
        label="Enabled"
        hint="Off: events are kept while retained, and sent once it is turned back on."
        error={formState.errors.enabled?.message}
        {...register('enabled')}
      />
      <div className="flex justify-end">
        <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
