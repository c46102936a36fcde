/**
 * Seeded generators of hostile request bodies, guided by a route's JSON Schema: mostly-valid
 * documents with edge values (so requests get past validation into services and databases), the
 * same with a few values swapped for hostile ones, and raw text that is not JSON at all.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | Schema;
};

export type Random = () => number;

/** mulberry32: small, fast and good enough to make every run send the same bodies. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) {
    value = level % 2 === 0 ? { a: value } : [value];
  }
  return value;
}

/** Values that have broken real services: type confusion, extremes, NUL, lone surrogates, markup, depth. */
const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  -0,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  'x'.repeat(70_000),
  '💥'.repeat(3_000),
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  "'; drop table users; --",
  '%00%ZZ',
  '../../../../etc/passwd',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
  'NaN',
  '-Infinity',
  '0000-00-00T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '9999-12-31T23:59:59.999+14:00',
  '2026-02-30T25:61:61Z',
  '00000000-0000-0000-0000-000000000000',
  'ffffffffffffffffffffffff',
  '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
  '00000000000000000000000000',
  'a"b\\c\n\r\t\u2028\u2029',
  '(((a+)+)+)+$',
  '*',
  '"unterminated AND OR NEAR(',
  [],
  {},
  [null],
  ['\u0000'],
  { '': 1 },
  { constructor: { prototype: 1 } },
  Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`k${index}`, index])),
  Array.from({ length: 500 }, (_, index) => index),
  nested(40),
  nested(200),
];

const EDGE_STRINGS: readonly string[] = [
  'a',
  'Hello world',
  'Ünïcødé — ✓ 日本語 עברית',
  '<b>bold</b> & <i>it</i>',
  '   padded   ',
  '@mention #hash $dollar',
  'line\nbreak',
  '🙂',
];

const EDGE_DATES: readonly string[] = [
  '2026-01-15T09:00:00Z',
  '1970-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2026-06-30T23:59:60Z',
  '2026-03-29T02:30:00+14:00',
  '2026-03-29T02:30:00-12:00',
];

const PATTERN_SAMPLES: readonly string[] = [
  'example.com',
  'sub.example.co.uk',
  '+14155550100',
  '{"field":"title","operator":"contains","value":"x"}',
  '01J00000000000000000000000',
  '0123456789abcdef01234567',
  '#ff00aa',
  'SUP',
  'sbk_abcdefgh',
];

function stringFor(random: Random, schema: Schema): string {
  if (schema.format === 'date-time') {
    return pick(random, EDGE_DATES);
  }
  if (schema.format === 'date') {
    return pick(random, ['2026-01-15', '0001-01-01', '9999-12-31', '2024-02-29']);
  }
  if (schema.format === 'time') {
    return pick(random, ['00:00', '23:59', '12:30:00']);
  }
  if (schema.format === 'uuid') {
    return pick(random, ['00000000-0000-4000-8000-000000000000', 'ffffffff-ffff-4fff-bfff-ffffffffffff']);
  }
  if (schema.format === 'email') {
    return pick(random, ['a@example.com', 'very.long+tag@sub.example.co.uk', `${'l'.repeat(64)}@example.com`]);
  }
  if (schema.format === 'uri' || schema.format === 'url' || schema.format === 'http-url') {
    return pick(random, ['https://example.com/a?b=c#d', 'http://127.0.0.1:1/x', 'https://xn--bcher-kva.example/']);
  }
  if (schema.pattern) {
    const fitting = PATTERN_SAMPLES.filter((sample) => safeTest(schema.pattern as string, sample));
    if (fitting.length > 0) {
      return pick(random, fitting);
    }
  }
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 5_000;
  const choice = random();
  let text: string;
  if (choice < 0.15) {
    text = 'x'.repeat(max);
  } else if (choice < 0.25) {
    text = 'y'.repeat(min);
  } else {
    text = pick(random, EDGE_STRINGS);
  }
  if (text.length < min) {
    text = text.padEnd(min, 'z');
  }
  return text.slice(0, max);
}

function safeTest(pattern: string, sample: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(sample);
  } catch {
    return false;
  }
}

function numberFor(random: Random, schema: Schema, integer: boolean): number {
  const min = schema.minimum ?? (integer ? -(2 ** 31) : -1e12);
  const max = schema.maximum ?? (integer ? 2 ** 53 - 1 : 1e12);
  const candidates = [min, max, 0, 1, -1, Math.floor((min + max) / 2)].filter((value) => value >= min && value <= max);
  const value = pick(random, candidates.length > 0 ? candidates : [min]);
  return integer ? Math.trunc(value) : value;
}

/** Real ids by property name (`teamId`, `accountIds`, …), so generated bodies reach existing resources. */
export type KnownIds = Record<string, string>;

/** A value the schema accepts, as far as this generator understands the schema, with edge values. */
export function conformingValue(random: Random, schema: Schema, depth = 0, known: KnownIds = {}): unknown {
  if (schema.const !== undefined) {
    return schema.const;
  }
  if (schema.enum) {
    return pick(random, schema.enum);
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0) {
    return conformingValue(random, pick(random, union), depth + 1, known);
  }
  const type = Array.isArray(schema.type) ? pick(random, schema.type) : schema.type;
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return random() < 0.5;
    case 'integer':
      return numberFor(random, schema, true);
    case 'number':
      return numberFor(random, schema, false);
    case 'string':
      return stringFor(random, schema);
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 5, depth > 4 ? min : 5);
      const length = min + Math.floor(random() * (Math.max(max, min) - min + 1));
      return Array.from({ length }, () => conformingValue(random, schema.items ?? {}, depth + 1, known));
    }
    case 'object':
    case undefined: {
      if (!schema.properties) {
        return depth > 3 ? {} : { note: pick(random, EDGE_STRINGS), count: 1, nested: { list: [1, 'two', null] } };
      }
      const required = new Set(schema.required ?? []);
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties)) {
        if (required.has(key) || random() < 0.6) {
          const knownId = known[key] ?? known[key.replace(/s$/, '')];
          if (knownId !== undefined && random() < 0.85) {
            result[key] = property.type === 'array' ? [knownId] : knownId;
          } else {
            result[key] = conformingValue(random, property, depth + 1, known);
          }
        }
      }
      return result;
    }
    default:
      return null;
  }
}

/** A fresh copy, so mutating a generated document never changes the pool. */
const hostile = (random: Random): unknown => structuredClone(pick(random, HOSTILE_VALUES));

/** Replaces one value somewhere in `document` (or the document itself) with a hostile one. */
function mutate(random: Random, document: unknown): unknown {
  if (document === null || typeof document !== 'object' || random() < 0.1) {
    return hostile(random);
  }
  const container = document as Record<string, unknown>;
  const keys = Object.keys(container);
  if (keys.length === 0 || random() < 0.15) {
    container[pick(random, ['unknownField', '__proto__x', 'constructor', '', 'a\u0000b'])] = hostile(random);
    return document;
  }
  const key = pick(random, keys);
  container[key] = random() < 0.5 ? hostile(random) : mutate(random, container[key]);
  return document;
}

/** Text that is not (valid) JSON, or JSON of a shape no route takes. */
const RAW_BODIES: readonly string[] = [
  '',
  ' ',
  '{',
  '}',
  '[',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}garbage',
  'null',
  'true',
  '0',
  '"string"',
  '1e999999',
  '-',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '\u0000',
  '\ufeff{}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  `{"metadata":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
  `{"a":"${'\\'.repeat(3)}"}`,
  '{"a":1,"a":2}',
  '\xff\xfe\xfd',
];

export interface FuzzBody {
  payload: string | Buffer;
  contentType: string;
  label: string;
}

/** `count` bodies for a route whose JSON body schema is `schema` (or none), the same for the same seed. */
export function fuzzBodies(seed: number, schema: Schema | undefined, count: number, known: KnownIds = {}): FuzzBody[] {
  const random = seededRandom(seed);
  const bodies: FuzzBody[] = RAW_BODIES.map((text, index) => ({
    payload: index === RAW_BODIES.length - 1 ? Buffer.from([0xff, 0xfe, 0x7b, 0xc3]) : text,
    contentType: 'application/json',
    label: `raw #${index}`,
  }));
  bodies.push({ payload: '{"title":"x"}', contentType: 'text/plain', label: 'text/plain' });
  bodies.push({ payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded', label: 'form' });
  while (bodies.length < count) {
    const index = bodies.length;
    let document = conformingValue(random, schema ?? { type: 'object' }, 0, known);
    const mutations = random() < 0.3 ? 0 : 1 + Math.floor(random() * 3);
    for (let step = 0; step < mutations; step++) {
      document = mutate(random, document);
    }
    bodies.push({ payload: JSON.stringify(document) ?? 'null', contentType: 'application/json', label: `generated #${index}` });
  }
  return bodies.slice(0, count);
}
