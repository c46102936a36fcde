import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from './dialects.js';
import { buildTestApp, type TestApp } from './harness.js';

/** The placeholder the reference's bundle puts in the key field: base64 of a joke. */
const BUNDLED_PLACEHOLDER = 'QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT';

interface ReferenceConfiguration {
  sources: { title: string; url: string; agent?: { disabled?: boolean } }[];
  agent?: { disabled?: boolean };
  mcp?: { disabled?: boolean };
  showDeveloperTools?: string;
  telemetry?: boolean;
  withDefaultFonts?: boolean;
  authentication?: { preferredSecurityScheme?: string };
  onLoaded?: () => void;
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
}

interface Document {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** Runs the page's inline script with a stand-in for the bundle, and returns what it was given. */
function configurationOf(html: string): ReferenceConfiguration {
  const script = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!script) {
    throw new Error('no inline script on the page');
  }
  let captured: ReferenceConfiguration | undefined;
  const Scalar = {
    createApiReference: (_selector: string, configuration: ReferenceConfiguration) => {
      captured = configuration;
    },
  };
  new Function('Scalar', script)(Scalar);
  if (!captured) {
    throw new Error('the script did not create the reference');
  }
  return captured;
}

describe.each(DIALECTS)('the API reference page on %s', (dialect) => {
  let harness: TestApp;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('is configured for a self-hosted, offline install: no cloud features, no telemetry, no outside fonts', async () => {
    const page = await harness.app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Switchboard API reference</title>');

    const configuration = configurationOf(page.body);
    expect(configuration.agent).toEqual({ disabled: true });
    expect(configuration.mcp).toEqual({ disabled: true });
    expect(configuration.showDeveloperTools).toBe('never');
    expect(configuration.telemetry).toBe(false);
    expect(configuration.withDefaultFonts).toBe(false);
    expect(configuration.authentication).toEqual({ preferredSecurityScheme: 'apiKey' });
    expect(configuration.sources).toEqual([
      { title: 'Support platform (/v1)', url: '/docs/platform.json', agent: { disabled: true } },
      { title: 'Help center', url: '/docs/help-center.json', agent: { disabled: true } },
      { title: 'Agent studio (/api/v1)', url: '/docs/agent-studio.json', agent: { disabled: true } },
      { title: 'Messenger (/widget/{slug}/api)', url: '/docs/messenger.json', agent: { disabled: true } },
    ]);
  });

  it('loads everything from this server: the bundle is served here and the page names no other host', async () => {
    const page = await harness.app.inject({ url: '/docs/' });
    expect(page.body).not.toMatch(/(https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    const scripts = [...page.body.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual(['js/scalar.js']);

    const bundle = await harness.app.inject({ url: '/docs/js/scalar.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^application\/javascript/);
    expect(bundle.body).toContain('createApiReference');
  });

  it('answers like the reference plugin it loads on first visit: /docs redirects, HEAD is the GET without a body', async () => {
    const redirect = await harness.app.inject({ url: '/docs?from=menu' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/docs/');
    expect(redirect.headers['x-request-id']).toBeTruthy();

    const [page, head] = await Promise.all([
      harness.app.inject({ url: '/docs/' }),
      harness.app.inject({ method: 'HEAD', url: '/docs/' }),
    ]);
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe(page.headers['content-type']);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(page.body)));
    expect(head.body).toBe('');
  });

  it('leaves other paths under /docs/ to the help center, which asks for a key first', async () => {
    const response = await harness.app.inject({ url: '/docs/js/other.js' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'A valid x-api-key header is required', statusCode: 401 });
  });

  it('shows the shape of a Switchboard key as the key field placeholder', async () => {
    const { onLoaded } = configurationOf((await harness.app.inject({ url: '/docs/' })).body);
    expect(onLoaded).toBeTypeOf('function');

    // A stand-in for the few DOM calls the browser code makes.
    const fields = [{ placeholder: BUNDLED_PLACEHOLDER }, { placeholder: 'api-key' }];
    const observers: (() => void)[] = [];
    vi.stubGlobal('document', {
      body: { dataset: {} },
      querySelectorAll: (selector: string) =>
        fields
          .filter((field) => selector === `input[placeholder="${field.placeholder}"]`)
          .map((field) => ({
            setAttribute: (name: string, value: string) => {
              Object.assign(field, { [name]: value });
            },
          })),
    });
    vi.stubGlobal(
      'MutationObserver',
      class {
        constructor(callback: () => void) {
          observers.push(callback);
        }
        observe() {}
      },
    );
    try {
      onLoaded?.();
      onLoaded?.();
      expect(observers).toHaveLength(1);
      observers[0]?.();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(fields.map((field) => field.placeholder)).toEqual(['sbk_…', 'api-key']);
  });

  it('describes every operation for an API user: a summary each, no internal references', async () => {
    for (const file of ['platform.json', 'help-center.json', 'agent-studio.json', 'messenger.json']) {
      const document = (await harness.app.inject({ url: `/docs/${file}` })).json() as Document;
      const texts: [string, string][] = (document.tags ?? []).map((tag) => [`tag ${tag.name}`, tag.description ?? '']);
      for (const [path, methods] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          const where = `${file} ${method.toUpperCase()} ${path}`;
          expect(operation.summary, where).toMatch(/\S/);
          texts.push([where, `${operation.summary ?? ''} ${operation.description ?? ''}`]);
        }
      }
      for (const [where, text] of texts) {
        expect(text, where).not.toMatch(/endpoint \d+|upstream/i);
      }
      // Every tag an operation uses is described, for the reference's sidebar.
      const described = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
      for (const methods of Object.values(document.paths)) {
        for (const operation of Object.values(methods)) {
          for (const tag of (operation as { tags?: string[] }).tags ?? []) {
            expect(described.get(tag), `${file} tag ${tag}`).toMatch(/\S/);
          }
        }
      }
    }
  });
});
