import { describe, expect, it } from 'vitest';
import { attachmentStorageOf, ConfigError, parseConfig, planListeners, publicBaseUrl } from '../src/config.js';

/** The ConfigError `parseConfig(env)` throws; fails the test when it does not throw one. */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

describe('parseConfig', () => {
  it('applies the defaults to an empty environment', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      BODY_LIMIT_BYTES: 1048576,
      LOG_LEVEL: 'info',
      DATABASE_POOL_MAX: 10,
      API_KEY_CACHE_SECONDS: 5,
      SHUTDOWN_TIMEOUT_MS: 10000,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PUBLIC_BASE_URL).toBeUndefined();
    expect(config.PLATFORM_PORT).toBeUndefined();
    expect(config.HELP_CENTER_PORT).toBeUndefined();
    expect(config.AGENT_STUDIO_PORT).toBeUndefined();
  });

  it('reads given values, numbers as numbers', () => {
    const config = parseConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/switchboard',
      BODY_LIMIT_BYTES: '2048',
      LOG_LEVEL: 'debug',
      HELP_CENTER_PORT: '8081',
      PUBLIC_BASE_URL: 'https://support.example.com',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/switchboard',
      BODY_LIMIT_BYTES: 2048,
      LOG_LEVEL: 'debug',
      HELP_CENTER_PORT: 8081,
      PUBLIC_BASE_URL: 'https://support.example.com',
    });
  });

  it('counts an empty or blank value as unset', () => {
    const config = parseConfig({
      PORT: '',
      HOST: '  ',
      LOG_LEVEL: '',
      DATABASE_URL: '',
      PUBLIC_BASE_URL: '',
      HELP_CENTER_PORT: '',
    });
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PUBLIC_BASE_URL).toBeUndefined();
    expect(config.HELP_CENTER_PORT).toBeUndefined();
  });

  it('ignores variables it does not know', () => {
    expect(parseConfig({ HOME: '/root', NODE_ENV: 'production' })).not.toHaveProperty('HOME');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x'],
    ['BODY_LIMIT_BYTES', '0'],
    ['PUBLIC_BASE_URL', 'ftp://x'],
    ['HELP_CENTER_PORT', '65536'],
    ['API_KEY_CACHE_SECONDS', '301'],
  ])('rejects %s=%s with one line naming it', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.name).toBe('ConfigError');
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain(name);
    // Values that may hold credentials are never echoed.
    if (name === 'DATABASE_URL') {
      expect(error.message).not.toContain(value);
    } else {
      expect(error.message).toContain(value);
    }
  });

  it('names every bad variable in the same single line', () => {
    const error = configError({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', BODY_LIMIT_BYTES: '0' });
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(/^Invalid configuration: /);
    for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL', 'BODY_LIMIT_BYTES']) {
      expect(error.message).toContain(name);
    }
    expect(error.message).not.toContain('HOST');
    expect(error.message.split('; ')).toHaveLength(4);
  });

  it.each(['postgres://postgres@127.0.0.1:5432/test', 'postgresql://user:secret@db.internal/switchboard'])(
    'accepts the PostgreSQL URL %s',
    (url) => {
      expect(parseConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    },
  );

  it('accepts http and https public base URLs', () => {
    expect(parseConfig({ PUBLIC_BASE_URL: 'http://localhost:3000' }).PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(parseConfig({ PUBLIC_BASE_URL: 'https://support.example.com/' }).PUBLIC_BASE_URL).toBe('https://support.example.com/');
  });
});

describe('ATTACHMENT_STORAGE', () => {
  const POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

  it('keeps files in the database with DATABASE_URL and on disk with SQLite, unless told otherwise', () => {
    expect(attachmentStorageOf(parseConfig({ DATABASE_URL: POSTGRES }))).toBe('database');
    expect(attachmentStorageOf(parseConfig({}))).toBe('disk');
    expect(attachmentStorageOf(parseConfig({ DATABASE_URL: POSTGRES, ATTACHMENT_STORAGE: 'disk' }))).toBe('disk');
    expect(attachmentStorageOf(parseConfig({ DATABASE_URL: POSTGRES, ATTACHMENT_STORAGE: 'database' }))).toBe('database');
    expect(attachmentStorageOf(parseConfig({ ATTACHMENT_STORAGE: 'disk' }))).toBe('disk');
    expect(attachmentStorageOf(parseConfig({ ATTACHMENT_STORAGE: ' ' }))).toBe('disk');
  });

  it('receives no mail by default, and takes the inbound settings given', () => {
    const defaults = parseConfig({});
    expect(defaults.SMTP_INBOUND_PORT).toBeUndefined();
    expect(defaults).toMatchObject({ INBOUND_MAX_PER_SENDER_PER_HOUR: 30, IMAP_POLL_MS: 60000, INBOUND_MAX_BYTES: 26214400 });
    expect(defaults.EMAIL_RETENTION_DAYS).toBeUndefined();
    expect(defaults.MAILBOX_DNS_SERVERS).toBeUndefined();
    expect(
      parseConfig({ INBOUND_MAX_BYTES: '10485760', EMAIL_RETENTION_DAYS: '90', MAILBOX_DNS_SERVERS: '127.0.0.1:5353, [::1]:53' }),
    ).toMatchObject({ INBOUND_MAX_BYTES: 10485760, EMAIL_RETENTION_DAYS: 90, MAILBOX_DNS_SERVERS: '127.0.0.1:5353, [::1]:53' });
    const config = parseConfig({
      SMTP_INBOUND_PORT: '2525',
      SMTP_INBOUND_HOST: '0.0.0.0',
      SMTP_INBOUND_TLS_CERT: '/etc/ssl/mx.crt',
      SMTP_INBOUND_TLS_KEY: '/etc/ssl/mx.key',
      INBOUND_MAX_PER_SENDER_PER_HOUR: '5',
      IMAP_POLL_MS: '30000',
    });
    expect(config).toMatchObject({ SMTP_INBOUND_PORT: 2525, SMTP_INBOUND_HOST: '0.0.0.0', INBOUND_MAX_PER_SENDER_PER_HOUR: 5 });
  });

  it('refuses a TLS certificate without its key, and bad inbound numbers, in one line', () => {
    const error = configError({
      SMTP_INBOUND_TLS_CERT: '/etc/ssl/mx.crt',
      SMTP_INBOUND_PORT: '70000',
      INBOUND_MAX_PER_SENDER_PER_HOUR: '0',
    });
    expect(error.message).toMatch(/SMTP_INBOUND_TLS_CERT and SMTP_INBOUND_TLS_KEY go together/);
    expect(error.message).toMatch(/SMTP_INBOUND_PORT must be a whole number from 0 to 65535/);
    expect(error.message).toMatch(/INBOUND_MAX_PER_SENDER_PER_HOUR must be a whole number from 1/);
    expect(configError({ SMTP_INBOUND_TLS_KEY: '/etc/ssl/mx.key' }).message).toMatch(/go together/);
    const limits = configError({ INBOUND_MAX_BYTES: '100', EMAIL_RETENTION_DAYS: '0', MAILBOX_DNS_SERVERS: 'dns.example' });
    expect(limits.message).toMatch(/INBOUND_MAX_BYTES must be a whole number from 1024/);
    expect(limits.message).toMatch(/EMAIL_RETENTION_DAYS must be a whole number from 1 to 36500/);
    expect(limits.message).toMatch(/MAILBOX_DNS_SERVERS must be comma-separated IP addresses/);
  });

  it("bounds the site's page cache: 2,000 pages and 64 MiB by default, 0 for none, never negative", () => {
    expect(parseConfig({})).toMatchObject({ SITE_CACHE_MAX_PAGES: 2000, SITE_CACHE_MAX_BYTES: 64 * 1024 * 1024 });
    expect(parseConfig({ SITE_CACHE_MAX_PAGES: '0' }).SITE_CACHE_MAX_PAGES).toBe(0);
    const error = configError({ SITE_CACHE_MAX_PAGES: '-1', SITE_CACHE_MAX_BYTES: 'lots' });
    expect(error.message).toMatch(/SITE_CACHE_MAX_PAGES must be a whole number from 0/);
    expect(error.message).toMatch(/SITE_CACHE_MAX_BYTES/);
  });

  it('refuses the database store on SQLite in one line', () => {
    const error = configError({ ATTACHMENT_STORAGE: 'database', PORT: 'abc' });
    expect(error.message).not.toContain('\n');
    expect(error.message).toContain('ATTACHMENT_STORAGE=database needs DATABASE_URL (with SQLite, files are kept on disk)');
    expect(error.message).toContain('PORT');
  });

  it('takes a default language model: LLM_BASE_URL needs LLM_MODEL, and a URL', () => {
    const config = parseConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3.2', LLM_API_KEY: 'k' });
    expect(config).toMatchObject({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3.2', LLM_API_KEY: 'k' });
    expect(configError({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }).message).toBe(
      'Invalid configuration: LLM_BASE_URL needs LLM_MODEL, the model agents use when they name none',
    );
    expect(configError({ LLM_BASE_URL: 'ollama', LLM_MODEL: 'm' }).message).toBe(
      'Invalid configuration: LLM_BASE_URL must be an http:// or https:// URL (got "ollama")',
    );
  });

  it('takes a metrics token of 16 visible characters or more, never echoing a refused one', () => {
    expect(parseConfig({ METRICS_TOKEN: 'abcdefghij0123456789' }).METRICS_TOKEN).toBe('abcdefghij0123456789');
    for (const value of ['short-token', 'sixteen chars with spaces']) {
      const error = configError({ METRICS_TOKEN: value });
      expect(error.message).toContain('METRICS_TOKEN must be 16 or more visible characters, without spaces');
      expect(error.message).not.toContain(value);
    }
    expect(configError({ METRICS_PORT: '70000' }).message).toContain('METRICS_PORT must be a whole number from 0 to 65535');
  });

  it('refuses an unknown store, naming the choices', () => {
    expect(configError({ ATTACHMENT_STORAGE: 's3', DATABASE_URL: POSTGRES }).message).toBe(
      'Invalid configuration: ATTACHMENT_STORAGE must be disk or database (got "s3")',
    );
  });
});

describe('planListeners', () => {
  it('serves all three areas on PORT when no area has a port of its own', () => {
    expect(planListeners(parseConfig({ PORT: '4000' }))).toEqual([
      { port: 4000, areas: ['platform', 'helpCenter', 'agentStudio'] },
    ]);
  });

  it('gives an area with its own port a listener of its own', () => {
    expect(planListeners(parseConfig({ PORT: '4000', HELP_CENTER_PORT: '4001' }))).toEqual([
      { port: 4000, areas: ['platform', 'agentStudio'] },
      { port: 4001, areas: ['helpCenter'] },
    ]);
  });

  it('shares one listener between areas given the same own port', () => {
    expect(planListeners(parseConfig({ PORT: '4000', PLATFORM_PORT: '5000', AGENT_STUDIO_PORT: '5000' }))).toEqual([
      { port: 5000, areas: ['platform', 'agentStudio'] },
      { port: 4000, areas: ['helpCenter'] },
    ]);
  });

  it('shares the PORT listener with an area whose own port equals PORT', () => {
    expect(planListeners(parseConfig({ PORT: '4000', PLATFORM_PORT: '4000' }))).toEqual([
      { port: 4000, areas: ['platform', 'helpCenter', 'agentStudio'] },
    ]);
  });

  it('opens three listeners when every area has a distinct port', () => {
    const listeners = planListeners(
      parseConfig({ PORT: '4000', PLATFORM_PORT: '5001', HELP_CENTER_PORT: '5002', AGENT_STUDIO_PORT: '5003' }),
    );
    expect(listeners).toEqual([
      { port: 5001, areas: ['platform'] },
      { port: 5002, areas: ['helpCenter'] },
      { port: 5003, areas: ['agentStudio'] },
    ]);
  });
});

describe('planListeners and /metrics', () => {
  it('serves /metrics nowhere without METRICS_TOKEN or METRICS_PORT', () => {
    expect(planListeners(parseConfig({ PORT: '4000', HELP_CENTER_PORT: '4001' })).some((listener) => listener.metrics)).toBe(
      false,
    );
  });

  it('serves /metrics on every listener with METRICS_TOKEN alone', () => {
    expect(planListeners(parseConfig({ PORT: '4000', HELP_CENTER_PORT: '4001', METRICS_TOKEN: 'x'.repeat(16) }))).toEqual([
      { port: 4000, areas: ['platform', 'agentStudio'], metrics: true },
      { port: 4001, areas: ['helpCenter'], metrics: true },
    ]);
  });

  it('opens a listener of its own on METRICS_PORT, the only one serving /metrics, token or not', () => {
    for (const token of [{}, { METRICS_TOKEN: 'x'.repeat(16) }]) {
      expect(planListeners(parseConfig({ PORT: '4000', METRICS_PORT: '9100', ...token }))).toEqual([
        { port: 4000, areas: ['platform', 'helpCenter', 'agentStudio'] },
        { port: 9100, areas: [], metrics: true },
      ]);
    }
  });

  it("serves /metrics on an area's listener when METRICS_PORT is that listener's port", () => {
    expect(planListeners(parseConfig({ PORT: '4000', HELP_CENTER_PORT: '4001', METRICS_PORT: '4001' }))).toEqual([
      { port: 4000, areas: ['platform', 'agentStudio'] },
      { port: 4001, areas: ['helpCenter'], metrics: true },
    ]);
  });
});

describe('publicBaseUrl', () => {
  it('defaults to HOST and PORT', () => {
    expect(publicBaseUrl(parseConfig({}), 'platform')).toBe('http://127.0.0.1:3000');
  });

  it("uses the area's own port when it has one", () => {
    const config = parseConfig({ PORT: '4000', HELP_CENTER_PORT: '4001' });
    expect(publicBaseUrl(config, 'helpCenter')).toBe('http://127.0.0.1:4001');
    expect(publicBaseUrl(config, 'platform')).toBe('http://127.0.0.1:4000');
  });

  it('brackets an IPv6 host', () => {
    expect(publicBaseUrl(parseConfig({ HOST: '::1', PORT: '4000' }), 'agentStudio')).toBe('http://[::1]:4000');
  });

  it('prefers PUBLIC_BASE_URL, without trailing slashes, for every area', () => {
    const config = parseConfig({ PUBLIC_BASE_URL: 'https://support.example.com//', HELP_CENTER_PORT: '4001' });
    expect(publicBaseUrl(config, 'platform')).toBe('https://support.example.com');
    expect(publicBaseUrl(config, 'helpCenter')).toBe('https://support.example.com');
  });
});
it('never echoes values that may hold credentials', () => {
  expect(() =>
    parseConfig({ SECRET_KEY: 'my-very-secret-key', DATABASE_URL: 'mysql://admin:hunter2@db/x', SMTP_URL: 'smtp:/u:pw@h' }),
  ).toThrow(ConfigError);
  try {
    parseConfig({ SECRET_KEY: 'my-very-secret-key', DATABASE_URL: 'mysql://admin:hunter2@db/x', SMTP_URL: 'smtp:/u:pw@h' });
  } catch (error) {
    const message = (error as Error).message;
    expect(message).toContain('SECRET_KEY');
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('SMTP_URL');
    expect(message).not.toMatch(/my-very-secret-key|hunter2|pw@h/);
  }
});
