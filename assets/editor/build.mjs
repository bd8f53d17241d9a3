// Bundles src/editor.js into ../../static/js/editor.js: one minified IIFE, no runtime imports.
//   npm run build          (once)
//   npm run watch          (rebuild on change; not minified)
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const watch = process.argv.includes("--watch");

// CodeMirror injects its CSS through style-mod. For a Document, style-mod writes a <style>
// element, which the site's CSP (style-src 'self', no 'unsafe-inline', no nonces) blocks, so
// the editor would render unstyled. Constructable stylesheets (document.adoptedStyleSheets)
// are not subject to style-src, so we make style-mod use them for documents as well as for
// shadow roots whenever the browser supports them; older browsers keep the <style> fallback.
// The build fails loudly if a style-mod upgrade changes the code this relies on.
const STYLE_MOD_FROM = "if (!root.head && root.adoptedStyleSheets && win.CSSStyleSheet) {";
const STYLE_MOD_TO = "if (root.adoptedStyleSheets && win.CSSStyleSheet) {";
const styleModUsesAdoptedSheets = {
  name: "style-mod-adopted-stylesheets",
  setup(build) {
    build.onLoad({ filter: /[\\/]style-mod[\\/]src[\\/]style-mod\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes(STYLE_MOD_FROM)) {
        throw new Error(`style-mod changed: cannot find ${JSON.stringify(STYLE_MOD_FROM)} in ${args.path}`);
      }
      return { contents: source.replace(STYLE_MOD_FROM, STYLE_MOD_TO), loader: "js" };
    });
  },
};

const options = {
  entryPoints: [here("./src/editor.js")],
  outfile: here("../../static/js/editor.js"),
  bundle: true,
  format: "iife",
  platform: "browser",
  target: ["es2020"],
  minify: !watch,
  legalComments: "none",
  charset: "utf8",
  splitting: false,
  sourcemap: false,
  banner: {
    js: "/* Built from assets/editor (CodeMirror 6, MIT). Do not edit; run `make assets`. */",
  },
  plugins: [styleModUsesAdoptedSheets],
  logLevel: "info",
};

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
