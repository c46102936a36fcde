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
