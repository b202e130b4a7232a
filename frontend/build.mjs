// Builds hexclass' own page front end: src/index.js (and the widgets' CSS) into the hexclass
// Voilà template's static folder, where Voilà serves it to the pages whose notebook asks
// for it ("hexclass": {"front_end": "lite"} in its metadata):
//
//     cd frontend && npm ci && npm run build
//
// The two files are committed (the wheel and a clean clone serve them without Node). Each
// starts with a banner naming the SHA-256 of what it was built from (src/, package.json,
// package-lock.json, build.mjs and ipycanvas' front end); tests/widgets/test_frontend_bundle.py
// recomputes it, so a source changed without a rebuild fails the tests.
//
// ipycanvas 0.14.3's front end is not on the npm registry this project uses (it offers
// 0.13.3 only), so the bundle takes the one the Python package ships for the classic
// notebook (ipycanvas/nbextension/static/index.js: an AMD module that needs only
// @jupyter-widgets/base) and gives it this bundle's @jupyter-widgets/base. PYTHON (default:
// the project's .venv) says which Python's ipycanvas to take.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const python = process.env.PYTHON || path.resolve(here, '../.venv/bin/python');
const outdir = path.resolve(here, '../classroom/share/voila/templates/hexclass/static/lite');

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

// What the bundle is built from, in a fixed order: the test recomputes this in Python.
function sourcesDigest() {
  const files = ['build.mjs', 'package.json', 'package-lock.json'];
  for (const name of readdirSync(path.join(here, 'src')).sort()) files.push(`src/${name}`);
  const hash = createHash('sha256');
  for (const name of files) {
    hash.update(`${name}\n`);
    hash.update(readFileSync(path.join(here, name)));
  }
  hash.update('ipycanvas/nbextension/static/index.js\n');
  hash.update(readFileSync(amdPath));
  return hash.digest('hex');
}
const banner = `/* hexclass front end, built by frontend/build.mjs from sources sha256:${sourcesDigest()} */`;

const common = {
  bundle: true,
  minify: true,
  target: 'es2020',
  legalComments: 'none',
  logLevel: 'info',
  metafile: true,
  banner: { js: banner, css: banner },
};
const js = await esbuild.build({
  ...common,
  entryPoints: { page: path.join(here, 'src/index.js') },
  outdir,
  format: 'iife',
  platform: 'browser',
  define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
  plugins: [ipycanvasFrontend],
});
await esbuild.build({
  ...common,
  entryPoints: { page: path.join(here, 'src/style.css') },
  outdir,
  loader: { '.svg': 'dataurl', '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl' },
});
if (process.argv.includes('--analyze')) {
  console.log(await esbuild.analyzeMetafile(js.metafile));
}
