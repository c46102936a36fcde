import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '../ui/Button';
import { ColorField } from '../ui/ColorField';
import { InputField } from '../ui/FormField';
import { FormProblems } from '../ui/FormProblems';
import { showApiError } from '../ui/use-api-form';
import { useUnsavedChanges } from '../ui/use-unsaved-changes';
import { HELP_CENTERS_KEY, type HelpCenter, updateHelpCenter } from './knowledge-api';
import { LogoField } from './LogoField';

/** Named as the API names them, so that a refused value's message lands beside its field. */
interface SettingsValues {
  name: string;
  slug: string;
  theme: { primaryColor: string; logoAttachmentId: string | null };
}

const valuesOf = (helpCenter: HelpCenter): SettingsValues => ({
  name: helpCenter.name,
  slug: helpCenter.slug,
  theme: { primaryColor: helpCenter.theme.primaryColor, logoAttachmentId: helpCenter.theme.logoAttachmentId },
});

/** A help center's name, address, colour and logo (admins). A refused save keeps what was typed. */
export function HelpCenterSettingsForm({ helpCenter }: { helpCenter: HelpCenter }) {
  const queryClient = useQueryClient();
  const form = useForm<SettingsValues>({ defaultValues: valuesOf(helpCenter) });
  const { register, handleSubmit, formState, reset, control } = form;
  const [saved, setSaved] = useState(false);
  useUnsavedChanges(formState.isDirty && !formState.isSubmitting);
  const submit = handleSubmit(async (values) => {
    setSaved(false);
    try {
      const updated = await updateHelpCenter(helpCenter._id, values);
      queryClient.setQueryData([...HELP_CENTERS_KEY, helpCenter._id], updated);
      await queryClient.invalidateQueries({ queryKey: HELP_CENTERS_KEY });
      reset(valuesOf(updated));
      setSaved(true);
    } catch (error) {
      showApiError(form, error);
    }
  });
  return (
    <section aria-labelledby="settings-heading" className="flex flex-col gap-3">
      <h2 id="settings-heading" className="text-base font-semibold">
        Settings
      </h2>
      <form
        aria-label="Help center settings"
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
      >
        <FormProblems errors={formState.errors} />
        <InputField label="Name" error={formState.errors.name?.message} {...register('name')} />
        <InputField
          label="Slug"
          hint="The site's address: /hc/slug/. Lower-case letters and digits joined by single hyphens."
          spellCheck={false}
          error={formState.errors.slug?.message}
          {...register('slug')}
        />
        <Controller
          control={control}
          name="theme.primaryColor"
          render={({ field, fieldState }) => (
            <ColorField
              label="Primary colour"
              hint="Links, buttons and the header of the public site."
              error={fieldState.error?.message}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
            />
          )}
        />
        <Controller
          control={control}
          name="theme.logoAttachmentId"
          render={({ field, fieldState }) => (
            <LogoField value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <div className="flex items-center justify-end gap-3">
          {saved && !formState.isDirty ? (
            <output className="text-sm text-emerald-700 dark:text-emerald-400">Settings saved</output>
          ) : null}
          <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Saving…' : 'Save settings'}
          </Button>
        </div>
      </form>
    </section>
  );
}
