import type { Handoff } from './messenger-client.js';

/** How long the team usually takes to reply, in words; without a figure, "a few minutes". */
export function expectedWaitText(minutes: number | null): string {
  if (minutes === null || !Number.isFinite(minutes) || minutes <= 0) {
    return 'Usually replies in a few minutes.';
  }
  const rounded = Math.max(1, Math.round(minutes));
  if (rounded < 60) {
    return `Usually replies in about ${rounded} ${rounded === 1 ? 'minute' : 'minutes'}.`;
  }
  const hours = Math.round(minutes / 60);
  return `Usually replies in about ${hours} ${hours === 1 ? 'hour' : 'hours'}.`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the team opens again, in the visitor's language and time zone: the weekday and time within
 * the coming week, the date as well beyond it. Null for a missing or unreadable time.
 */
export function nextOpeningText(nextOpeningAt: string | null, locale: string | undefined, now: Date): string | null {
  if (nextOpeningAt === null) {
    return null;
  }
  const at = new Date(nextOpeningAt);
  if (Number.isNaN(at.getTime())) {
    return null;
  }
  const withinAWeek = at.getTime() - now.getTime() < 6 * DAY_MS;
  const format = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    ...(withinAWeek ? {} : { day: 'numeric', month: 'long' }),
    hour: 'numeric',
    minute: '2-digit',
  });
  return format.format(at);
}

/** The notice's sentences for a handed-off conversation, in the order shown (the email form aside). */
export function handoffLines(handoff: Handoff, locale: string | undefined, now: Date): string[] {
  if (handoff.closed) {
    return ['This conversation was closed; write to reopen it.', `Reference: ${handoff.ticket}`];
  }
  const lines = ['A person will reply here.'];
  if (handoff.hours.open) {
    lines.push(expectedWaitText(handoff.hours.expectedWaitMinutes));
  } else {
    const opening = nextOpeningText(handoff.hours.nextOpeningAt, locale, now);
    lines.push(
      opening
        ? `The ${handoff.teamName} team is away now; they are back ${opening}.`
        : `The ${handoff.teamName} team is away now.`,
    );
  }
  if (handoff.email) {
    lines.push(`When you are away, replies also go to ${handoff.email}.`);
  }
  lines.push(`Reference: ${handoff.ticket}`);
  return lines;
}
