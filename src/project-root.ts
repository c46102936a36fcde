/**
 * The project's folder: one above this module, whether it runs from `src/` (tests, `npm run dev`)
 * or bundled into `dist/switchboard.js`. Files that ship beside the code (package.json, the
 * console's build) are found from here.
 */
export const PROJECT_ROOT = new URL('../', import.meta.url);
