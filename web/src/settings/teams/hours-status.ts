/** The live line of the hours tab, in the team's own time zone: "Open now, closes at 17:00". */

interface HoursStatus {
  isOpen: boolean;
  timezone: string;
  at: string;
  nextOpeningAt: string | null;
  nextClosingAt: string | null;
}

const WEEK_MS = 6 * 86_400_000;

function partsIn(timezone: string, instant: string, withDate: boolean): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(withDate ? { day: 'numeric', month: 'long' } : {}),
  });
  return Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
}

const timeIn = (timezone: string, instant: string) => {
  const parts = partsIn(timezone, instant, false);
  return `${parts.hour}:${parts.minute}`;
};

/** "Monday 09:00" within the week ahead, "Monday 4 January 09:00" further away. */
function momentIn(timezone: string, instant: string, from: string): string {
  const far = Date.parse(instant) - Date.parse(from) > WEEK_MS;
  const parts = partsIn(timezone, instant, far);
  const day = far ? `${parts.weekday} ${parts.day} ${parts.month}` : parts.weekday;
  return `${day} ${parts.hour}:${parts.minute}`;
}

export function describeHoursStatus(status: HoursStatus): string {
  const { timezone, at } = status;
  if (status.isOpen) {
    return status.nextClosingAt ? `Open now, closes at ${timeIn(timezone, status.nextClosingAt)}` : 'Open now, around the clock';
  }
  return status.nextOpeningAt
    ? `Closed, opens ${momentIn(timezone, status.nextOpeningAt, at)}`
    : 'Closed, with no opening hours in the year ahead';
}
