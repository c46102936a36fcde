import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * `npm run build:server` (after `tsc` has checked the types): the server as one ES module,
 * `dist/switchboard.js`, which `bin/switchboard.js` runs.
 *
 * Why a bundle: Node resolves, reads and compiles each module file on its own, and the server's
 * first answer needs about 1,300 of them (Kysely and TypeBox alone are 500). That was 0.55 s of a
 * 0.85 s start; one file loads in 0.15 s.
 *
 * What stays out of it:
 * - packages the sources only `import()` (the AI SDK, the MCP SDK, nodemailer, the HTML
 *   converters, the API reference, …): they load from node_modules on first use, as in the
 *   tests, so the start neither reads nor compiles them;
 * - better-sqlite3, whose native addon is found relative to its own files;
 * - pg-native, which pg names but only requires when asked for (it is not installed).
 * The project's own `import()`s (the demo seed) become chunks beside
 * the bundle, loaded on first use too. Chunks sit in `dist/` itself, as the entry does, because
 * `src/project-root.ts` finds the project one folder above the module it is in.
 */
const ALWAYS_EXTERNAL = ['better-sqlite3', 'pg-native'];

/** `kysely`, `@scope/name/sub.js`: a package, not a file or a built-in. (esbuild filters are Go regular expressions, without lookahead.) */
const BARE_SPECIFIER = /^[@a-z0-9]/;

/** A package name from a bare specifier: `@scope/name/sub.js` → `@scope/name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Leaves every package reached by `import()` out, and records which they were. */
function lazyPackagesExternal(lazy: Set<string>): Plugin {
  return {
    name: 'lazy-packages-external',
    setup(context) {
      context.onResolve({ filter: BARE_SPECIFIER }, (args) => {
        if (
          args.path.startsWith('node:') ||
          (args.kind !== 'dynamic-import' && !ALWAYS_EXTERNAL.includes(packageOf(args.path)))
        ) {
          return undefined;
        }
        lazy.add(packageOf(args.path));
        return { path: args.path, external: true };
      });
    },
  };
}

const OUT_DIR = 'dist';
mkdirSync(OUT_DIR, { recursive: true });
// Chunks are named by their hash: last build's would stay beside this one's. tsc's record of its
// incremental check stays, and so does the messenger's build (`npm run build:widget`, in widget/).
const KEPT = new Set(['.tsbuildinfo', 'widget']);
for (const entry of readdirSync(OUT_DIR, { withFileTypes: true }).filter((found) => !KEPT.has(found.name))) {
  rmSync(join(OUT_DIR, entry.name), { recursive: true, force: true });
}
const lazy = new Set<string>();
const result = await build({
  entryPoints: { switchboard: 'src/cli.ts' },
  outdir: OUT_DIR,
  chunkNames: 'switchboard-[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // ES module builds first: jsonc-parser's `main` is a UMD build that requires its own files.
  mainFields: ['module', 'main'],
  // CommonJS packages inside an ES module still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Comments and whitespace left out: V8 keeps a script's whole text for the life of the process.
  minifyWhitespace: true,
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [lazyPackagesExternal(lazy)],
});

// A package both bundled and loaded from node_modules would exist twice, with two module states.
const bundled = new Set(
  Object.keys(result.metafile.inputs)
    .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1])
    .filter((name): name is string => name !== undefined),
);
const twice = [...lazy].filter((name) => bundled.has(name));
if (twice.length > 0) {
  throw new Error(`imported both statically and with import(), so bundled and loaded again: ${twice.join(', ')}`);
}

// V8 keeps a script's text one byte a character if it is all Latin-1, else two: one `…` in a
// regular expression or a tagged template (which esbuild cannot escape) costs 3 MiB of heap.
for (const file of readdirSync(OUT_DIR).filter((name) => name.endsWith('.js'))) {
  const text = readFileSync(join(OUT_DIR, file), 'utf8');
  const at = text.search(/[\u0100-\uffff]/);
  if (at >= 0) {
    console.warn(
      `${file} holds characters beyond Latin-1, so V8 keeps it at two bytes a character; write them as escapes: …${text.slice(Math.max(0, at - 40), at + 10)}…`,
    );
  }
}
