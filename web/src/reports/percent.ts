/** A share the API answers (0 to 1) as the percentage people read, to a tenth; null (nothing measured) stays null. */
export function percentOf(share: number | null): number | null {
  return share === null ? null : Math.round(share * 1000) / 10;
}
