// The playground in real Chromium: type, see diagnostics, hover, holes, examples, the URL,
// hostile input; then the .wasm size and keystroke-to-diagnostics latency on 500 lines.
// Usage: node playground/tests/browser.mjs  (after playground/build.sh and a release `rex`)
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, launchBrowser, runTests, startLlamaServer, startServer } from './harness.mjs';
import { measureKeystrokeLatency } from './latency.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const playground = path.dirname(here);
const repo = path.dirname(playground);
const dist = path.join(playground, 'dist');
const artefacts = path.join(playground, 'test-results');
const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(repo, 'target');
const rex = process.env.REX_BIN ?? path.join(targetDir, 'release', 'rex');

/// Waits until the page has shown the analysis of its newest text.
async function analysed(page) {
  await page.waitForFunction(() => window.rexPlayground &&
    document.body.dataset.analyzedVersion === String(window.rexPlayground.version()));
}

async function open(page, url) {
  await page.goto(url);
  await analysed(page);
}

/// Replaces the program as a person pasting it would.
async function typeProgram(page, text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  await analysed(page);
}

const problems = (page) => page.locator('#problems .list li').allTextContents();

async function hoverText(page, offset) {
  const at = await page.evaluate((o) => {
    const c = window.rexPlayground.view.coordsAtPos(o);
    return { x: (c.left + c.right) / 2 + 1, y: (c.top + c.bottom) / 2 };
  }, offset);
  await page.mouse.move(at.x, at.y);
  const tooltip = page.locator('.cm-tooltip-hover');
  await tooltip.waitFor({ timeout: 5000 });
  return tooltip.textContent();
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

const tests = [
  ['links to the book, which the same server serves under /book/', async ({ page, url }) => {
    await open(page, url);
    const href = await page.locator('#book-link').getAttribute('href');
    const book = new URL(href, url).href;
    expect(book === new URL('/book/', url).href, `the link goes to ${book}`);
    const response = await page.goto(book);
    const title = await page.title();
    // The built book (CI builds it before this step), or the page saying how to build it.
    const built = response.status() === 200 && title.includes('Rex with typed holes');
    const unbuilt = response.status() === 404 && title === 'The Rex book is not built';
    expect(built || unbuilt, `/book/ answered ${response.status()} with the title ${title}`);
  }],
  ['loads the page and checks the default example', async ({ page, url, shot }) => {
    await open(page, url);
    expect((await page.locator('#hole-count').textContent()) === '1', 'one hole in the pH example');
    const list = await problems(page);
    expect(list.length === 1 && list[0].includes('I0001'), `only the hole note: ${list}`);
    await shot('loaded');
  }],

  ['a misspelled name gets a diagnostic', async ({ page, url, shot }) => {
    await open(page, url);
    await typeProgram(page, 'fn double : i32 -> i32 = \\n -> n * 2\n\nlet total = dobule 21 in\ntotal\n');
    const list = await problems(page);
    expect(list.some((p) => p.includes('E0201') && p.includes('dobule')), `diagnostic: ${list}`);
    await page.locator('.cm-lintRange-error').first().waitFor();
    expect((await page.locator('#problem-count').textContent()) === '1', 'one problem');
    await shot('misspelled-name');
    // Fixing the name by typing clears it.
    await page.keyboard.press('Control+End');
    await page.evaluate(() => {
      const v = window.rexPlayground.view;
      const at = v.state.doc.toString().indexOf('dobule');
      v.dispatch({ selection: { anchor: at + 1, head: at + 4 } });
    });
    await page.keyboard.type('oub');
    await analysed(page);
    expect((await page.locator('#problem-count').textContent()) === '0', 'fixed by typing');
  }],

  ['hovering a binding shows its type', async ({ page, url, shot }) => {
    await open(page, url);
    const text = 'fn double : i32 -> i32 = \\n -> n * 2\n\nlet total = double 21 in\ntotal\n';
    await typeProgram(page, text);
    const tip = await hoverText(page, text.indexOf('total') + 2);
    expect(tip.includes('total : i32'), `hover on the binding: ${tip}`);
    await shot('hover');
  }],

  ['completion offers what fits the expected type first', async ({ page, url, shot }) => {
    await open(page, url);
    await typeProgram(page, 'fn double : i32 -> i32 = \\n -> n * 2\nlet dozen = 12 in\nlet total : i32 = ');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('do');
    const first = page.locator('.cm-tooltip-autocomplete li').first();
    await first.waitFor();
    const label = await first.textContent();
    expect(label.startsWith('dozen'), `first completion: ${label}`);
    await shot('completion');
    await page.keyboard.press('Enter');
    const text = await page.evaluate(() => window.rexPlayground.view.state.doc.toString());
    expect(text.endsWith('let total : i32 = dozen'), `completed: ${text}`);
  }],

  ['the holes panel lists the hole with its expected type', async ({ page, url, shot }) => {
    await open(page, url);
    await page.selectOption('#examples', 'ph');
    await analysed(page);
    await page.click('nav [data-panel=holes]');
    const hole = page.locator('#holes .list li').first();
    expect((await hole.textContent()).includes('? : Result string string'), await hole.textContent());
    await hole.click();
    await page.locator('#hole-detail .binding', { hasText: 'sensor_reading : string' }).waitFor();
    await shot('holes-panel');
  }],

  ['a hole is filled with its first candidate', async ({ page, url, shot }) => {
    await open(page, url);
    await page.selectOption('#examples', 'ph');
    await analysed(page);
    await page.click('nav [data-panel=holes]');
    await page.locator('#holes .list li').first().click();
    const first = page.locator('#hole-detail button.candidate').first();
    await first.waitFor();
    const candidate = await first.textContent();
    expect(candidate === 'qc_label_from_sensor sensor_reading', `first candidate: ${candidate}`);
    await shot('hole-candidates');
    await first.click();
    await analysed(page);
    const text = await page.evaluate(() => window.rexPlayground.view.state.doc.toString());
    expect(text.includes('let qc_label : Result string string = qc_label_from_sensor sensor_reading in'),
      `filled: ${text}`);
    expect((await page.locator('#hole-count').textContent()) === '0', 'no hole left');
    expect((await page.locator('#problem-count').textContent()) === '0', 'no problem');
    await shot('hole-filled');
    await page.click('#run');
    await page.locator('#output-text', { hasText: 'Ok "stable"' }).waitFor();
    expect((await page.locator('#output-text').textContent()) === 'Ok "stable"', 'run result');
    await shot('run-ok-stable');
  }],

  ['running a program with a hole shows the hole and its values', async ({ page, url, shot }) => {
    await open(page, url);
    await page.selectOption('#examples', 'mk');
    await analysed(page);
    await page.keyboard.press('Control+Enter');
    const out = page.locator('#output-text');
    await out.locator('text=reached').waitFor();
    const text = await out.textContent();
    expect(text.startsWith('?\n') && text.includes('reached ? at 3:18') && text.includes('x = 1i32'),
      `output: ${text}`);
    await shot('run-hole');
  }],

  ['a runaway program stops at its step budget or at Stop', async ({ page, url, shot }) => {
    await open(page, url);
    await typeProgram(page, 'fn spin : i32 -> i32 = \\n -> spin (n + 1)\nspin 0\n');
    await page.click('#run');
    await page.locator('#output-text', { hasText: 'ran out of gas' }).waitFor({ timeout: 120000 });
    await page.click('#run');
    await page.locator('#run', { hasText: 'Stop' }).waitFor();
    await page.click('#run');
    await page.locator('#output-text', { hasText: 'stopped' }).waitFor();
    // A fresh worker answers at once.
    await typeProgram(page, 'let x = 1 in x');
    await page.click('#run');
    await page.locator('#output-text', { hasText: '1i32' }).waitFor();
    await shot('run-stopped');
  }],

  ['the quick-fix menu repairs a misspelled name', async ({ page, url, shot }) => {
    await open(page, url);
    const text = 'fn double : i32 -> i32 = \\n -> n * 2\n\nlet total = dobule 21 in\ntotal\n';
    await typeProgram(page, text);
    await page.evaluate((at) => window.rexPlayground.view.dispatch({ selection: { anchor: at } }),
      text.indexOf('dobule') + 2);
    await page.keyboard.press('Control+.');
    const fix = page.locator('#menu button', { hasText: 'double' }).first();
    await fix.waitFor();
    await shot('quick-fix-menu');
    await fix.click();
    await analysed(page);
    const fixed = await page.evaluate(() => window.rexPlayground.view.state.doc.toString());
    expect(fixed.includes('let total = double 21 in'), `fixed: ${fixed}`);
    expect((await page.locator('#problem-count').textContent()) === '0', 'no problem');
  }],

  ['the examples menu loads an example and the URL keeps it', async ({ page, url, shot }) => {
    await open(page, url);
    await page.selectOption('#examples', 'mk');
    await analysed(page);
    await page.click('nav [data-panel=holes]');
    const hole = await page.locator('#holes .list li').first().textContent();
    expect(hole.includes('? : string'), `mk hole: ${hole}`);
    await page.waitForFunction(() =>
      document.body.dataset.urlVersion === String(window.rexPlayground.version()));
    const link = page.url();
    const again = await page.context().newPage();
    await open(again, link);
    const text = await again.evaluate(() => window.rexPlayground.view.state.doc.toString());
    expect(text.startsWith('fn mk : i32 -> string'), `reloaded: ${text}`);
    await again.close();
    await shot('examples-and-url');
  }],

  ['deeply nested input is reported, not a crash', async ({ page, url, shot }) => {
    await open(page, url);
    await typeProgram(page, `${'('.repeat(20000)}1`);
    const list = await problems(page);
    expect(list.some((p) => p.includes('E0107')), `nesting diagnostic: ${list.slice(0, 3)}`);
    await typeProgram(page, `${'['.repeat(3000)}${']'.repeat(3000)}`);
    const lambdas = `${'\\x -> '.repeat(5000)}x ?`;
    await typeProgram(page, lambdas);
    await hoverText(page, lambdas.length - 3).catch(() => null);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Control+.');
    await page.locator('#menu').waitFor();
    await page.keyboard.press('Escape');
    await typeProgram(page, `${'1 + '.repeat(30000)}1`);
    const crashes = await page.evaluate(() => window.rexPlayground.crashes());
    expect(crashes === 0, `the worker crashed ${crashes} time(s)`);
    await typeProgram(page, 'let x = 1 in x');
    expect((await page.locator('#problem-count').textContent()) === '0', 'recovers');
    await shot('deep-nesting');
  }],
];

// --- "Fill with model" against llama.cpp's real server (scripts/llama-server.sh) -----------

/// Sets the model server through the settings dialog, as a person would. Fewer samples
/// and tokens than the defaults: llama-cpp-python's server on two CPU cores takes about a
/// second per token (tests/cli/fill_remote.rs says why).
async function setModelServer(page, { url, model = 'gemma-3-270m', server = 'llamacpp' }) {
  await page.click('#model-settings-open');
  const dialog = page.locator('#model-settings');
  await dialog.locator('input[name=url]').fill(url);
  await dialog.locator('input[name=model]').fill(model);
  await dialog.locator('select[name=server]').selectOption(server);
  await dialog.locator('input[name=samples]').fill('2');
  await dialog.locator('input[name=errorRounds]').fill('1');
  await dialog.locator('input[name=maxTokens]').fill('24');
  await page.click('#model-settings-save');
}

async function openPhHole(page, url) {
  await open(page, url);
  await page.selectOption('#examples', 'ph');
  await analysed(page);
  await page.click('nav [data-panel=holes]');
  await page.locator('#holes .list li').first().click();
}

const modelTests = (llama) => [
  ['the model fills the pH hole through the server, and it runs', async ({ page, url, shot }) => {
    await open(page, url);
    await setModelServer(page, { url: llama.url });
    await openPhHole(page, url);
    await page.click('#hole-detail button.fill-with-model');
    await page.locator('#hole-detail button.fill-with-model', { hasText: 'Stop' }).waitFor();
    await shot('model-fill-progress');
    const wanted = page.locator('#hole-detail button.model-fill[data-text="qc_label_from_sensor sensor_reading"]');
    await wanted.waitFor({ timeout: 600000 });
    const fills = await page.locator('#hole-detail button.model-fill').evaluateAll(
      (bs) => bs.map((b) => b.dataset.text));
    console.log(`     model fills: ${JSON.stringify(fills)}`);
    await shot('model-fills');
    // The settings stay in this browser: the shared link holds the program only.
    expect(!page.url().includes(String(new URL(llama.url).port)), `the link leaks the server: ${page.url()}`);
    await wanted.click();
    await analysed(page);
    expect((await page.locator('#problem-count').textContent()) === '0', 'the fill checks');
    await page.click('#run');
    await page.locator('#output-text', { hasText: 'Ok "stable"' }).waitFor();
    expect((await page.locator('#output-text').textContent()) === 'Ok "stable"', 'run result');
    await shot('model-fill-run');
  }],

  ['Stop ends a model fill', async ({ page, url, shot }) => {
    await open(page, url);
    await setModelServer(page, { url: llama.url });
    await openPhHole(page, url);
    await page.click('#hole-detail button.fill-with-model');
    const stop = page.locator('#hole-detail button.fill-with-model', { hasText: 'Stop' });
    await stop.waitFor();
    await stop.click();
    await page.locator('#hole-detail .model-status.failed', { hasText: 'stopped' }).waitFor();
    await page.locator('#hole-detail button.fill-with-model', { hasText: 'Fill with model' }).waitFor();
    await shot('model-fill-stopped');
  }],
];

const downTest = ['a model server that is down gives a clear message', async ({ page, url, shot }) => {
  await open(page, url);
  const closed = await freePort();
  await setModelServer(page, { url: `http://127.0.0.1:${closed}` });
  await openPhHole(page, url);
  await page.click('#hole-detail button.fill-with-model');
  const status = page.locator('#hole-detail .model-status.failed');
  await status.waitFor({ timeout: 60000 });
  const text = await status.textContent();
  expect(text.includes(`127.0.0.1:${closed}`) && text.includes('is the server running'), `message: ${text}`);
  await shot('model-server-down');
}];

const started = Date.now();
const wasm = await readFile(path.join(dist, 'rex_playground_bg.wasm'));
console.log(`wasm size: ${wasm.length} bytes raw, ${gzipSync(wasm, { level: 9 }).length} bytes gzipped`);

const server = await startServer(rex, dist);
const llama = await startLlamaServer(repo);
if (llama) tests.push(...modelTests(llama));
else console.log('skipped: the model-fill tests (llama.cpp server not installed: bash scripts/llama-server.sh install)');
tests.push(downTest);
const browser = await launchBrowser();
let result;
try {
  result = await runTests(tests, { context: browser.context, url: server.url, artefacts });
  const page = await browser.context.newPage();
  await open(page, server.url);
  await measureKeystrokeLatency(page, { lines: 500, keystrokes: 30, analysed });
  await page.screenshot({ path: path.join(artefacts, 'latency-500-lines.png') });
  await page.close();
} finally {
  await browser.close();
  server.stop();
  llama?.stop();
}
console.log(`browser tests took ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`browser: ${result.passed} passed, ${result.failed} failed`);
process.exit(result.failed === 0 ? 0 : 1);
