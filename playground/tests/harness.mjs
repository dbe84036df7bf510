// What the browser tests stand on: the real `rex playground` server over playground/dist,
// Debian's Chromium driven by playwright-core (never a downloaded browser), a fresh
// profile per run, and a tiny runner that prints `N passed, M failed`.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.REX_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/// Starts `rex playground --port 0 --dir DIST`; resolves with its URL and a stop function.
export async function startServer(rex, dist) {
  const child = spawn(rex, ['playground', '--port', '0', '--dir', dist], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('rex playground printed no address')), 10000);
    child.once('exit', (code) => reject(new Error(`rex playground exited with ${code}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = line.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) resolve(match[0]);
      else reject(new Error(`no address in: ${line}`));
    });
  });
  return { url, stop: () => child.kill() };
}

/// llama.cpp's OpenAI-compatible server from `scripts/llama-server.sh serve` on a free port,
/// once it answers; null when its venv is not installed.
export async function startLlamaServer(repo) {
  const script = path.join(repo, 'scripts', 'llama-server.sh');
  const installed = await new Promise((resolve) => {
    spawn('bash', [script, 'venv'], { stdio: 'ignore' }).once('exit', (code) => resolve(code === 0));
  });
  if (!installed) return null;
  const child = spawn('bash', [script, 'serve'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('llama-server.sh printed no address')), 60000);
    child.once('exit', (code) => reject(new Error(`llama-server.sh exited with ${code}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = line.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (match) resolve(match[0]);
      else reject(new Error(`no address in: ${line}`));
    });
  });
  const deadline = Date.now() + 120000;
  for (;;) {
    try {
      if ((await fetch(`${url}/v1/models`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`llama.cpp's server at ${url} did not come up`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { url, stop: () => child.kill() };
}

/// A port nothing listens on (bound, read, released).
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export async function launchBrowser() {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'rex-playground-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/// Runs each test on a fresh page; a failing test leaves a screenshot too.
export async function runTests(tests, { context, url, artefacts }) {
  await rm(artefacts, { recursive: true, force: true });
  await mkdir(artefacts, { recursive: true });
  let passed = 0;
  let failed = 0;
  for (const [name, body] of tests) {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const shot = (label) => page.screenshot({ path: path.join(artefacts, `${label}.png`) });
    const started = Date.now();
    try {
      await body({ page, url, shot });
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
      passed += 1;
      console.log(`ok   ${name} (${Date.now() - started} ms)`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${name}: ${e.stack ?? e}`);
      await shot(`failed-${name.replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
    } finally {
      await page.close();
    }
  }
  return { passed, failed };
}
