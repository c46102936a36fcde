import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { HTTP_URL_FORMAT, isHttpUrl } from '../lib/http-url.js';
import type { AjvLikeError } from '../lib/validation-issues.js';

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

type Validate = ((data: unknown) => boolean) & { errors?: AjvLikeError[] | null };

/**
 * Two validators: bodies are checked as sent (no coercion, so `null` never turns into `""` and a
 * string never passes as a number), while query strings and path parameters, which are always
 * text, are coerced to the declared types.
 *
 * Both refuse the NUL character anywhere in a string or a key before the schema runs: PostgreSQL
 * cannot store it in text, and SQLite would cut strings at it in places, so it is refused alike
 * on both databases, naming the field.
 */
export function createValidatorCompiler(options: { compileOnFirstUse?: boolean } = {}): FastifySchemaCompiler<unknown> {
  const bodyAjv = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  const textAjv = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    // Fastify asks for every route's validators before the first request; compiling them all
    // took about half of the start. On first use, each is compiled once and kept.
    const compile = () => ajv.compile(schema as object) as Validate;
    let validateSchema: Validate | undefined = options.compileOnFirstUse ? undefined : compile();
    const validate: Validate = (data) => {
      validateSchema ??= compile();
      const nulAt = pathOfNulCharacter(data);
      if (nulAt !== null) {
        validate.errors = [
          {
            keyword: 'noNulCharacter',
            instancePath: nulAt,
            schemaPath: '#/noNulCharacter',
            params: {},
            message: 'must not contain the NUL character (\\u0000)',
          },
        ];
        return false;
      }
      const valid = validateSchema(data);
      validate.errors = validateSchema.errors;
      // After the schema, which coerces query and path numbers: `1e309` reads as Infinity there
      // and in JSON, which no column stores, JSON cannot write back, and no field means.
      const infiniteAt = valid ? pathOfNonFiniteNumber(data) : null;
      if (infiniteAt !== null) {
        validate.errors = [
          {
            keyword: 'finite_number',
            instancePath: infiniteAt,
            schemaPath: '#/finite_number',
            params: {},
            message: 'must be a finite number',
          },
        ];
        return false;
      }
      return valid;
    };
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

/**
 * The JSON pointer of the first string or key holding U+0000, or null. Recursive: request bodies
 * are at most `MAX_JSON_DEPTH` deep (the JSON parser refuses deeper ones), query strings and path
 * parameters are flat. Nothing is allocated unless a NUL is found: this runs on every request.
 */
export function pathOfNulCharacter(value: unknown): string | null {
  return pointerOf(pathWhere(value, hasNul, hasNul));
}

/** The JSON pointer of the first number that is not finite (Infinity, NaN), or null; walked as `pathOfNulCharacter`. */
export function pathOfNonFiniteNumber(value: unknown): string | null {
  return pointerOf(pathWhere(value, isNonFiniteNumber, () => false));
}

const hasNul = (value: unknown) => typeof value === 'string' && value.includes('\u0000');
const isNonFiniteNumber = (value: unknown) => typeof value === 'number' && !Number.isFinite(value);

function pointerOf(path: string[] | null): string | null {
  return path === null ? null : path.map((segment) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The path of the first leaf `badLeaf` flags, or of the first key `badKey` flags, depth first. */
function pathWhere(value: unknown, badLeaf: (leaf: unknown) => boolean, badKey: (key: string) => boolean): string[] | null {
  if (value === null || typeof value !== 'object') {
    return badLeaf(value) ? [] : null;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const inner = pathWhere(value[index], badLeaf, badKey);
      if (inner !== null) {
        return [String(index), ...inner];
      }
    }
    return null;
  }
  for (const key in value) {
    if (badKey(key)) {
      return [key];
    }
    const inner = pathWhere((value as Record<string, unknown>)[key], badLeaf, badKey);
    if (inner !== null) {
      return [key, ...inner];
    }
  }
  return null;
}
