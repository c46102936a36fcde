import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { Button } from '../../ui/Button';
import { CheckboxField, InputField, SelectField, TextareaField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { ChoicesEditor } from './ChoicesEditor';
import {
  FIELD_SOURCES,
  FIELD_TYPES,
  type FieldFormValues,
  fieldSourceLabel,
  fieldTypeLabel,
  isChoiceType,
  isTextType,
} from './custom-field-form';
import { teamsQuery } from './custom-field-queries';

const SECTION = 'flex flex-col gap-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800';

/**
 * A custom field's definition. What a field is (its record, type and team) is chosen when it is
 * created; the rest can be changed later, and each change makes a new version.
 */
export function CustomFieldForm({
  form,
  creating,
  onSubmit,
  onReload,
  onOverwrite,
  conflictNote,
}: {
  form: UseFormReturn<FieldFormValues>;
  creating: boolean;
  onSubmit: (values: FieldFormValues) => void;
  onReload?: () => void;
  onOverwrite?: () => void;
  /** Who changed the field meanwhile, and what: shown with a conflict. */
  conflictNote?: string;
}) {
  const { register, handleSubmit, watch, formState } = form;
  const { errors, isSubmitting } = formState;
  const fieldType = watch('fieldType');
  const pattern = watch('regexForValidation');
  const teams = useQuery(teamsQuery);
  const teamOptions = [
    { value: '', label: 'Whole organization' },
    ...(teams.data ?? []).map((team) => ({ value: team.id, label: team.name })),
  ];
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex max-w-2xl flex-col gap-4 p-4">
      {conflictNote && errors.root?.conflict ? (
        <p className="text-sm font-medium text-red-800 dark:text-red-200">{conflictNote}</p>
      ) : null}
      <FormProblems errors={errors} onReload={onReload} onOverwrite={onOverwrite} />
      <section aria-label="Field" className={SECTION}>
        <InputField label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        {creating ? (
          <div className="grid gap-4 sm:grid-cols-3">
            <SelectField
              label="Record"
              hint="What the field describes"
              options={FIELD_SOURCES}
              error={errors.source?.message}
              {...register('source')}
            />
            <SelectField label="Type" options={FIELD_TYPES} error={errors.fieldType?.message} {...register('fieldType')} />
            <SelectField
              label="Team"
              hint="A team's field shows on that team's records only"
              options={teamOptions}
              error={errors.teamId?.message}
              {...register('teamId')}
            />
          </div>
        ) : (
          <dl className="grid gap-2 text-sm sm:grid-cols-3">
            <Fixed term="Record" value={fieldSourceLabel(watch('source'))} />
            <Fixed term="Type" value={fieldTypeLabel(fieldType)} />
            <Fixed term="Team" value={teamOptions.find((team) => team.value === watch('teamId'))?.label ?? 'A team'} />
          </dl>
        )}
        <TextareaField
          label="Description"
          hint="For the people who fill it in"
          error={errors.description?.message}
          {...register('description')}
        />
      </section>
      {isChoiceType(fieldType) ? (
        <section aria-label="Choices" className={SECTION}>
          <ChoicesEditor control={form.control} register={register} errors={errors} />
        </section>
      ) : null}
      <section aria-label="Values" className={SECTION}>
        {isTextType(fieldType) || pattern ? (
          <InputField
            label="Validation pattern"
            hint="A regular expression every value must match, e.g. ^[A-Z]{3}-\d+$"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            error={errors.regexForValidation?.message}
            {...register('regexForValidation')}
          />
        ) : null}
        <InputField
          label="Default value"
          hint={isChoiceType(fieldType) ? 'One of the choices, or empty' : 'Filled in on new records'}
          error={errors.defaultValue?.message}
          {...register('defaultValue')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField label="Placeholder" error={errors.placeholderText?.message} {...register('placeholderText')} />
          <InputField label="Hint" error={errors.hintText?.message} {...register('hintText')} />
        </div>
      </section>
      <section aria-label="Rules" className={SECTION}>
        <CheckboxField label="Active" hint="Inactive fields are hidden from forms" {...register('isActive')} />
        <CheckboxField
          label="Required on creation"
          hint="A record cannot be created without it"
          {...register('mandatoryOnCreation')}
        />
        <CheckboxField label="Required on close" hint="A ticket cannot be closed without it" {...register('mandatoryOnClose')} />
        <CheckboxField label="Visible to customers" {...register('visibleToCustomer')} />
        <CheckboxField label="Editable by customers" {...register('editableByCustomer')} />
      </section>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={isSubmitting}>
          {creating ? 'Create field' : 'Save'}
        </Button>
      </div>
    </form>
  );
}

/** What a field is, fixed once it exists. */
function Fixed({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex flex-col">
      <dt className="text-xs font-medium text-zinc-500 dark:text-zinc-400">{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
