import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { GripVertical, Plus, Trash2 } from 'lucide-react';
import { type Control, type FieldErrors, type UseFormRegister, useFieldArray } from 'react-hook-form';
import { Button } from '../../ui/Button';
import type { FieldFormValues } from './custom-field-form';

const INPUT =
  'min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900';

/**
 * The choices of a select, radio or checkbox field: typed in place, added, removed, and put in
 * order by dragging their handle (or, with the keyboard, Space on the handle, the arrow keys, Space).
 */
export function ChoicesEditor({
  control,
  register,
  errors,
}: {
  control: Control<FieldFormValues>;
  register: UseFormRegister<FieldFormValues>;
  errors: FieldErrors<FieldFormValues>;
}) {
  const { fields, append, remove, move } = useFieldArray({ control, name: 'options' });
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) {
      move(
        fields.findIndex((field) => field.id === active.id),
        fields.findIndex((field) => field.id === over.id),
      );
    }
  };
  const listError = errors.options?.message ?? errors.options?.root?.message;
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={listError ? 'choices-error' : undefined}>
      <legend className="text-sm font-medium">Choices</legend>
      {fields.length === 0 ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">No choices yet: add the values people pick from.</p>
      ) : null}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={fields.map((field) => field.id)} strategy={verticalListSortingStrategy}>
          <ol className="flex flex-col gap-1.5">
            {fields.map((field, index) => (
              <ChoiceRow
                key={field.id}
                id={field.id}
                index={index}
                register={register}
                error={errors.options?.[index]?.value?.message}
                onRemove={() => remove(index)}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      {listError ? (
        <p id="choices-error" className="text-xs text-red-700 dark:text-red-400">
          {listError}
        </p>
      ) : null}
      <div>
        <Button onClick={() => append({ value: '' }, { shouldFocus: true })}>
          <Plus size={14} aria-hidden />
          Add choice
        </Button>
      </div>
    </fieldset>
  );
}

function ChoiceRow({
  id,
  index,
  register,
  error,
  onRemove,
}: {
  id: string;
  index: number;
  register: UseFormRegister<FieldFormValues>;
  error: string | undefined;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const name = `Choice ${index + 1}`;
  const errorId = `${id}-error`;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`flex flex-col gap-0.5 ${isDragging ? 'relative z-10 opacity-80' : ''}`}
    >
      <div className="flex items-center gap-1.5">
        <button
          type="button"
          ref={setActivatorNodeRef}
          aria-label={`Move ${name}`}
          className="cursor-grab touch-none rounded p-1 text-zinc-500 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
          {...attributes}
          {...listeners}
        >
          <GripVertical size={16} aria-hidden />
        </button>
        <input
          aria-label={name}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          className={INPUT}
          {...register(`options.${index}.value`)}
        />
        <button
          type="button"
          aria-label={`Remove ${name}`}
          onClick={onRemove}
          className="rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-red-700 dark:text-zinc-400 dark:hover:bg-zinc-800"
        >
          <Trash2 size={16} aria-hidden />
        </button>
      </div>
      {error ? (
        <p id={errorId} className="pl-8 text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </li>
  );
}
