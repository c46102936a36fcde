import { z } from 'zod';
import { formatDuration, parseDuration } from '../../ui/duration';
import type { SatisfactionSettings, SatisfactionSettingsInput } from './team-queries';

/**
 * The survey panel's values: the delay as a duration ("1 h"), the sampling as a percentage, the
 * cooldown in days. The form checks that each reads; the API judges the ranges.
 */
export const SatisfactionFormSchema = z.object({
  enabled: z.boolean(),
  delay: z.string().refine((text) => typeof parseDuration(text) === 'number', {
    message: 'Write a duration such as 2 h, or 0 to send at once',
  }),
  samplingPercent: z
    .string()
    .refine((text) => /^\d+(\.\d+)?$/.test(text.trim()) && Number(text) <= 100, 'A percentage from 0 to 100'),
  cooldownDays: z.string().regex(/^\s*\d+\s*$/, 'A whole number of days'),
  skipTagIds: z.array(z.string()),
  skipPriorityIds: z.array(z.string()),
});

export type SatisfactionFormValues = z.infer<typeof SatisfactionFormSchema>;

/** Where the API's problems show: its names, and the form's fields they are about. */
export const SATISFACTION_PROBLEM_NAMES = {
  delayMinutes: 'delay',
  samplingShare: 'samplingPercent',
  'skipWhen.tagIds': 'skipTagIds',
  'skipWhen.priorityIds': 'skipPriorityIds',
};

export function satisfactionFormValues(settings: SatisfactionSettings): SatisfactionFormValues {
  return {
    enabled: settings.enabled,
    delay: settings.delayMinutes === 0 ? '0' : formatDuration(settings.delayMinutes),
    samplingPercent: String(Math.round(settings.samplingShare * 1000) / 10),
    cooldownDays: String(settings.cooldownDays),
    skipTagIds: settings.skipWhen.tagIds,
    skipPriorityIds: settings.skipWhen.priorityIds,
  };
}

/** The whole settings, as the PUT replaces them. */
export function satisfactionInput(values: SatisfactionFormValues): SatisfactionSettingsInput {
  return {
    enabled: values.enabled,
    delayMinutes: parseDuration(values.delay) ?? 0,
    samplingShare: Number(values.samplingPercent) / 100,
    cooldownDays: Number(values.cooldownDays.trim()),
    skipWhen: { tagIds: values.skipTagIds, priorityIds: values.skipPriorityIds },
  };
}
