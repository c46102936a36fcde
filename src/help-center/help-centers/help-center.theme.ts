import { type Static, Type } from '@sinclair/typebox';
import { readJson, writeJson } from '../../db/dialect.js';
import { HttpUrlSchema, Nullable, UlidSchema } from '../../http/shared-schemas.js';
import { nonBlank } from './help-center.input.js';

export const DEFAULT_PRIMARY_COLOR = '#2563eb';
export const MAX_FOOTER_LINKS = 10;

/** The image types a logo may have: SVG is refused, since it can carry script. */
export const LOGO_CONTENT_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** The site reads a logo whole into memory to serve it: larger files are refused when set. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

const FooterLinkSchema = Type.Object(
  { label: Type.String({ minLength: 1, maxLength: 60 }), url: HttpUrlSchema },
  { additionalProperties: false },
);

/** In answers: every key, the defaults where unset. */
export const ThemeSchema = Type.Object(
  {
    logoAttachmentId: Nullable(Type.String({ description: 'An uploaded image (PNG, JPEG, GIF or WebP) shown in the header' })),
    primaryColor: Type.String({ description: `#rrggbb, lower-case; ${DEFAULT_PRIMARY_COLOR} unless set` }),
    // Answers name the URL as a plain string: checked when written, and the response serializer knows no `http-url` format.
    footerLinks: Type.Array(
      Type.Object({ label: Type.String(), url: Type.String({ description: 'An http(s) URL' }) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

/** In requests: any subset of the keys, merged into what is stored; `footerLinks` replaces the list. */
export const ThemeInputSchema = Type.Object(
  {
    logoAttachmentId: Type.Optional(
      Nullable({
        ...UlidSchema,
        description: 'An attachment of the organization: PNG, JPEG, GIF or WebP; null removes the logo',
      }),
    ),
    primaryColor: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#RRGGBB' })),
    footerLinks: Type.Optional(Type.Array(FooterLinkSchema, { maxItems: MAX_FOOTER_LINKS })),
  },
  { additionalProperties: false },
);

export type Theme = Static<typeof ThemeSchema>;
export type ThemeInput = Static<typeof ThemeInputSchema>;

const DEFAULT_THEME: Theme = { logoAttachmentId: null, primaryColor: DEFAULT_PRIMARY_COLOR, footerLinks: [] };

/** The stored theme with the defaults for what is unset. */
export function readTheme(stored: unknown): Theme {
  return { ...DEFAULT_THEME, ...(readJson<Partial<Theme>>(stored) ?? {}) };
}

/**
 * The JSON to store after applying `changes` to the stored theme: labels trimmed, the colour
 * lower-cased. Only keys ever set are stored, so a key never set follows the default if it changes.
 */
export function writeTheme(changes: ThemeInput, stored: unknown): string {
  const next: Partial<Theme> = { ...(readJson<Partial<Theme>>(stored) ?? {}) };
  if (changes.logoAttachmentId !== undefined) {
    next.logoAttachmentId = changes.logoAttachmentId;
  }
  if (changes.primaryColor !== undefined) {
    next.primaryColor = changes.primaryColor.toLowerCase();
  }
  if (changes.footerLinks !== undefined) {
    next.footerLinks = changes.footerLinks.map((link, index) => ({
      label: nonBlank(link.label, `theme.footerLinks.${index}.label`),
      url: link.url,
    }));
  }
  return writeJson(next) ?? '{}';
}
