import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = ['README.md', 'CONTRIBUTING.md'];

/** The targets of a page's inline links `[text](target)`, without their `#fragment`. */
function linkTargets(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#');
}

describe('README and CONTRIBUTING stand alone in a clone', () => {
  it.each(PAGES)('%s names nothing outside the repository', (page) => {
    const text = readFileSync(new URL(`../${page}`, import.meta.url), 'utf8');
    expect(text).not.toContain('../shared');
    for (const target of linkTargets(text).filter((link) => !isExternal(link))) {
      const path = target.split('#')[0] ?? '';
      const resolved = fileURLToPath(new URL(path, new URL(`../${page}`, import.meta.url)));
      expect(resolved.startsWith(ROOT), `${page}: ${target} leaves the repository`).toBe(true);
      expect(existsSync(resolved), `${page}: ${target} does not exist`).toBe(true);
    }
  });

  it('the README keeps its two set-up lines and links the reference, the architecture and the rules', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('\n```sh\nnpm install && npm start\n```\n');
    expect(readme).toContain('\n```sh\nnpm install && npm test\n```\n');
    expect(readme).toContain('http://localhost:3000/docs');
    expect(linkTargets(readme)).toEqual(expect.arrayContaining(['ARCHITECTURE.md', 'CONTRIBUTING.md', 'openapi/']));
  });

  it('the README documents every command of the command line', async () => {
    const out: string[] = [];
    expect(await main(['--help'], {}, { out: (line) => out.push(line), err: () => undefined })).toBe(0);
    const commands = out
      .join('\n')
      .split('\n')
      .map((line) => /^ {2}([a-z]+(?: [a-z]+)?)(?: |$)/.exec(line)?.[1])
      .filter((command): command is string => command !== undefined);
    expect(commands).toContain('keys list');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const command of commands) {
      expect(readme, command).toContain(`\`switchboard ${command}`);
    }
  });
});
