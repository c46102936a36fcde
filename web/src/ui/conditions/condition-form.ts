import { z } from 'zod';
import type { ConditionDraft } from './conditions';
import { NO_VALUE_OPERATORS } from './conditions';

/**
 * A form's own check of one condition (a value for each that takes one); the API judges the rest
 * when the form is saved.
 */
export const ConditionDraftSchema = z
  .object({ field: z.string().min(1), operator: z.string().min(1), value: z.string(), values: z.array(z.string()) })
  .superRefine((condition, context) => {
    if (condition.operator === 'in' && condition.values.length === 0) {
      context.addIssue({ code: 'custom', path: ['values'], message: 'Pick at least one value' });
    } else if (condition.operator !== 'in' && !NO_VALUE_OPERATORS.has(condition.operator) && !condition.value.trim()) {
      context.addIssue({ code: 'custom', path: ['value'], message: 'Give a value' });
    }
  });

/** What the condition builder edits of a form: the AND and the OR list, as routing rules and SLA policies both hold them. */
export interface ConditionFormValues {
  andRules: ConditionDraft[];
  orRules: ConditionDraft[];
}
