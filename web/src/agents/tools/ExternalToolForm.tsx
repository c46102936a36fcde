import { useForm } from 'react-hook-form';
import { ApiError } from '../../api/client';
import { Button } from '../../ui/Button';
import { CheckboxField, InputField, SelectField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import {
  EMPTY_EXTERNAL_TOOL,
  type ExternalToolFormValues,
  externalToolBody,
  METHODS,
  parseParameters,
} from './external-tool-form';
import type { AgentToolCreate } from './tool-queries';

/**
 * A tool the agent calls over HTTP: its name, URL and method, and the JSON Schema of its
 * arguments. A refused save keeps what was typed and shows the API's words beside the field.
 */
export function ExternalToolForm({ agentId, onSave }: { agentId: string; onSave: (body: AgentToolCreate) => Promise<unknown> }) {
  const form = useForm<ExternalToolFormValues>({ defaultValues: EMPTY_EXTERNAL_TOOL });
  const { register, handleSubmit, formState, reset, setError } = form;
  const errors = formState.errors;

  const submit = handleSubmit(async (values) => {
    const parameters = parseParameters(values.configuration.parameters);
    if (!parameters.ok) {
      setError('configuration.parameters', { type: 'format', message: parameters.problem }, { shouldFocus: true });
      return;
    }
    try {
      await onSave(externalToolBody(agentId, values, parameters.value));
      reset(EMPTY_EXTERNAL_TOOL);
    } catch (error) {
      // A name taken by another tool of the agent is the name's problem, not a concurrent edit.
      if (error instanceof ApiError && error.status === 409) {
        setError('tool_name', { type: 'api', message: error.message }, { shouldFocus: true });
      } else {
        showApiError(form, error);
      }
    }
  });

  return (
    <form aria-label="New external tool" onSubmit={submit} noValidate className="flex flex-col gap-3">
      <FormProblems errors={errors} />
      <InputField
        label="Tool name"
        hint="What the model calls it, such as lookup_order."
        error={errors.tool_name?.message}
        {...register('tool_name')}
      />
      <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
        <InputField
          label="URL"
          type="url"
          placeholder="https://"
          error={errors.configuration?.url?.message}
          {...register('configuration.url')}
        />
        <SelectField
          label="Method"
          options={METHODS.map((method) => ({ value: method, label: method }))}
          error={errors.configuration?.method?.message}
          {...register('configuration.method')}
        />
      </div>
      <InputField
        label="What it does"
        hint="Told to the model, so it knows when to call it."
        error={errors.configuration?.description?.message}
        {...register('configuration.description')}
      />
      <TextareaField
        label="Arguments (JSON Schema)"
        hint="GET and DELETE send the arguments as the query string, the others as a JSON body."
        spellCheck={false}
        className="font-mono"
        error={errors.configuration?.parameters?.message}
        {...register('configuration.parameters')}
      />
      <CheckboxField label="Ask a person before each call" {...register('require_approval')} />
      <div>
        <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Adding…' : 'Add external tool'}
        </Button>
      </div>
    </form>
  );
}
