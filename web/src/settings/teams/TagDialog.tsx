import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError, api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { ColorField } from '../../ui/ColorField';
import { Dialog } from '../../ui/Dialog';
import { InputField, SelectField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { type TeamTag, teamKeys } from './team-queries';

/** Only what the form can tell on its own; the name's length and the colour's form are the API's to judge. */
const TagSchema = z.object({
  name: z.string(),
  color: z.string().trim(),
  type: z.enum(['ticket', 'skills']),
  description: z.string(),
});
type TagValues = z.infer<typeof TagSchema>;

const TYPES = [
  { value: 'ticket', label: 'Ticket: put on tickets to sort them' },
  { value: 'skills', label: "Skills: what the team's members know" },
];

const valuesOf = (tag: TeamTag | null): TagValues => ({
  name: tag?.name ?? '',
  color: tag?.color ?? '#1F74DB',
  type: tag?.type ?? 'ticket',
  description: tag?.description ?? '',
});

/** Creates a tag (`tag` null) or edits one; a refused save keeps what was typed, the API's words beside the field. */
export function TagDialog({
  teamId,
  open,
  tag,
  onClose,
}: {
  teamId: string;
  open: boolean;
  tag: TeamTag | null;
  onClose: () => void;
}) {
  const form = useForm<TagValues>({ resolver: zodResolver(TagSchema), defaultValues: valuesOf(tag) });
  const queryClient = useQueryClient();
  useEffect(() => {
    if (open) {
      form.reset(valuesOf(tag));
    }
  }, [open, tag, form]);
  const save = useMutation({
    mutationFn: async (values: TagValues) => {
      const body = {
        name: values.name,
        color: values.color || null,
        type: values.type,
        description: values.description.trim() || null,
      };
      const path = { teamUuid: teamId };
      return tag
        ? unwrap(api.PUT('/v1/teams/{teamUuid}/tags/{tagUuid}', { params: { path: { ...path, tagUuid: tag.id } }, body }))
        : unwrap(api.POST('/v1/teams/{teamUuid}/tags', { params: { path }, body }));
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.tags(teamId) });
      onClose();
    },
    onError: (error) => {
      // A taken name is a 409, but it is the name that needs changing, not someone else's edit.
      if (error instanceof ApiError && error.status === 409) {
        form.setError('name', { type: 'api', message: error.message }, { shouldFocus: true });
        return;
      }
      showApiError(form, error);
    },
  });
  const errors = form.formState.errors;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())} title={tag ? `Edit tag ${tag.name}` : 'New tag'}>
      <form className="flex flex-col gap-3 p-4" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <InputField
          label="Tag name"
          hint="1 to 50 characters, unique in the team."
          autoComplete="off"
          error={errors.name?.message}
          {...form.register('name')}
        />
        <Controller
          control={form.control}
          name="color"
          render={({ field }) => (
            <ColorField
              label="Colour"
              hint="#RRGGBB"
              error={errors.color?.message}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
        <SelectField label="Type" options={TYPES} error={errors.type?.message} {...form.register('type')} />
        <TextareaField label="Description" error={errors.description?.message} {...form.register('description')} />
        <FormProblems errors={errors} />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {tag ? 'Save tag' : 'Create tag'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
