import { writeFileSync } from 'node:fs';
import { generateWebClientTypes, WEB_CLIENTS } from './web-client-types.js';

for (const { document, file } of WEB_CLIENTS) {
  writeFileSync(file, await generateWebClientTypes(document));
  console.log(`wrote ${file}`);
}
