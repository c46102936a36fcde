import {
  Book,
  CreditCard,
  Lightbulb,
  type LucideIcon,
  MessageCircle,
  Rocket,
  Settings,
  ShieldCheck,
  UserRound,
  Wrench,
} from 'lucide-react';

/** The icons a collection may show on the public site: a small fixed set, by the identifier the API stores. */
export const COLLECTION_ICONS: readonly { id: string; label: string; Icon: LucideIcon }[] = [
  { id: 'book', label: 'Book', Icon: Book },
  { id: 'rocket', label: 'Rocket', Icon: Rocket },
  { id: 'settings', label: 'Settings', Icon: Settings },
  { id: 'credit-card', label: 'Credit card', Icon: CreditCard },
  { id: 'user', label: 'Person', Icon: UserRound },
  { id: 'shield', label: 'Shield', Icon: ShieldCheck },
  { id: 'lightbulb', label: 'Light bulb', Icon: Lightbulb },
  { id: 'message', label: 'Speech bubble', Icon: MessageCircle },
  { id: 'wrench', label: 'Wrench', Icon: Wrench },
];

/** A collection's icon; one set through the API outside the set shows as the book. */
export function CollectionIcon({ icon, size = 16 }: { icon: string; size?: number }) {
  const { Icon } = COLLECTION_ICONS.find((entry) => entry.id === icon) ?? { Icon: Book };
  return <Icon size={size} aria-hidden className="shrink-0 text-zinc-500 dark:text-zinc-400" />;
}

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
