import { COLLECTION_ICONS } from './collection-icons';

/** The icons as radio buttons, each named by what it shows. */
export function IconPicker({ value, onChange }: { value: string; onChange: (icon: string) => void }) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-sm font-medium">Icon</legend>
      <div className="flex flex-wrap gap-1">
        {COLLECTION_ICONS.map(({ id, label, Icon }) => (
          <label
            key={id}
            title={label}
            className="relative flex cursor-pointer items-center justify-center rounded-md border border-zinc-300 p-2 has-[:checked]:border-blue-600 has-[:checked]:bg-blue-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500 dark:border-zinc-700 dark:has-[:checked]:border-blue-400 dark:has-[:checked]:bg-blue-950"
          >
            <input
              type="radio"
              name="collection-icon"
              value={id}
              aria-label={label}
              checked={value === id}
              onChange={() => onChange(id)}
              // Over the whole tile, unseen: the tile is what is clicked, the radio what is focused and announced.
              className="absolute inset-0 cursor-pointer opacity-0"
            />
            <Icon size={18} aria-hidden />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
