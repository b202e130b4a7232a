// Builds the lite front end: src/index.js (and the widgets' CSS) into the lite Voilà
// template's static folder, where Voilà serves it:
//
//     cd benchmarks/lite && npm ci && npm run build
//
// ipycanvas 0.14.3's front end is not on the npm registry this project uses (it offers
// 0.13.3 only), so the bundle takes the one the Python package ships for the classic
// notebook (ipycanvas/nbextension/static/index.js: an AMD module that needs only
// @jupyter-widgets/base) and gives it this bundle's @jupyter-widgets/base. PYTHON (default:
// the project's .venv) says which Python's ipycanvas to take.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const python = process.env.PYTHON || path.resolve(here, '../../.venv/bin/python');
const outdir = path.join(here, 'share/voila/templates/lite/static/dist');

const [amdPath, ipycanvasVersion] = execFileSync(python, [
  '-c',
  'import ipycanvas, pathlib; ' +
    "print(pathlib.Path(ipycanvas.__file__).parent / 'nbextension/static/index.js'); " +
    'print(ipycanvas.__version__)',
])
  .toString()
  .trim()
  .split('\n');
if (ipycanvasVersion !== '0.14.3') {
  console.warn(`warning: ipycanvas ${ipycanvasVersion} (this bundle was made for 0.14.3)`);
}

const ipycanvasFrontend = {
  name: 'ipycanvas-frontend',
  setup(build) {
    build.onResolve({ filter: /^ipycanvas-frontend$/ }, () => ({
      path: amdPath,
      namespace: 'ipycanvas-amd',
    }));
    build.onLoad({ filter: /.*/, namespace: 'ipycanvas-amd' }, () => ({
      // a CommonJS module (sloppy mode, as the AMD file expects) defining what define() got
      contents:
        'var __base = require("@jupyter-widgets/base"); var __exports;\n' +
        'function define(deps, factory) { __exports = factory(__base); }\n' +
        readFileSync(amdPath, 'utf8') +
        '\nmodule.exports = __exports;\n',
      loader: 'js',
      resolveDir: here,
    }));
  },
};

const common = {
  bundle: true,
  minify: true,
  target: 'es2020',
  legalComments: 'none',
  logLevel: 'info',
  metafile: true,
};
const js = await esbuild.build({
  ...common,
  entryPoints: { 'lite-seat': path.join(here, 'src/index.js') },
  outdir,
  format: 'iife',
  platform: 'browser',
  define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
  plugins: [ipycanvasFrontend],
});
await esbuild.build({
  ...common,
  entryPoints: { 'lite-seat': path.join(here, 'src/style.css') },
  outdir,
  loader: { '.svg': 'dataurl', '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl' },
});
if (process.argv.includes('--analyze')) {
  console.log(await esbuild.analyzeMetafile(js.metafile));
}
