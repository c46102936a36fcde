import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApiDocuments, serializeDocument } from '../src/http/openapi.js';

// Writes openapi/*.json from the route schemas; `test/openapi.test.ts` fails when they drift.
const documents = await generateOpenApiDocuments();
for (const [file, document] of Object.entries(documents)) {
  writeFileSync(join('openapi', file), serializeDocument(document));
  console.log(`wrote openapi/${file}`);
}
