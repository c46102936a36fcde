import { writeFileSync } from 'node:fs';
import { generateWebClientTypes, WEB_CLIENTS } from './web-client-types.js';

for (const client of WEB_CLIENTS) {
  writeFileSync(client.file, await generateWebClientTypes(client));
  console.log(`wrote ${client.file}`);
}
