// The analysis worker: owns the one WebAssembly Playground (one salsa database), so typing
// never waits for the compiler. Text updates apply at once; analysis of the newest text
// runs when the message queue is drained, so a burst of keystrokes costs one analysis.
import init, { Playground } from '../build/pkg/rex_playground.js';

const ready = init({ module_or_path: new URL('rex_playground_bg.wasm', import.meta.url) })
  .then(() => new Playground());

let latestVersion = -1;
let analysisScheduled = false;

function analyzeLatest(playground) {
  analysisScheduled = false;
  const started = performance.now();
  const result = JSON.parse(playground.analyze());
  self.postMessage({
    kind: 'analysis',
    version: latestVersion,
    analysisMs: performance.now() - started,
    ...result,
  });
}

// Runs a `rex.*` command of the semantic-assist contract: `{result}` or `{error}`.
function execute(playground, command, args) {
  return JSON.parse(playground.execute(command, JSON.stringify({ uri: playground.documentUri(), ...args })));
}

// The semantic loop step at a position, or the error that prevented it.
function step(playground, msg) {
  return execute(playground, 'rex.semanticLoopStep', { line: msg.line, character: msg.character });
}

// A request asks the Playground something about the current text: `{result}` or `{error}`.
function answer(playground, msg) {
  switch (msg.kind) {
    case 'hover':
      return { result: JSON.parse(playground.hover(msg.line, msg.character)) };
    case 'completion':
      return { result: JSON.parse(playground.completion(msg.line, msg.character)) };
    case 'holeCandidates': {
      const { result, error } = step(playground, msg);
      if (error) return { error };
      return {
        result: result.holeFillCandidates.map((c) => ({ replacement: c.replacement, detail: c.name })),
      };
    }
    case 'quickFixes': {
      const { result, error } = step(playground, msg);
      return error ? { error } : { result: result.quickFixes };
    }
    case 'run':
      return { result: JSON.parse(playground.run()) };
    case 'repair':
      return execute(playground, 'rex.semanticLoopApplyBestQuickFixesAt', {
        line: msg.line, character: msg.character, strategy: msg.strategy, dryRun: false,
      });
    default:
      return { error: `this build cannot answer \`${msg.kind}\` yet` };
  }
}

// "Fill with model": the fill loop runs in the WebAssembly module (grammar, type oracle,
// verification, ranking); only its completion requests go out, all of a step at once.
// One fill at a time; Stop aborts the requests in flight and drops the loop.
// As `rex fill`'s default: a CPU server runs one request at a time and queues the others.
const MODEL_REQUEST_TIMEOUT_MS = 300000;
let modelFill = null;

async function fillWithModel(playground, msg) {
  modelFill?.controller.abort();
  const fill = { controller: new AbortController() };
  modelFill = fill;
  const started = performance.now();
  const headers = { 'Content-Type': 'application/json' };
  if (msg.apiKey) headers.Authorization = `Bearer ${msg.apiKey}`;
  let answer = JSON.parse(playground.fillStart(JSON.stringify({
    line: msg.line, character: msg.character, url: msg.url, model: msg.model, server: msg.server,
    samples: msg.samples, maxTokens: msg.maxTokens, errorRounds: msg.errorRounds,
  })));
  while (answer.result?.requests) {
    const { endpoint, bodies, phase, round } = answer.result.requests;
    let done = 0;
    const progress = () => self.postMessage({
      kind: 'progress', id: msg.id, phase, round, done, total: bodies.length,
    });
    progress();
    const stepStarted = performance.now();
    const replies = await Promise.all(bodies.map(async (body) => {
      try {
        const response = await fetch(endpoint, {
          method: 'POST', headers, body: JSON.stringify(body),
          signal: AbortSignal.any([fill.controller.signal, AbortSignal.timeout(MODEL_REQUEST_TIMEOUT_MS)]),
        });
        return { status: response.status, body: await response.text() };
      } catch (e) {
        return { error: e.name === 'TimeoutError' ? 'no reply in time' : String(e.message ?? e) };
      } finally {
        done += 1;
        progress();
      }
    }));
    if (fill.controller.signal.aborted || modelFill !== fill) return { error: 'stopped' };
    answer = JSON.parse(playground.fillFeed(JSON.stringify({
      replies,
      seconds: (performance.now() - started) / 1000,
      stepSeconds: (performance.now() - stepStarted) / 1000,
    })));
  }
  if (modelFill === fill) modelFill = null;
  return answer.error ? { error: answer.error } : { result: answer.result.done };
}

function stopModelFill(playground) {
  modelFill?.controller.abort();
  modelFill = null;
  playground.fillCancel();
}

self.onmessage = async (event) => {
  const msg = event.data;
  let playground;
  try {
    playground = await ready;
  } catch (e) {
    self.postMessage({ kind: 'crashed', message: `cannot start the compiler: ${e.message}` });
    return;
  }
  try {
    if (msg.kind === 'update') {
      playground.setText(msg.text);
      latestVersion = msg.version;
      if (!analysisScheduled) {
        analysisScheduled = true;
        setTimeout(() => {
          try {
            analyzeLatest(playground);
          } catch (e) {
            crashed(e);
          }
        }, 0);
      }
      return;
    }
    if (msg.kind === 'fillWithModel') {
      const outcome = await fillWithModel(playground, msg);
      self.postMessage({ kind: 'reply', id: msg.id, ...outcome });
      return;
    }
    if (msg.kind === 'stopModelFill') {
      stopModelFill(playground);
      self.postMessage({ kind: 'reply', id: msg.id, result: null });
      return;
    }
    self.postMessage({ kind: 'reply', id: msg.id, ...answer(playground, msg) });
  } catch (e) {
    crashed(e, msg.id);
  }
};

// A trap leaves the WebAssembly instance unusable; the page starts a fresh worker.
function crashed(error, id) {
  self.postMessage({ kind: 'crashed', id, version: latestVersion, message: String(error) });
  self.close();
}
