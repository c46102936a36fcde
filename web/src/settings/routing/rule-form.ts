import { z } from 'zod';
import type { RoutingRule, RuleInput } from './routing-api';
import { type ConditionDraft, conditionDraft, conditionText, NO_VALUE_OPERATORS } from './routing-conditions';

/**
 * The rule builder's values and its own checks (a name, a result team, a value for each condition
 * that takes one); the API judges the rest when the rule is saved.
 */
const ConditionSchema = z
  .object({ field: z.string().min(1), operator: z.string().min(1), value: z.string(), values: z.array(z.string()) })
  .superRefine((condition, context) => {
    if (condition.operator === 'in' && condition.values.length === 0) {
      context.addIssue({ code: 'custom', path: ['values'], message: 'Pick at least one value' });
    } else if (condition.operator !== 'in' && !NO_VALUE_OPERATORS.has(condition.operator) && !condition.value.trim()) {
      context.addIssue({ code: 'custom', path: ['value'], message: 'Give a value' });
    }
  });

export const RuleFormSchema = z.object({
  name: z.string().trim().min(1, 'Give the rule a name'),
  description: z.string(),
  resultTeamId: z.string().min(1, 'Pick the team that receives matching tickets'),
  fallbackTeamId: z.string(),
  andRules: z.array(ConditionSchema),
  orRules: z.array(ConditionSchema),
});

export type RuleFormValues = z.infer<typeof RuleFormSchema>;

export function ruleFormValues(rule: RoutingRule | undefined): RuleFormValues {
  return {
    name: rule?.name ?? '',
    description: rule?.description ?? '',
    resultTeamId: rule?.resultTeamId ?? '',
    fallbackTeamId: rule?.fallbackTeamId ?? '',
    andRules: (rule?.andRules ?? []).map(conditionDraft),
    orRules: (rule?.orRules ?? []).map(conditionDraft),
  };
}

/** The body a save sends; `null` clears a description or fallback team the rule had. */
export function ruleInput(values: RuleFormValues): RuleInput {
  const texts = (drafts: ConditionDraft[]) => drafts.map(conditionText);
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    resultTeamId: values.resultTeamId,
    fallbackTeamId: values.fallbackTeamId || null,
    andRules: texts(values.andRules),
    orRules: texts(values.orRules),
  };
}
