import { execFileSync } from 'node:child_process';
import { REPO_DIR } from './datasets.js';

/** `npm run build`: Switchboard is measured as production runs it, compiled, from `dist/`. */
export function buildSwitchboard(log: (line: string) => void): void {
  log('building Switchboard (npm run build)');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: REPO_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
}
