import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ParseError, printParseErrorCode, visit } from 'jsonc-parser';
import secureJson from 'secure-json-parse';
import { AppError } from '../lib/errors.js';

/**
 * How deep a request body may nest. Every document the three APIs take is a handful of levels
 * deep; free-form `metadata` gets plenty of room. Far deeper bodies would overflow the stack of
 * whatever walks them later (`JSON.stringify`, `structuredClone`, Ajv), so they stop here.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Replaces Fastify's JSON parser for every area:
 * - an empty body (some clients send `content-type: application/json` on a bodyless POST) is no
 *   body, so routes that take none accept it and routes that need one say `body is required`;
 * - prototype-poisoning keys are refused as before (`secure-json-parse`, Fastify's own choice);
 * - a body nested deeper than `MAX_JSON_DEPTH` is a validation error naming its top-level field;
 * - malformed JSON carries the character position of the first error, which the agent studio
 *   reports as `loc: ["body", position]`.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
      try {
        done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
      } catch (error) {
        done(error as Error);
      }
    },
  );
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    return undefined;
  }
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && !/prototype|constructor/i.test(error.message)) {
      throw malformedJson(text, error);
    }
    throw AppError.invalid('body must not contain the keys __proto__ or constructor.prototype', {
      location: 'body',
      path: [],
      rule: 'forbidden_key',
      message: 'must not contain the keys __proto__ or constructor.prototype',
    });
  }
  const tooDeep = fieldNestedTooDeeply(value);
  if (tooDeep) {
    const subject = tooDeep.length > 0 ? tooDeep.join('.') : 'body';
    throw AppError.invalid(`${subject} is nested more than ${MAX_JSON_DEPTH} levels deep`, {
      location: 'body',
      path: tooDeep,
      rule: 'maxDepth',
      message: `is nested more than ${MAX_JSON_DEPTH} levels deep`,
      params: { limit: MAX_JSON_DEPTH },
    });
  }
  return value;
}

/** Malformed JSON, located the way JSON decoders report it: the offset of the first bad character. */
function malformedJson(text: string, cause: SyntaxError): AppError {
  const errors: ParseError[] = [];
  visit(
    text,
    { onError: (error, offset, length) => errors.push({ error, offset, length }) },
    { disallowComments: true, allowTrailingComma: false },
  );
  const first = errors[0];
  const position = first ? first.offset : text.length;
  const reason = first ? printParseErrorCode(first.error) : 'InvalidJSON';
  return new AppError({
    code: 'MALFORMED_BODY',
    message: 'Request body is not valid JSON',
    issues: [{ location: 'body', path: [position], rule: 'json_invalid', message: 'JSON decode error', params: { reason } }],
    cause,
  });
}

/**
 * The path of the top-level field under which the value nests deeper than the limit (empty for
 * the body itself), or null. Iterative, so the check itself cannot overflow the stack, and
 * allocation-free for ordinary bodies (one stack entry per container).
 */
function fieldNestedTooDeeply(root: unknown): (string | number)[] | null {
  const stack: { value: object; depth: number; field: string | number | null }[] = [];
  const push = (value: unknown, depth: number, field: string | number | null) => {
    if (value !== null && typeof value === 'object') {
      stack.push({ value, depth, field });
    }
  };
  push(root, 0, null);
  while (stack.length > 0) {
    const { value, depth, field } = stack.pop() as (typeof stack)[number];
    if (depth >= MAX_JSON_DEPTH) {
      return field === null ? [] : [field];
    }
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        push(value[index], depth + 1, depth === 0 ? index : field);
      }
    } else {
      for (const key in value) {
        push((value as Record<string, unknown>)[key], depth + 1, depth === 0 ? key : field);
      }
    }
  }
  return null;
}
