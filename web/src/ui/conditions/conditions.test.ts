import { describe, expect, it } from 'vitest';
import { conditionDraft, conditionProblemNames, conditionText, REQUESTOR_DOMAIN } from './conditions';

describe('rule conditions', () => {
  it('writes the JSON the API stores and reads it back', () => {
    const priority = { field: 'priority', operator: 'equals', value: 'high', values: [] };
    expect(conditionText(priority)).toBe('{"field":"priority","operator":"equals","value":"high"}');
    expect(conditionDraft(conditionText(priority))).toEqual(priority);
    const anyOf = { field: 'customField.01ABC', operator: 'in', value: '', values: ['gold', 'silver'] };
    expect(conditionText(anyOf)).toBe('{"field":"customField.01ABC","operator":"in","value":["gold","silver"]}');
    expect(conditionDraft(conditionText(anyOf))).toEqual(anyOf);
    expect(conditionText({ field: 'description', operator: 'is_empty', value: 'x', values: [] })).toBe(
      '{"field":"description","operator":"is_empty"}',
    );
  });

  it('keeps the requestor domain a field of its own in the form', () => {
    const domain = { field: REQUESTOR_DOMAIN, operator: 'equals', value: '@acme.com', values: [] };
    expect(conditionText(domain)).toBe('{"field":"requestorEmail","operator":"contains","value":"@acme.com"}');
    expect(conditionDraft(conditionText(domain))).toEqual({ ...domain, value: 'acme.com' });
  });

  it('reads field and operator names in any case, as the API does', () => {
    expect(conditionDraft('{"field":"PRIORITY","operator":"EQUALS","value":"High"}')).toMatchObject({
      field: 'priority',
      operator: 'equals',
      value: 'High',
    });
  });

  it("names each condition's place as the API's messages do", () => {
    expect(conditionProblemNames(1, 1)).toEqual({ 'andRules[0]': 'andRules.0', 'orRules[0]': 'orRules.0' });
  });
});
