import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm, useWatch } from 'react-hook-form';
import { TICKET_SORTS } from '../../../../src/shared/ticket-sorts';
import { api, unwrap } from '../../api/client';
import { useInboxOptions } from '../../api/ticket-options';
import type { TicketView } from '../../api/types';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { InputField, SelectField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { TICKET_SORT_LABELS } from '../../ui/ticket-sort-labels';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { ViewFilterFields } from './ViewFilterFields';
import {
  EMPTY_VIEW,
  otherFilters,
  VIEW_API_NAMES,
  type ViewBody,
  type ViewFormValues,
  viewBody,
  viewFormSchema,
  viewFormValues,
} from './view-form';
import { ticketCountText } from './view-queries';

const SORT_CHOICES = TICKET_SORTS.map((sort) => ({ value: sort, label: TICKET_SORT_LABELS[sort] }));

/**
 * Creates (no `view`) or edits a saved view: its name, who shares it, its sort and filters, and
 * how many tickets it matches now. The API judges every value; a refused save keeps what was typed
 * and shows its message beside the field it names.
 */
export function ViewForm({ view }: { view?: TicketView }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useInboxOptions();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const form = useForm<ViewFormValues>({
    resolver: zodResolver(viewFormSchema),
    defaultValues: view ? viewFormValues(view) : EMPTY_VIEW,
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  useUnsavedChanges(isDirty);
  const teamId = useWatch({ control: form.control, name: 'teamId' });
  const kept = view ? otherFilters(view.filters) : {};

  const save = useMutation({
    mutationFn: async (body: ViewBody) =>
      view
        ? (await unwrap(api.PATCH('/v1/views/{viewId}', { params: { path: { viewId: view.id } }, body }))).data
        : (await unwrap(api.POST('/v1/views', { body }))).data,
  });
  const remove = useMutation({
    mutationFn: async (viewId: string) => unwrap(api.DELETE('/v1/views/{viewId}', { params: { path: { viewId } } })),
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await save.mutateAsync(viewBody(values, kept));
      queryClient.setQueryData(['views', result.id], result);
      void queryClient.invalidateQueries({ queryKey: ['views'] });
      // The guard against leaving must see the form clean before the page moves to the saved view.
      flushSync(() => form.reset(viewFormValues(result)));
      if (!view) {
        await navigate({ to: '/settings/views/$viewId', params: { viewId: result.id }, replace: true });
      }
    } catch (error) {
      showApiError(form, error, VIEW_API_NAMES);
    }
  });

  const onDelete = async () => {
    if (!view) {
      return;
    }
    try {
      await remove.mutateAsync(view.id);
      queryClient.removeQueries({ queryKey: ['views', view.id] });
      void queryClient.invalidateQueries({ queryKey: ['views'] });
      flushSync(() => form.reset());
      await navigate({ to: '/settings/views' });
    } catch (error) {
      setConfirmingDelete(false);
      showApiError(form, error);
    }
  };

  const teamChoices = [
    { value: '', label: 'Only me (personal)' },
    ...options.teams.map((team) => ({ value: team.id, label: team.name })),
    ...(teamId && !options.teams.some((team) => team.id === teamId) ? [{ value: teamId, label: 'Its team' }] : []),
  ];

  return (
    <form noValidate onSubmit={onSubmit} className="flex max-w-5xl flex-col gap-4 p-4">
      <FormProblems errors={errors} />
      {view ? <ViewCount view={view} changed={isDirty} /> : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <InputField label="Name" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        <SelectField
          label="Shared with"
          hint="The team's members see it in their inbox; its admins change it."
          error={errors.teamId?.message}
          options={teamChoices}
          {...form.register('teamId')}
        />
        <SelectField label="Sort" error={errors.sort?.message} options={SORT_CHOICES} {...form.register('sort')} />
      </div>
      <ViewFilterFields form={form} options={options} />
      {Object.keys(kept).length > 0 ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          Also kept as saved: {Object.keys(kept).join(', ')} (set through the API).
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save'}
        </Button>
        {view ? (
          <Button variant="ghost" className="text-red-700 dark:text-red-400" onClick={() => setConfirmingDelete(true)}>
            Delete
          </Button>
        ) : null}
      </div>
      {view ? (
        <ConfirmDialog
          open={confirmingDelete}
          onOpenChange={setConfirmingDelete}
          title={`Delete the view “${view.name}”?`}
          description="It leaves the inbox of everyone it is shared with. The tickets stay as they are."
          confirmLabel="Delete view"
          pending={remove.isPending}
          onConfirm={() => void onDelete()}
        />
      ) : null}
    </form>
  );
}

/** How many tickets the saved view matches now, for the signed-in admin, and the way to them. */
function ViewCount({ view, changed }: { view: TicketView; changed: boolean }) {
  return (
    <p role="status" className="flex flex-wrap items-center gap-x-3 rounded-md bg-zinc-50 px-3 py-2 text-sm dark:bg-zinc-900">
      <span>
        Matches <strong className="tabular-nums">{ticketCountText(view)}</strong> now
        {changed ? ' (as saved: save to count the changes)' : ''}.
      </span>
      <Link to="/" search={{ view: view.id }} className="text-blue-700 hover:underline dark:text-blue-400">
        Open in the inbox
      </Link>
    </p>
  );
}
