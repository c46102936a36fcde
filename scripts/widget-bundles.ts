import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type OutputFile } from 'esbuild';

/** Where `npm run build:widget` writes the messenger; `src/channels/messenger/widget-assets.ts` serves it. */
export const WIDGET_BUILD_DIR = join('dist', 'widget');

/** The files of a build, by name: `loader.js`, `panel.js`, `panel.css`. */
export type WidgetBundles = Map<string, Uint8Array>;

const COMMON = {
  bundle: true,
  minify: true,
  target: 'es2020',
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
} as const;

function byName(files: OutputFile[], into: WidgetBundles): void {
  for (const file of files) {
    const name = file.path.split(/[\\/]/).pop() ?? file.path;
    if (!name.endsWith('.map')) {
      into.set(name, file.contents);
    }
  }
}

/**
 * Builds the messenger's two halves in memory: the loader, a classic script (a host page's
 * `<script src>` without `type="module"`) wrapped in a function so nothing leaks into the page's
 * globals but `window.Switchboard`; and the panel, an ES module for the iframe's page, with the
 * stylesheet its entry imports. esbuild only: a build of both takes a fraction of a second, so the
 * size test builds the current sources rather than trusting an old `dist/`.
 */
export async function buildWidgetBundles(): Promise<WidgetBundles> {
  const bundles: WidgetBundles = new Map();
  const [loader, panel] = await Promise.all([
    build({ ...COMMON, entryPoints: { loader: 'widget/loader/loader.ts' }, outdir: WIDGET_BUILD_DIR, format: 'iife' }),
    build({
      ...COMMON,
      entryPoints: { panel: 'widget/panel/main.tsx' },
      outdir: WIDGET_BUILD_DIR,
      format: 'esm',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      tsconfig: 'widget/tsconfig.json',
    }),
  ]);
  byName(loader.outputFiles, bundles);
  byName(panel.outputFiles, bundles);
  return bundles;
}

/** Writes a build to `dist/widget/`, replacing what an earlier one left there. */
export function writeWidgetBundles(bundles: WidgetBundles, dir = WIDGET_BUILD_DIR): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, contents] of bundles) {
    writeFileSync(join(dir, name), contents);
  }
}
