const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An instant the API gave, in the reader's own zone and words; `empty` when there is none. */
export function DateTime({ value, empty = '—' }: { value: string | null | undefined; empty?: string }) {
  if (!value) {
    return <span>{empty}</span>;
  }
  return <time dateTime={value}>{FORMAT.format(new Date(value))}</time>;
}
