// Bundles the page and the worker with esbuild and assembles playground/dist/: a static
// site with no run-time fetches outside itself. Run by playground/build.sh after
// wasm-bindgen has written playground/build/pkg/.
import { build } from 'esbuild';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const web = path.join(root, 'web');
const pkg = path.join(root, 'build', 'pkg');
const dist = path.join(root, 'dist');

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await build({
  entryPoints: [path.join(web, 'main.js'), path.join(web, 'worker.js')],
  outdir: dist,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
for (const file of ['index.html', 'style.css']) {
  await copyFile(path.join(web, file), path.join(dist, file));
}
await copyFile(path.join(pkg, 'rex_playground_bg.wasm'), path.join(dist, 'rex_playground_bg.wasm'));
const { size } = await stat(path.join(dist, 'rex_playground_bg.wasm'));
console.log(`playground/dist written (rex_playground_bg.wasm: ${size} bytes)`);
