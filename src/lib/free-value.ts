/** `base`, else `base` + `separator` + 2, 3… (`faq-2`, or `CS2` with no separator), whichever is first not in `taken`. */
export function firstFreeValue(base: string, taken: Iterable<string>, separator = '-'): string {
  const used = new Set(taken);
  if (!used.has(base)) {
    return base;
  }
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}${separator}${suffix}`;
    if (!used.has(candidate)) {
      return candidate;
    }
  }
}

/**
 * Inserts a row under a value derived from its name that must be unique (a team identifier, a
 * field slug). `nextFree` reads the first value not yet taken; `insert` writes the row under it
 * and answers false, writing nothing, when a concurrent writer took that value between the read
 * and the write. Then the next free value is read and tried, so deriving never fails because of a
 * race: each lost attempt means another writer committed that value, which the next read sees.
 * Answers the value the row got.
 */
export async function insertUnderFreeValue(
  nextFree: () => Promise<string>,
  insert: (value: string) => Promise<boolean>,
): Promise<string> {
  let lost: string | undefined;
  for (;;) {
    const value = await nextFree();
    if (value === lost) {
      // The read still finds it free, so what refused the row was not this value: a bug, not a race.
      throw new Error(`Insert refused under ${value}, which is still free`);
    }
    if (await insert(value)) {
      return value;
    }
    lost = value;
  }
}
