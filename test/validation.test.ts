import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { renderAgentStudioError } from '../src/agent-studio/agent-studio.errors.js';
import { renderHelpCenterError } from '../src/help-center/help-center.envelope.js';
import { normalizeError } from '../src/http/errors.js';
import { Nullable, StringEnum, UuidSchema } from '../src/http/shared-schemas.js';
import { createValidatorCompiler } from '../src/http/validation.js';
import { fixedClock } from '../src/lib/clock.js';
import { AppError } from '../src/lib/errors.js';
import type { AjvLikeError } from '../src/lib/validation-issues.js';
import { renderPlatformError } from '../src/platform/platform.errors.js';

const ToolSchema = Type.Object(
  {
    agent_id: UuidSchema,
    tool_name: Type.String({ minLength: 1, maxLength: 50 }),
    tool_type: StringEnum(['built_in', 'mcp_server', 'external_tool'] as const),
    is_enabled: Type.Optional(Type.Boolean()),
    mcp_server_id: Type.Optional(Nullable(UuidSchema)),
  },
  { additionalProperties: false },
);

const compile = createValidatorCompiler();

/** Validates like Fastify does and returns the error Fastify would throw. */
function fail(httpPart: string, schema: object, value: unknown) {
  const validate = compile({ schema, httpPart, method: 'POST', url: '/x' }) as unknown as ((v: unknown) => boolean) & {
    errors: AjvLikeError[];
  };
  expect(validate(value)).toBe(false);
  return Object.assign(new Error('validation'), {
    statusCode: 400,
    validation: validate.errors,
    validationContext: httpPart,
  });
}

const request = (config: Record<string, unknown> = {}) => ({ routeOptions: { config } }) as unknown as FastifyRequest;

describe('request validation', () => {
  it('does not coerce bodies: null stays null and strings do not pass as booleans', () => {
    const validate = compile({ schema: ToolSchema, httpPart: 'body', method: 'POST', url: '/x' }) as unknown as (
      v: unknown,
    ) => boolean;
    const body = {
      agent_id: '3f1c2b9e-8a4d-4c7e-9b1a-2d3e4f5a6b7c',
      tool_name: 'kb',
      tool_type: 'built_in',
      mcp_server_id: null,
    };
    expect(validate(body)).toBe(true);
    expect(body.mcp_server_id).toBeNull();
    expect(validate({ ...body, is_enabled: 'true' })).toBe(false);
  });

  it('coerces query strings to the declared types', () => {
    const schema = Type.Object({ page: Type.Integer({ minimum: 0, default: 0 }), flag: Type.Optional(Type.Boolean()) });
    const validate = compile({ schema, httpPart: 'querystring', method: 'GET', url: '/x' }) as unknown as (v: unknown) => boolean;
    const query: Record<string, unknown> = { flag: 'true' };
    expect(validate(query)).toBe(true);
    expect(query).toEqual({ page: 0, flag: true });
  });

  it('agent studio: 422 with one pydantic-style entry per bad value', () => {
    const error = fail('body', ToolSchema, { agent_id: 'nope', tool_type: 'robot', is_enabled: 'yes', extra: 1 });
    const { status, body } = renderAgentStudioError(normalizeError(error), request());
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: expect.arrayContaining([
        { loc: ['body', 'tool_name'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'agent_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
        { loc: ['body', 'tool_type'], msg: "Input should be 'built_in', 'mcp_server' or 'external_tool'", type: 'enum' },
        { loc: ['body', 'is_enabled'], msg: 'Input should be a valid boolean', type: 'bool_type' },
      ]),
    });
  });

  it('agent studio: a malformed path id is a 422 located in the path', () => {
    const error = fail('params', Type.Object({ agent_id: UuidSchema }), { agent_id: '123' });
    expect(renderAgentStudioError(normalizeError(error), request()).body).toEqual({
      detail: [{ loc: ['path', 'agent_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' }],
    });
  });

  it('platform: 400 naming each field, unknown fields included', () => {
    const schema = Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 50 }),
        color: Type.Optional(Type.String({ pattern: '^#([A-Fa-f0-9]{6})$' })),
      },
      { additionalProperties: false },
    );
    const error = fail('body', schema, { name: '', color: 'red', shade: 1 });
    const { status, body } = renderPlatformError(fixedClock('2026-01-01T00:00:00Z'))(normalizeError(error), request());
    expect(status).toBe(400);
    expect(body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'shade is not an accepted field; name must be at least 1 characters long; color has an invalid format',
    });
  });

  it('platform: custom-field routes answer {message, statusCode, timestamp}', () => {
    const clock = fixedClock('2026-01-01T00:00:00.000Z');
    const error = new AppError({ code: 'VALIDATION', message: 'No search term provided' });
    expect(renderPlatformError(clock)(normalizeError(error), request({ errorShape: 'customField' }))).toEqual({
      status: 400,
      body: { message: 'No search term provided', statusCode: 400, timestamp: '2026-01-01T00:00:00.000Z' },
    });
  });

  it('help center: {message, statusCode}', () => {
    const error = fail('params', Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{24}$' }) }), { id: 'xyz' });
    expect(renderHelpCenterError(normalizeError(error), request())).toEqual({
      status: 400,
      body: { message: 'id has an invalid format', statusCode: 400 },
    });
  });

  it('a unique-constraint violation from either driver is a 409, never a 500', () => {
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', '23505']) {
      const normalized = normalizeError(Object.assign(new Error('duplicate'), { code }));
      expect(normalized).toMatchObject({ status: 409, code: 'CONFLICT' });
    }
  });

  it('an unexpected error is a 500 whose message hides the cause', () => {
    const normalized = normalizeError(new Error('relation "x" does not exist at /src/db.ts:12'));
    expect(normalized).toMatchObject({ status: 500, code: 'INTERNAL', message: 'Internal server error' });
  });
});
