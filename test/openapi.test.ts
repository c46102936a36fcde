import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocuments, serializeDocument } from '../src/http/openapi.js';

interface Document {
  openapi: string;
  components: { securitySchemes: Record<string, unknown> };
  security: unknown[];
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
}

describe('OpenAPI documents', () => {
  let documents: Record<string, unknown>;
  beforeAll(async () => {
    documents = await generateOpenApiDocuments();
  });

  it.each(['platform.json', 'help-center.json', 'agent-studio.json', 'messenger.json'])(
    'the committed openapi/%s matches the code (run `npm run openapi:export`)',
    (file) => {
      const committed = readFileSync(join('openapi', file), 'utf8');
      expect(committed).toBe(serializeDocument(documents[file]));
    },
  );

  it.each(['platform.json', 'help-center.json', 'agent-studio.json'])('%s is OpenAPI 3.1 with x-api-key security', (file) => {
    const document = documents[file] as Document;
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes).toEqual({ apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } });
    expect(document.security).toEqual([{ apiKey: [] }]);
  });

  it('messenger.json is OpenAPI 3.1 with visitor tokens, never an API key', () => {
    const document = documents['messenger.json'] as Document;
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.securitySchemes)).toEqual(['visitorToken']);
    expect(JSON.stringify(document)).not.toContain('x-api-key');
  });

  it('every operation has a unique dotted operationId and lists its 401', () => {
    const seen = new Set<string>();
    for (const document of Object.values(documents) as Document[]) {
      for (const [path, methods] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-zA-Z]+(\.[a-zA-Z-]+)+$/);
          expect(seen.has(operation.operationId as string), operation.operationId).toBe(false);
          seen.add(operation.operationId as string);
          expect(Object.keys(operation.responses), `${method} ${path}`).toContain('401');
        }
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});
