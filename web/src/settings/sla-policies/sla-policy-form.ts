import { z } from 'zod';
import { SLA_METRICS, type SlaMetric } from '../../../../src/shared/sla';
import { ConditionDraftSchema } from '../../ui/conditions/condition-form';
import { type ConditionDraft, conditionDraft, conditionText } from '../../ui/conditions/conditions';
import { formatDuration, parseDuration } from '../../ui/duration';
import type { SlaPolicy, SlaPolicyInput } from './sla-policy-api';

/**
 * The policy form's values and its own checks: a name, each target a readable duration, the
 * warning a percentage. The API judges the rest (a reply target longer than the resolution, the
 * conditions) when the policy is saved, and its words show beside the field they name.
 */
const DurationText = z.string().refine((text) => parseDuration(text) !== null, 'Write a duration such as 1 h 30 min');

export const SlaPolicyFormSchema = z.object({
  name: z.string().trim().min(1, 'Give the policy a name'),
  description: z.string(),
  andRules: z.array(ConditionDraftSchema),
  orRules: z.array(ConditionDraftSchema),
  /** Priority name → metric → the duration as typed ("" for no target). */
  targets: z.record(z.string(), z.record(z.string(), DurationText)),
  clock: z.enum(['business', 'calendar']),
  aiRepliesCount: z.boolean(),
  warningPercent: z
    .string()
    .refine((text) => /^\d+(\.\d+)?$/.test(text.trim()) && Number(text) > 0 && Number(text) < 100, 'Between 1 and 99'),
});

export type SlaPolicyFormValues = z.infer<typeof SlaPolicyFormSchema>;

/**
 * The key a policy's targets are stored under for a priority: its name as the team was given it
 * (`low`, `urgent`). The API answers options by display name only, and the defaults' keys are
 * their display names in snake case; a priority renamed since would need the API to answer its key.
 */
export function priorityKey(displayName: string): string {
  return displayName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The form of `policy` (or of a new one), with a row for each priority the teams have or the policy names. */
export function slaPolicyFormValues(policy: SlaPolicy | undefined, priorities: readonly string[]): SlaPolicyFormValues {
  const names = [...new Set([...priorities, ...Object.keys(policy?.targets ?? {})])];
  const targets = Object.fromEntries(
    names.map((name) => {
      const target = policy?.targets[name] ?? {};
      return [name, Object.fromEntries(SLA_METRICS.map((metric) => [metric, formatDuration(target[metric])]))];
    }),
  );
  return {
    name: policy?.name ?? '',
    description: policy?.description ?? '',
    andRules: (policy?.andRules ?? []).map(conditionDraft),
    orRules: (policy?.orRules ?? []).map(conditionDraft),
    targets,
    clock: policy?.businessHours === false ? 'calendar' : 'business',
    aiRepliesCount: policy?.aiRepliesCount ?? false,
    warningPercent: String(Math.round((policy?.warningShare ?? 0.75) * 1000) / 10),
  };
}

/** The body a save sends: minutes per target, priorities without any target left out. */
export function slaPolicyInput(values: SlaPolicyFormValues): SlaPolicyInput {
  const texts = (drafts: ConditionDraft[]) => drafts.map(conditionText);
  const targets: SlaPolicyInput['targets'] = {};
  for (const [priority, cells] of Object.entries(values.targets)) {
    const target: Partial<Record<SlaMetric, number>> = {};
    for (const metric of SLA_METRICS) {
      const minutes = parseDuration(cells[metric] ?? '');
      if (typeof minutes === 'number') {
        target[metric] = minutes;
      }
    }
    if (Object.keys(target).length > 0) {
      targets[priority] = target;
    }
  }
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    andRules: texts(values.andRules),
    orRules: texts(values.orRules),
    targets,
    businessHours: values.clock === 'business',
    aiRepliesCount: values.aiRepliesCount,
    warningShare: Number(values.warningPercent) / 100,
  };
}
