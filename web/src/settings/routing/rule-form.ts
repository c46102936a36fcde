import { z } from 'zod';
import { ConditionDraftSchema } from '../../ui/conditions/condition-form';
import { type ConditionDraft, conditionDraft, conditionText } from '../../ui/conditions/conditions';
import type { RoutingRule, RuleInput } from './routing-api';

/**
 * The rule builder's values and its own checks (a name, a result team, a value for each condition
 * that takes one); the API judges the rest when the rule is saved.
 */

export const RuleFormSchema = z.object({
  name: z.string().trim().min(1, 'Give the rule a name'),
  description: z.string(),
  resultTeamId: z.string().min(1, 'Pick the team that receives matching tickets'),
  fallbackTeamId: z.string(),
  andRules: z.array(ConditionDraftSchema),
  orRules: z.array(ConditionDraftSchema),
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
