/** Holidays as the API writes them: `DD-MM` recurs every year, `DD-MM-YYYY` happens once. */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A date picked in a date input (`YYYY-MM-DD`) as a holiday, every year or only that year. */
export function holidayOf(pickedDate: string, everyYear: boolean): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(pickedDate);
  if (!match) {
    return null;
  }
  const [, year, month, day] = match;
  return everyYear ? `${day}-${month}` : `${day}-${month}-${year}`;
}

/** `25-12` → "25 December, every year"; `01-05-2027` → "1 May 2027". */
export function holidayLabel(holiday: string): string {
  const match = /^(\d{2})-(\d{2})(?:-(\d{4}))?$/.exec(holiday);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) {
    return holiday;
  }
  const day = Number(match[1]);
  return match[3] ? `${day} ${month} ${match[3]}` : `${day} ${month}, every year`;
}

/** Recurring ones first, each kind in calendar order. */
export function sortedHolidays(holidays: readonly string[]): string[] {
  const key = (holiday: string) => {
    const [day = '', month = '', year = ''] = holiday.split('-');
    return `${year || '0000'}${month}${day}`;
  };
  return [...holidays].sort((a, b) => key(a).localeCompare(key(b)));
}
