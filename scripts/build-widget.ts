import { gzipSync } from 'node:zlib';
import { buildWidgetBundles, WIDGET_BUILD_DIR, writeWidgetBundles } from './widget-bundles.js';

/** `npm run build:widget`: the messenger's loader and panel, minified, in `dist/widget/`. */
const bundles = await buildWidgetBundles();
writeWidgetBundles(bundles);
const sizes = [...bundles].map(([name, contents]) => `${name} ${(gzipSync(contents).length / 1024).toFixed(1)} kB gzipped`);
console.log(`wrote ${WIDGET_BUILD_DIR}: ${sizes.join(', ')}`);
