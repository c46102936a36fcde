import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { HTTP_URL_FORMAT, isHttpUrl } from '../lib/http-url.js';

// ajv-formats is CommonJS with a default export.
const addFormatsModuleDefault = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The standard formats plus ours: `http-url` (`HttpUrlSchema`), so a bad URL is named like any format. */
const addFormats = (ajv: Ajv): Ajv => addFormatsModuleDefault(ajv).addFormat(HTTP_URL_FORMAT, isHttpUrl);

const shared: Options = {
  allErrors: true,
  // An unknown request field is reported (platform, help center) or ignored by schema (agent
  // studio), never silently removed.
  removeAdditional: false,
  useDefaults: true,
  strict: false,
};

/**
 * Two validators: bodies are checked as sent (no coercion, so `null` never turns into `""` and a
 * string never passes as a number), while query strings and path parameters, which are always
 * text, are coerced to the declared types.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  const textAjv = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
