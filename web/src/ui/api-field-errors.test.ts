import { describe, expect, it } from 'vitest';
import { fieldProblemsOf } from './api-field-errors';

describe('fieldProblemsOf', () => {
  it("gives each of the API's problems to the field its path names", () => {
    const problems = fieldProblemsOf('name must be at most 50 characters long; color has an invalid format', [
      'name',
      'color',
      'type',
    ]);
    expect(problems).toEqual({
      fields: { name: 'name must be at most 50 characters long', color: 'color has an invalid format' },
      rest: [],
    });
  });

  it('picks the most specific field of a nested path, and keeps the rest for the form', () => {
    const problems = fieldProblemsOf(
      'dailyConfig.monday.0.start has an invalid format; timezone is not a known time zone; Team not found',
      ['dailyConfig', 'dailyConfig.monday', 'timezone'],
    );
    expect(problems.fields).toEqual({
      'dailyConfig.monday': 'dailyConfig.monday.0.start has an invalid format',
      timezone: 'timezone is not a known time zone',
    });
    expect(problems.rest).toEqual(['Team not found']);
  });

  it('does not take a field whose name is only the start of another word', () => {
    expect(fieldProblemsOf('names must be unique', ['name'])).toEqual({ fields: {}, rest: ['names must be unique'] });
  });

  it('joins several problems of one field', () => {
    expect(fieldProblemsOf('url must be http(s); url points to a private address', ['url']).fields).toEqual({
      url: 'url must be http(s); url points to a private address',
    });
  });

  it('reads indexes written in brackets as the dotted paths of the form', () => {
    const problems = fieldProblemsOf(
      'actions.addTagIds[0] is not a tag of the team; andRules[1].value must not be empty; body/actions/assignTo[0] is unknown',
      ['actions.addTagIds', 'andRules', 'andRules.1.value', 'actions.assignTo'],
    );
    expect(problems).toEqual({
      fields: {
        'actions.addTagIds': 'actions.addTagIds[0] is not a tag of the team',
        'andRules.1.value': 'andRules[1].value must not be empty',
        'actions.assignTo': 'body/actions/assignTo[0] is unknown',
      },
      rest: [],
    });
  });
});
