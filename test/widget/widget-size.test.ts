import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWidgetBundles, type WidgetBundles } from '../../scripts/widget-bundles.js';

/** Issue 34's budgets: the loader runs on every page of the host, the panel only once opened. */
const LOADER_BUDGET_BYTES = 10 * 1024;
const PANEL_BUDGET_BYTES = 60 * 1024;

const gzipped = (bundles: WidgetBundles, name: string) => {
  const contents = bundles.get(name);
  if (!contents) {
    throw new Error(`the build made no ${name}`);
  }
  return gzipSync(contents, { level: 9 }).length;
};

describe('the messenger’s size (built from the current sources, as npm run build:widget does)', () => {
  let bundles: WidgetBundles;
  beforeAll(async () => {
    bundles = await buildWidgetBundles();
  });

  it('makes the loader, the panel’s script and its stylesheet, nothing else', () => {
    expect([...bundles.keys()].sort()).toEqual(['loader.js', 'panel.css', 'panel.js']);
  });

  it('keeps the loader under 10 kB gzipped', () => {
    expect(gzipped(bundles, 'loader.js')).toBeLessThan(LOADER_BUDGET_BYTES);
  });

  it('keeps the panel, script and stylesheet together, under 60 kB gzipped', () => {
    expect(gzipped(bundles, 'panel.js') + gzipped(bundles, 'panel.css')).toBeLessThan(PANEL_BUDGET_BYTES);
  });

  it('builds the loader as a classic script that leaks no global but Switchboard, and the panel as a module', () => {
    const loader = new TextDecoder().decode(bundles.get('loader.js'));
    expect(loader).not.toMatch(/^\s*(import|export)\b/m);
    expect(loader).toMatch(/^("use strict";)?\(\(\)=>\{/);
    const panel = new TextDecoder().decode(bundles.get('panel.js'));
    expect(panel).not.toMatch(/\bimport\s*\(|from\s*["']/);
  });
});
