/**
 * Durations as people write them (SLA targets, a survey's delay): "1 h 30 min", "2d", "45"
 * (minutes), stored as minutes. Pure, so tested beside.
 */

const MINUTES_PER: Record<string, number> = { d: 1440, h: 60, m: 1 };
const PART = /(\d+)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m)?\s*/giy;

/** Minutes of `text`; `undefined` when empty, `null` when it does not read as a duration. */
export function parseDuration(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') {
    return undefined;
  }
  PART.lastIndex = 0;
  let minutes = 0;
  let read = 0;
  for (let match = PART.exec(trimmed); match; match = PART.exec(trimmed)) {
    const unit = (match[2] ?? 'm').charAt(0).toLowerCase();
    minutes += Number(match[1]) * (MINUTES_PER[unit] ?? 1);
    read = PART.lastIndex;
  }
  return read === trimmed.length ? minutes : null;
}

/** "1 d 2 h 30 min": the largest units first, none that is zero; "" for no target. */
export function formatDuration(minutes: number | undefined): string {
  if (minutes === undefined) {
    return '';
  }
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = [days ? `${days} d` : '', hours ? `${hours} h` : '', rest || minutes === 0 ? `${rest} min` : ''];
  return parts.filter(Boolean).join(' ');
}
