import { AppError } from './errors.js';

/** At most this many ids of each kind are quoted back, so a refusal stays short. */
const QUOTED_IDS = 20;

/**
 * A reorder must name every item exactly once: a 400 on `field` naming the ids it leaves out, the
 * ids that are not among `existingIds`, and those it repeats (`what` names one item and its owner:
 * "routing rule of the team").
 */
export function checkNamesEachOnce(existingIds: readonly string[], ids: readonly string[], field: string, what: string): void {
  const known = new Set(existingIds);
  const named = new Set<string>();
  const repeated = new Set<string>();
  const unknown = new Set<string>();
  for (const id of ids) {
    if (named.has(id)) {
      repeated.add(id);
    } else if (!known.has(id)) {
      unknown.add(id);
    }
    named.add(id);
  }
  const problems = {
    missing: existingIds.filter((id) => !named.has(id)),
    unknown: [...unknown],
    repeated: [...repeated],
  };
  const parts = Object.entries(problems)
    .filter(([, quoted]) => quoted.length > 0)
    .map(([kind, quoted]) => {
      const more = quoted.length > QUOTED_IDS ? ` and ${quoted.length - QUOTED_IDS} more` : '';
      return `${kind}: ${quoted.slice(0, QUOTED_IDS).join(', ')}${more}`;
    });
  if (parts.length > 0) {
    const message = `${field} must name every ${what} exactly once (${parts.join('; ')})`;
    throw new AppError({
      code: 'VALIDATION',
      message,
      issues: [{ location: 'body', path: [field], rule: 'permutation', message, params: problems }],
    });
  }
}
