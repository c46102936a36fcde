/**
 * The week as the form edits it, and as the API stores it. The API keeps every slot inside one
 * local day (`start < end`, `24:00` ends at midnight), so cover past midnight is two slots on
 * consecutive days. The form lets a lead type it as one slot, 22:00 to 02:00: a slot whose end
 * comes before its start runs overnight into the next day. A closing time of 00:00 is midnight.
 */

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_LABELS: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

export interface Slot {
  start: string;
  end: string;
}

export interface Day {
  isActive: boolean;
  slots: Slot[];
}

export type Week = Record<Weekday, Day>;

const MIDNIGHT_START = '00:00';
const MIDNIGHT_END = '24:00';

/** A slot as typed runs past midnight when it closes before it opens (00:00 closes at midnight). */
export function isOvernight(slot: Slot): boolean {
  return slot.end !== MIDNIGHT_START && slot.end < slot.start;
}

const nextDay = (day: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(day) + 1) % WEEKDAYS.length] as Weekday;
const shownEnd = (end: string) => (end === MIDNIGHT_END ? MIDNIGHT_START : end);
const sentEnd = (end: string) => (end === MIDNIGHT_START ? MIDNIGHT_END : end);

/** A slot that runs to midnight, and a slot that starts the next day at midnight: together, one overnight slot. */
const runsToMidnight = (slot: Slot) => slot.end === MIDNIGHT_END && slot.start !== MIDNIGHT_START;
const carriesOver = (slot: Slot) => slot.start === MIDNIGHT_START && slot.end !== MIDNIGHT_END;

/**
 * One list of slots (every day the same), joining its `X–24:00` and `00:00–Y` pieces into
 * one overnight slot `X–Y`.
 */
export function slotsToForm(slots: readonly Slot[]): Slot[] {
  const late = slots.findIndex(runsToMidnight);
  const early = slots.findIndex(carriesOver);
  const joined = slots.map((slot) => ({ start: slot.start, end: shownEnd(slot.end) }));
  if (late < 0 || early < 0) {
    return joined;
  }
  joined[late] = { start: slots[late]?.start ?? MIDNIGHT_START, end: slots[early]?.end ?? MIDNIGHT_START };
  return joined.filter((_, index) => index !== early);
}

/**
 * The week as the API answers it, overnight pieces joined: a day's slot to midnight takes the
 * next open day's slot from midnight. A day left with no slots of its own shows as closed.
 */
export function weekToForm(week: Partial<Record<Weekday, Day>>): Week {
  const days = Object.fromEntries(
    WEEKDAYS.map((day) => [day, { isActive: week[day]?.isActive ?? false, slots: [...(week[day]?.slots ?? [])] }]),
  ) as Week;
  const taken = new Set<string>();
  for (const day of WEEKDAYS) {
    const next = days[nextDay(day)];
    const own = days[day];
    if (!own.isActive || !next.isActive) {
      continue;
    }
    const late = own.slots.findIndex(runsToMidnight);
    const early = next.slots.findIndex((slot, index) => carriesOver(slot) && !taken.has(`${nextDay(day)}:${index}`));
    const earlySlot = next.slots[early];
    if (late >= 0 && earlySlot) {
      own.slots[late] = { start: own.slots[late]?.start ?? MIDNIGHT_START, end: earlySlot.end };
      taken.add(`${nextDay(day)}:${early}`);
    }
  }
  const result = {} as Week;
  for (const day of WEEKDAYS) {
    const slots = days[day].slots
      .filter((_, index) => !taken.has(`${day}:${index}`))
      .map((slot) => ({ start: slot.start, end: shownEnd(slot.end) }));
    result[day] = { isActive: days[day].isActive && slots.length > 0, slots };
  }
  return result;
}

/** Where a slot the API was sent came from in the form: its path there (`dailyConfig.monday.slots.2`). */
export type SlotOrigins = Record<string, string>;

/** The common slots as the API takes them, overnight ones split at midnight. */
export function slotsToApi(slots: readonly Slot[]): { slots: Slot[]; origins: SlotOrigins } {
  const sent: Slot[] = [];
  const origins: SlotOrigins = {};
  const add = (slot: Slot, index: number) => {
    origins[`commonSlots.${sent.length}`] = `commonSlots.${index}`;
    sent.push(slot);
  };
  slots.forEach((slot, index) => {
    if (isOvernight(slot)) {
      add({ start: slot.start, end: MIDNIGHT_END }, index);
      add({ start: MIDNIGHT_START, end: slot.end }, index);
    } else {
      add({ start: slot.start, end: sentEnd(slot.end) }, index);
    }
  });
  return { slots: sent, origins };
}

/**
 * The week as the API takes it: an overnight slot becomes the day's slot to midnight and the
 * next day's slot from midnight, and that next day opens for it even when it is closed itself.
 */
export function weekToApi(week: Week): { dailyConfig: Week; origins: SlotOrigins } {
  const sent = Object.fromEntries(WEEKDAYS.map((day) => [day, { isActive: week[day].isActive, slots: [] as Slot[] }])) as Week;
  const origins: SlotOrigins = {};
  const add = (day: Weekday, slot: Slot, origin: string) => {
    origins[`dailyConfig.${day}.slots.${sent[day].slots.length}`] = origin;
    sent[day].slots.push(slot);
  };
  for (const day of WEEKDAYS) {
    if (!week[day].isActive) {
      continue;
    }
    week[day].slots.forEach((slot, index) => {
      const origin = `dailyConfig.${day}.slots.${index}`;
      if (isOvernight(slot)) {
        add(day, { start: slot.start, end: MIDNIGHT_END }, origin);
        add(nextDay(day), { start: MIDNIGHT_START, end: slot.end }, origin);
        sent[nextDay(day)].isActive = true;
      } else {
        add(day, { start: slot.start, end: sentEnd(slot.end) }, origin);
      }
    });
  }
  // A closed day keeps no slots: what it showed before is gone once saved.
  return { dailyConfig: sent, origins };
}

/**
 * The API's message with its slot paths turned into the form's: `dailyConfig.tuesday.slots[0]`
 * of a split overnight slot names the Monday slot it came from. Brackets become dots first, as the
 * origins are written (`fieldProblemsOf` reads brackets itself, but cannot know a slot's origin).
 */
export function messageForForm(message: string, origins: SlotOrigins): string {
  const dotted = message.replace(/\[(\d+)\]/g, '.$1');
  return dotted.replace(/\b(?:dailyConfig\.[a-z]+|commonSlots)(?:\.slots)?\.\d+/g, (path) => origins[path] ?? path);
}
