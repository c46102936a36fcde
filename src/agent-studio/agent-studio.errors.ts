import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { NormalizedError } from '../http/errors.js';
import type { ValidationIssue } from '../lib/errors.js';
import { HTTP_URL_FORMAT } from '../lib/http-url.js';

/** FastAPI's 422 body: one entry per bad value. */
export const AgentStudioValidationErrorSchema = Type.Object(
  {
    detail: Type.Array(
      Type.Object(
        {
          loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
          msg: Type.String(),
          type: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'AgentStudioValidationError' },
);

export const AgentStudioErrorSchema = Type.Object(
  { detail: Type.String() },
  { additionalProperties: false, title: 'AgentStudioError' },
);

export function agentStudioErrorResponses(statuses: number[]) {
  const all = new Set([...statuses, 401, 500]);
  return {
    ...Object.fromEntries([...all].sort().map((status) => [status, AgentStudioErrorSchema])),
    422: AgentStudioValidationErrorSchema,
  };
}

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ['string_type', 'a valid string'],
  integer: ['int_type', 'a valid integer'],
  number: ['float_type', 'a valid number'],
  boolean: ['bool_type', 'a valid boolean'],
  object: ['dict_type', 'a valid dictionary'],
  array: ['list_type', 'a valid list'],
  null: ['none_required', 'None'],
};

/** Words an issue the way pydantic does, since that is what agent-studio clients parse. */
export function toPydanticError(issue: ValidationIssue): { loc: (string | number)[]; msg: string; type: string } {
  const loc = [issue.location, ...issue.path];
  const params = issue.params ?? {};
  const limit = params.limit;
  switch (issue.rule) {
    case 'required':
      return { loc, msg: 'Field required', type: 'missing' };
    case 'type': {
      const [type, words] = TYPE_NAMES[String(params.type)] ?? ['type_error', `of type ${params.type}`];
      return { loc, msg: `Input should be ${words}`, type };
    }
    case 'enum': {
      const values = ((params.allowedValues as unknown[]) ?? []).map((value) => `'${value}'`);
      const list = values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : (values[0] ?? '');
      return { loc, msg: `Input should be ${list}`, type: 'enum' };
    }
    case 'format':
      if (params.format === 'uuid') {
        return { loc, msg: 'Input should be a valid UUID', type: 'uuid_parsing' };
      }
      if (params.format === 'date-time') {
        return { loc, msg: 'Input should be a valid datetime', type: 'datetime_parsing' };
      }
      if (params.format === 'uri' || params.format === 'url') {
        return { loc, msg: 'Input should be a valid URL', type: 'url_parsing' };
      }
      if (params.format === HTTP_URL_FORMAT) {
        return { loc, msg: 'Input should be a valid URL, with an http or https scheme', type: 'url_parsing' };
      }
      return { loc, msg: `Value error, ${issue.message}`, type: 'value_error' };
    case 'minLength':
      return { loc, msg: `String should have at least ${limit} character${limit === 1 ? '' : 's'}`, type: 'string_too_short' };
    case 'maxLength':
      return { loc, msg: `String should have at most ${limit} character${limit === 1 ? '' : 's'}`, type: 'string_too_long' };
    case 'minimum':
      return { loc, msg: `Input should be greater than or equal to ${limit}`, type: 'greater_than_equal' };
    case 'maximum':
      return { loc, msg: `Input should be less than or equal to ${limit}`, type: 'less_than_equal' };
    case 'exclusiveMinimum':
      return { loc, msg: `Input should be greater than ${limit}`, type: 'greater_than' };
    case 'exclusiveMaximum':
      return { loc, msg: `Input should be less than ${limit}`, type: 'less_than' };
    case 'minItems':
      return { loc, msg: `List should have at least ${limit} items`, type: 'too_short' };
    case 'maxItems':
      return { loc, msg: `List should have at most ${limit} items`, type: 'too_long' };
    case 'pattern':
      return { loc, msg: `String should match pattern '${params.pattern}'`, type: 'string_pattern_mismatch' };
    case 'finite_number':
      return { loc, msg: 'Input should be a finite number', type: 'finite_number' };
    default:
      return { loc, msg: issue.message, type: issue.rule.includes('_') ? issue.rule : 'value_error' };
  }
}

export function renderAgentStudioError(error: NormalizedError, _request: FastifyRequest) {
  // Malformed JSON is a 422 too, located at its character position (`type: json_invalid`).
  const malformedJson = error.code === 'MALFORMED_BODY' && Boolean(error.issues?.length);
  if (error.code === 'VALIDATION' || error.code === 'UNPROCESSABLE' || malformedJson) {
    const issues = error.issues?.length
      ? error.issues
      : [{ location: 'body' as const, path: [], rule: 'value_error', message: error.message }];
    return { status: 422, body: { detail: issues.map(toPydanticError) } };
  }
  const detail = error.status === 401 ? 'Not authenticated' : error.status >= 500 ? 'Internal Server Error' : error.message;
  return { status: error.status, body: { detail } };
}
