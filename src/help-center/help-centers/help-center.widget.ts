import { type Static, Type } from '@sinclair/typebox';
import { readJson, writeJson } from '../../db/dialect.js';
import { Nullable, StringEnum, UlidSchema, UuidSchema } from '../../http/shared-schemas.js';
import { AppError } from '../../lib/errors.js';

export const MAX_ALLOWED_ORIGINS = 20;
export const MAX_GREETING_LENGTH = 280;
export const DEFAULT_GREETING = 'Hi! How can we help?';
export const DEFAULT_LAUNCHER_COLOR = '#2563eb';
export const WIDGET_POSITIONS = ['right', 'left'] as const;

const ORIGIN_DESCRIPTION = 'An origin: http or https, a host and an optional port, no path (https://shop.example.com)';

/** In answers: every setting, the defaults where unset, and whether a secret exists (never the secret). */
export const WidgetSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether /widget/{slug}/ and its API answer; false unless set' }),
    allowedOrigins: Type.Array(Type.String({ description: ORIGIN_DESCRIPTION }), {
      description: "The sites that may embed the messenger (the panel's frame-ancestors, the config's CORS)",
    }),
    greeting: Type.String(),
    launcherColor: Type.String({ description: `#rrggbb, lower-case; ${DEFAULT_LAUNCHER_COLOR} unless set` }),
    position: StringEnum(WIDGET_POSITIONS),
    agentId: Nullable(Type.String({ description: 'The agent-studio agent that answers visitors' })),
    handoffTeamId: Nullable(Type.String({ description: 'The team that takes conversations handed to a person' })),
    identityVerificationRequired: Type.Boolean({ description: 'Whether only visitors verified by a signed token may chat' }),
    secretSet: Type.Boolean({
      description: 'Whether a widget secret exists (POST /help-centers/{id}/widget/secret makes or rotates it)',
    }),
  },
  { additionalProperties: false },
);

/** In requests: any subset of the keys, merged into what is stored; `allowedOrigins` replaces the list. */
export const WidgetInputSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    allowedOrigins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300, description: ORIGIN_DESCRIPTION }), {
        maxItems: MAX_ALLOWED_ORIGINS,
      }),
    ),
    greeting: Type.Optional(Type.String({ maxLength: MAX_GREETING_LENGTH })),
    launcherColor: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#RRGGBB' })),
    position: Type.Optional(StringEnum(WIDGET_POSITIONS)),
    agentId: Type.Optional(Nullable({ ...UuidSchema, description: 'An agent of the organization; null for none' })),
    handoffTeamId: Type.Optional(Nullable({ ...UlidSchema, description: 'A team of the organization; null for none' })),
    identityVerificationRequired: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type WidgetInput = Static<typeof WidgetInputSchema>;
export type WidgetSettings = Omit<Static<typeof WidgetSchema>, 'secretSet'>;

const DEFAULT_WIDGET: WidgetSettings = {
  enabled: false,
  allowedOrigins: [],
  greeting: DEFAULT_GREETING,
  launcherColor: DEFAULT_LAUNCHER_COLOR,
  position: 'right',
  agentId: null,
  handoffTeamId: null,
  identityVerificationRequired: false,
};

/** The stored settings with the defaults for what is unset. */
export function readWidget(stored: unknown): WidgetSettings {
  return { ...DEFAULT_WIDGET, ...(readJson<Partial<WidgetSettings>>(stored) ?? {}) };
}

/**
 * The JSON to store after applying `changes` to the stored settings: origins reduced to their
 * canonical form (and deduplicated), the greeting trimmed, the colour lower-cased. Only keys ever
 * set are stored, so a default can still change for the keys never set.
 */
export function writeWidget(changes: WidgetInput, stored: unknown): string {
  const next: Partial<WidgetSettings> = { ...(readJson<Partial<WidgetSettings>>(stored) ?? {}) };
  const { allowedOrigins, greeting, launcherColor, ...plain } = changes;
  for (const [key, value] of Object.entries(plain)) {
    if (value !== undefined) {
      Object.assign(next, { [key]: value });
    }
  }
  if (allowedOrigins !== undefined) {
    next.allowedOrigins = [...new Set(allowedOrigins.map((origin, index) => normalizeOrigin(origin, index)))];
  }
  if (greeting !== undefined) {
    next.greeting = greeting.trim();
  }
  if (launcherColor !== undefined) {
    next.launcherColor = launcherColor.toLowerCase();
  }
  return writeJson(next) ?? '{}';
}

function refuseOrigin(index: number, message: string): never {
  throw AppError.invalid(`widget.allowedOrigins.${index} ${message}`, {
    location: 'body',
    path: ['widget', 'allowedOrigins', index],
    rule: 'format',
  });
}

/**
 * An origin as browsers send it in `Origin` and as CSP's frame-ancestors matches it: scheme, host
 * (lower-case, punycode) and a port only when not the scheme's default. A 400 naming the entry for
 * another scheme, credentials, a path, a query or fragment, or a wildcard.
 */
export function normalizeOrigin(text: string, index: number): string {
  const trimmed = text.trim();
  if (!/^https?:\/\//i.test(trimmed)) {
    refuseOrigin(index, 'must start with http:// or https://');
  }
  if (trimmed.includes('*')) {
    refuseOrigin(index, 'must name one host, without wildcards');
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    refuseOrigin(index, 'must be an origin such as https://shop.example.com');
  }
  if (url.username !== '' || url.password !== '') {
    refuseOrigin(index, 'must not carry a user name or password');
  }
  // `https://shop.example.com/` is the same origin; anything after the host's slash is a path.
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /^https?:\/\/[^/]*\/./i.test(trimmed)) {
    refuseOrigin(index, 'must not have a path, query or fragment');
  }
  if (url.hostname === '') {
    refuseOrigin(index, 'must name a host');
  }
  return url.origin;
}
