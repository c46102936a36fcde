import { Controller, useForm } from 'react-hook-form';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { CheckboxField, InputField, TextareaField } from '../ui/FormField';
import { FormProblems } from '../ui/FormProblems';
import { showApiError } from '../ui/use-api-form';
import { IconPicker } from './IconPicker';
import type { Collection, CollectionUpdate } from './knowledge-api';

/** Named as the API names them, so that a refused value's message lands beside its field. */
interface CollectionValues {
  name: string;
  description: string;
  icon: string;
  isProtected: boolean;
  meta: { title: string; description: string; image: string };
}

const valuesOf = (collection: Collection | undefined): CollectionValues => ({
  name: collection?.name ?? '',
  description: collection?.description ?? '',
  icon: collection?.icon ?? 'book',
  isProtected: collection?.isProtected ?? false,
  meta: {
    title: collection?.meta.title ?? '',
    description: collection?.meta.description ?? '',
    image: collection?.meta.image ?? '',
  },
});

/** What both writes send: an emptied text clears its value. */
export type CollectionBody = CollectionUpdate & { name: string; description: string | null };

/**
 * `protectionChanged`: the API answers a collection's protection as read (true under a protected
 * parent), so an edit sends it only when the box was changed, never copying the parent's onto it.
 */
function bodyOf(values: CollectionValues, protectionChanged: boolean): CollectionBody {
  const orNull = (text: string) => (text.trim() === '' ? null : text);
  return {
    name: values.name,
    description: orNull(values.description),
    icon: values.icon,
    ...(protectionChanged ? { isProtected: values.isProtected } : {}),
    meta: { title: orNull(values.meta.title), description: orNull(values.meta.description), image: orNull(values.meta.image) },
  };
}

/**
 * A collection's name, description, icon, protection and search-engine text, new or saved. A
 * refused save keeps the dialog open with what was typed, the API's words beside their field.
 */
export function CollectionDialog({
  collection,
  parentName,
  open,
  onOpenChange,
  save,
}: {
  collection?: Collection;
  /** For a protected parent: its sub-collections read as protected whatever they say. */
  parentName?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  save: (body: CollectionBody) => Promise<unknown>;
}) {
  const title = collection ? `Edit collection ${collection.name}` : 'New collection';
  const form = useForm<CollectionValues>({ values: valuesOf(collection) });
  const { register, handleSubmit, formState, control } = form;
  const submit = handleSubmit(async (values) => {
    try {
      await save(bodyOf(values, !collection || Boolean(formState.dirtyFields.isProtected)));
      form.reset();
      onOpenChange(false);
    } catch (error) {
      showApiError(form, error);
    }
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title}>
      <form aria-label={title} onSubmit={submit} noValidate className="flex flex-col gap-3 overflow-y-auto p-4">
        <FormProblems errors={formState.errors} />
        <InputField label="Name" error={formState.errors.name?.message} {...register('name')} />
        <TextareaField
          label="Description"
          hint="A line under the collection's name on the public site."
          error={formState.errors.description?.message}
          {...register('description')}
        />
        <Controller
          control={control}
          name="icon"
          render={({ field }) => <IconPicker value={field.value} onChange={field.onChange} />}
        />
        <CheckboxField
          label="Only for signed-in customers"
          hint={
            parentName
              ? `Its articles need a sign-in to read; under a protected ${parentName} they need one anyway.`
              : 'Its articles, and those of its sub-collections, need a sign-in to read.'
          }
          error={formState.errors.isProtected?.message}
          {...register('isProtected')}
        />
        <fieldset className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <legend className="px-1 text-sm font-medium">Search engines and sharing</legend>
          <InputField label="Meta title" error={formState.errors.meta?.title?.message} {...register('meta.title')} />
          <TextareaField
            label="Meta description"
            error={formState.errors.meta?.description?.message}
            {...register('meta.description')}
          />
          <InputField
            label="Meta image URL"
            type="url"
            hint="An http(s) image shown when the collection's page is shared."
            error={formState.errors.meta?.image?.message}
            {...register('meta.image')}
          />
        </fieldset>
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Saving…' : collection ? 'Save collection' : 'Create collection'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
