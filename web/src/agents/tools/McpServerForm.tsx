import { useForm } from 'react-hook-form';
import { ApiError } from '../../api/client';
import { Button } from '../../ui/Button';
import { CheckboxField, InputField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';

export interface McpServerFormValues {
  name: string;
  url: string;
  require_approval: boolean;
}

const EMPTY: McpServerFormValues = { name: '', url: '', require_approval: false };

/** An MCP server for the agent: its name and endpoint; once added, "Connect" authorizes it. */
export function McpServerForm({ onSave }: { onSave: (values: McpServerFormValues) => Promise<unknown> }) {
  const form = useForm<McpServerFormValues>({ defaultValues: EMPTY });
  const { register, handleSubmit, formState, reset, setError } = form;
  const errors = formState.errors;
  const submit = handleSubmit(async (values) => {
    try {
      await onSave({ ...values, name: values.name.trim(), url: values.url.trim() });
      reset(EMPTY);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setError('name', { type: 'api', message: error.message }, { shouldFocus: true });
      } else {
        // The agent tool's name is the server's name.
        showApiError(form, error, { tool_name: 'name' });
      }
    }
  });
  return (
    <form aria-label="New MCP server" onSubmit={submit} noValidate className="flex flex-col gap-3">
      <FormProblems errors={errors} />
      <InputField label="Server name" error={errors.name?.message} {...register('name')} />
      <InputField
        label="Server URL"
        type="url"
        placeholder="https://"
        hint="The server's MCP endpoint (streamable HTTP or SSE)."
        error={errors.url?.message}
        {...register('url')}
      />
      <CheckboxField label="Ask a person before each call of its tools" {...register('require_approval')} />
      <div>
        <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Adding…' : 'Add MCP server'}
        </Button>
      </div>
    </form>
  );
}
