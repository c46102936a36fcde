import { type Static, Type } from '@sinclair/typebox';
import { readJson, writeJson } from '../../db/dialect.js';
import { HttpUrlSchema, Nullable } from '../../http/shared-schemas.js';

/** SEO metadata of help centers, collections and articles; every key present, null when unset. */
export const MetaSchema = Type.Object(
  { title: Nullable(Type.String()), description: Nullable(Type.String()), image: Nullable(Type.String()) },
  { additionalProperties: false },
);

/** In requests: any subset of the keys; a given key replaces the stored value, null clears it. */
export const MetaInputSchema = Type.Object(
  {
    title: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    image: Type.Optional(Nullable(HttpUrlSchema)),
  },
  { additionalProperties: false },
);

export type Meta = Static<typeof MetaSchema>;

const EMPTY: Meta = { title: null, description: null, image: null };

export function readMeta(stored: unknown): Meta {
  return { ...EMPTY, ...(readJson<Partial<Meta>>(stored) ?? {}) };
}

/** The stored JSON after applying `changes` (all of it when creating). */
export function writeMeta(changes: Static<typeof MetaInputSchema> | undefined, current: Meta = EMPTY): string {
  return writeJson({ ...current, ...(changes ?? {}) }) ?? '{}';
}
