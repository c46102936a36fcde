import { firstFreeValue } from '../../lib/free-value.js';

/**
 * `Billing & Payments` → `billing-payments`: lower-case letters and digits (any script, accents
 * dropped) joined by hyphens, at most 80 characters; `fallback` when nothing is left.
 */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '');
  return slug || fallback;
}

/** `base`, else `base-2`, `base-3`… whichever is first not in `taken`. */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  return firstFreeValue(base, taken);
}
