import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';

export interface TabItem<Value extends string> {
  value: Value;
  label: string;
  icon?: ReactNode;
}

/**
 * Radix tabs: arrow keys move between tabs, each tab names its panel. One panel shows the
 * children for the selected tab (the same editor in every mode keeps what was typed).
 */
export function Tabs<Value extends string>({
  label,
  value,
  onValueChange,
  items,
  children,
  className = '',
  tone,
}: {
  label: string;
  value: Value;
  onValueChange: (value: Value) => void;
  items: readonly TabItem<Value>[];
  children: ReactNode;
  className?: string;
  /** Colour of the selected tab, per value (internal notes are amber everywhere). */
  tone?: Partial<Record<Value, string>>;
}) {
  return (
    <RadixTabs.Root value={value} onValueChange={(next) => onValueChange(next as Value)} className={className}>
      <RadixTabs.List aria-label={label} className="flex gap-1 border-b border-zinc-200 px-2 dark:border-zinc-800">
        {items.map((item) => (
          <RadixTabs.Trigger
            key={item.value}
            value={item.value}
            className={`-mb-px flex items-center gap-1.5 border-b-2 border-transparent px-3 py-2 text-sm font-medium text-zinc-600 hover:text-zinc-900 data-[state=active]:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100 dark:data-[state=active]:text-zinc-100 ${
              tone?.[item.value] ?? 'data-[state=active]:border-blue-600'
            }`}
          >
            {item.icon}
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {items.map((item) =>
        item.value === value ? (
          <RadixTabs.Content key={item.value} value={item.value} className="outline-none">
            {children}
          </RadixTabs.Content>
        ) : null,
      )}
    </RadixTabs.Root>
  );
}
