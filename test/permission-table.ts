import { readFileSync } from 'node:fs';

/**
 * README.md's "Who may change what": the one place the permission of every write route is
 * written. The tests read it from there, so the README cannot say one thing while the code and
 * the tests do another.
 */
export const PERMISSION_SECTION = '### Who may change what';

export interface PermissionTable {
  /** The rules the legend defines, in its order. */
  rules: string[];
  /** `METHOD /openapi/path` → its rule, in the table's order. */
  routes: Map<string, string>;
  /** Rows naming a route a second time. */
  duplicates: string[];
}

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1'));

/** The section's two tables: the legend (`| Who may | Means |`) and the routes (`| Method | Path | Who may |`). */
export function readPermissionTable(readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')): PermissionTable {
  const start = readme.indexOf(`\n${PERMISSION_SECTION}\n`);
  if (start < 0) {
    throw new Error(`README.md has no "${PERMISSION_SECTION}" section`);
  }
  const rest = readme.slice(start + PERMISSION_SECTION.length + 2);
  const end = rest.search(/\n#{1,3} /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const table: PermissionTable = { rules: [], routes: new Map(), duplicates: [] };
  let kind: 'legend' | 'routes' | null = null;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      kind = null;
      continue;
    }
    const row = cells(line);
    if (row[0] === 'Who may') {
      kind = 'legend';
    } else if (row[0] === 'Method') {
      kind = 'routes';
    } else if (/^-+$/.test(row[0] ?? '')) {
      // The header's separator row.
    } else if (kind === 'legend') {
      table.rules.push(row[0] ?? '');
    } else if (kind === 'routes') {
      const [method, path, rule] = row;
      const key = `${method} ${path}`;
      if (table.routes.has(key)) {
        table.duplicates.push(key);
      }
      table.routes.set(key, rule ?? '');
    }
  }
  return table;
}
