import { writeFileSync } from 'node:fs';
import { generateWebClientTypes, WEB_CLIENT_TYPES_FILE } from './web-client-types.js';

writeFileSync(WEB_CLIENT_TYPES_FILE, await generateWebClientTypes());
console.log(`wrote ${WEB_CLIENT_TYPES_FILE}`);
