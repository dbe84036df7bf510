// The playground page: a CodeMirror 6 editor whose analysis runs in a Web Worker over the
// WebAssembly build of the compiler. The worker's answers drive the squiggles, the problems
// list, the holes panel, hover tooltips and the output pane.
import { EditorView, basicSetup } from 'codemirror';
import { keymap, hoverTooltip } from '@codemirror/view';
import { Prec } from '@codemirror/state';
import { setDiagnostics } from '@codemirror/lint';
import { autocompletion } from '@codemirror/autocomplete';
import { rexLanguage } from './rex-language.js';
import { EXAMPLES } from './examples.js';
import { encodeProgram, decodeProgram } from './url-state.js';
import { AnalysisClient } from './analysis-client.js';
import { toOffset, toPosition } from './positions.js';
import { renderHoles, renderProblems, selectPanel, showStatus } from './panels.js';
import { openMenu } from './menu.js';
import { modelSettings, openModelSettings } from './model-settings.js';

// Keystroke-to-diagnostics latencies in ms, newest last (read by the browser tests).
const timings = [];
const editedAt = new Map();
let lastAnalysis = { diagnostics: [], holes: [] };

let crashes = 0;
const client = new AnalysisClient({
  onAnalysis: showAnalysis,
  onCrash: (message) => {
    crashes += 1;
    showStatus(`analysis crashed (${message}); it restarts on the next edit`);
  },
});

const view = new EditorView({
  parent: document.getElementById('editor'),
  extensions: [
    basicSetup,
    rexLanguage,
    Prec.highest(keymap.of([
      { key: 'Mod-Enter', run: () => { runProgram(); return true; } },
      { key: 'Mod-.', run: () => { openQuickFixes(); return true; } },
    ])),
    hoverTooltip(typeTooltip, { hoverTime: 300 }),
    autocompletion({ override: [completions] }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) textChanged();
    }),
  ],
});

function textChanged() {
  const version = client.update(view.state.doc.toString());
  editedAt.set(version, performance.now());
  scheduleUrlUpdate();
}

function showAnalysis(msg) {
  const doc = view.state.doc;
  lastAnalysis = msg;
  const diagnostics = msg.diagnostics.map((d) => ({
    from: toOffset(doc, d.range.start),
    to: toOffset(doc, d.range.end),
    severity: d.severity,
    source: d.code,
    message: [d.message, ...d.notes].join('\n'),
    actions: d.severity === 'info' ? [] : [QUICK_FIX_ACTION],
  }));
  view.dispatch(setDiagnostics(view.state, diagnostics));
  renderProblems(msg.diagnostics, (d) => jumpTo(d.range.start));
  renderHoles(msg.holes, {
    jumpTo, candidates: holeCandidates, fill: fillHole, fillWithModel, stopModel,
  });
  const started = editedAt.get(msg.version);
  if (started !== undefined) {
    timings.push({ version: msg.version, ms: performance.now() - started, analysisMs: msg.analysisMs });
    editedAt.clear();
  }
  document.body.dataset.analyzedVersion = String(msg.version);
  showStatus(`checked in ${msg.analysisMs.toFixed(1)} ms`);
}

// The button in a squiggle's tooltip: the quick-fix menu at the start of the problem.
const QUICK_FIX_ACTION = {
  name: 'Quick fix…',
  apply(view, from) {
    view.dispatch({ selection: { anchor: from } });
    openQuickFixes();
  },
};

function jumpTo(position) {
  const at = toOffset(view.state.doc, position);
  view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
  view.focus();
}

async function typeTooltip(view, pos) {
  let hover;
  try {
    hover = await client.request('hover', toPosition(view.state.doc, pos));
  } catch {
    return null;
  }
  if (!hover) return null;
  const doc = view.state.doc;
  return {
    pos: toOffset(doc, hover.range.start),
    end: toOffset(doc, hover.range.end),
    above: true,
    create() {
      const dom = document.createElement('div');
      dom.className = 'rex-hover';
      const line = (className, text) => {
        const row = document.createElement('div');
        row.className = className;
        row.textContent = text;
        dom.append(row);
      };
      line('code', hover.code);
      if (hover.expectedType) line('label', `expected: ${hover.expectedType}`);
      for (const note of hover.notes) line('label', note);
      return { dom };
    },
  };
}

const COMPLETION_TYPES = {
  local: 'variable', function: 'function', method: 'method', constructor: 'enum',
  field: 'property', keyword: 'keyword',
};

// Completion from the compiler, in its order (best type fit first): CodeMirror neither
// filters nor re-sorts, and asks again as the word grows.
async function completions(context) {
  if (!context.explicit && !context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*$|\.$/)) return null;
  let found;
  try {
    found = await client.request('completion', toPosition(context.state.doc, context.pos));
  } catch {
    return null;
  }
  if (context.aborted || found.items.length === 0) return null;
  const doc = context.state.doc;
  return {
    from: toOffset(doc, found.range.start),
    to: toOffset(doc, found.range.end),
    filter: false,
    options: found.items.map((item) => ({
      label: item.label,
      type: COMPLETION_TYPES[item.kind],
      detail: item.detail ?? undefined,
    })),
  };
}

function holeCandidates(hole) {
  return client.request('holeCandidates', hole.range.start);
}

// The worker runs the fill loop and sends the model's requests to the configured server.
async function fillWithModel(hole, onProgress) {
  let settings = modelSettings();
  if (!settings.url) {
    settings = await openModelSettings('Set the model server first.');
    if (!settings?.url) throw new Error('no model server set (Model…)');
  }
  return client.request('fillWithModel', { ...hole.range.start, ...settings }, onProgress);
}

function stopModel() {
  client.request('stopModelFill').catch(() => {});
}

function fillHole(hole, replacement) {
  const doc = view.state.doc;
  view.dispatch({
    changes: { from: toOffset(doc, hole.range.start), to: toOffset(doc, hole.range.end), insert: replacement },
  });
}

// Run: the worker evaluates under a step budget; Stop abandons that worker for a fresh one,
// so even a run within budget never holds the page.
let running = false;
const runButton = document.getElementById('run');

async function runProgram() {
  if (running) {
    client.stop('stopped');
    return;
  }
  selectPanel('output');
  const out = document.getElementById('output-text');
  out.classList.remove('failed');
  out.textContent = 'running…';
  running = true;
  runButton.textContent = 'Stop';
  try {
    showRun(out, await client.request('run', {}));
  } catch (e) {
    out.textContent = e.message;
    out.classList.add('failed');
  } finally {
    running = false;
    runButton.textContent = 'Run';
  }
}

function showRun(out, run) {
  if (!run.ok) {
    out.textContent = run.error;
    out.classList.add('failed');
    return;
  }
  const lines = [run.value];
  for (const hole of run.holes) {
    const where = `${hole.range.start.line + 1}:${hole.range.start.character + 1}`;
    const env = hole.env.map((b) => `${b.name} = ${b.value}`).join(', ');
    lines.push(`reached ${hole.name} at ${where}${env ? ` with ${env}` : ''}`);
  }
  if (run.holesReached > run.holes.length) {
    lines.push(`… ${run.holesReached - run.holes.length} more hole evaluations`);
  }
  out.textContent = lines.join('\n');
}

// The quick-fix menu at the cursor: the fixes of the semantic loop step there, best first,
// and a bulk repair that applies the best fixes one after another.
async function openQuickFixes() {
  const doc = view.state.doc;
  const head = view.state.selection.main.head;
  const at = toPosition(doc, head);
  let fixes;
  try {
    fixes = await client.request('quickFixes', at);
  } catch (e) {
    showStatus(e.message);
    return;
  }
  const entries = fixes.map((fix) => ({ label: fix.title, run: () => applyWorkspaceEdit(fix.edit) }));
  entries.push(
    { label: 'Repair: apply the safe fixes around here', run: () => repair(at, 'conservative') },
    { label: 'Repair: also fill holes', run: () => repair(at, 'aggressive') },
  );
  const coords = view.coordsAtPos(head) ?? { left: 40, bottom: 80 };
  openMenu(entries, { x: coords.left, y: coords.bottom + 4 }, fixes.length ? null : 'No quick fix here.');
}

function applyWorkspaceEdit(edit) {
  const doc = view.state.doc;
  const edits = Object.values(edit?.changes ?? {}).flat();
  view.dispatch({
    changes: edits.map((e) => ({
      from: toOffset(doc, e.range.start), to: toOffset(doc, e.range.end), insert: e.newText,
    })),
  });
  view.focus();
}

async function repair(at, strategy) {
  let result;
  try {
    result = await client.request('repair', { ...at, strategy });
  } catch (e) {
    showStatus(e.message);
    return;
  }
  replaceChangedPart(result.updatedText);
  showStatus(`repair applied ${result.appliedCount} fix(es): ${result.stoppedReasonDetail || result.stoppedReason}`);
  view.focus();
}

// Replaces only the part of the text that differs, so the cursor and the undo history stay
// meaningful.
function replaceChangedPart(text) {
  const old = view.state.doc.toString();
  let start = 0;
  while (start < old.length && start < text.length && old[start] === text[start]) start++;
  let end = 0;
  while (end < old.length - start && end < text.length - start &&
    old[old.length - 1 - end] === text[text.length - 1 - end]) end++;
  if (start === old.length && start === text.length) return;
  view.dispatch({ changes: { from: start, to: old.length - end, insert: text.slice(start, text.length - end) } });
}

// --- the program in the URL -------------------------------------------------------------

let urlTimer = null;
function scheduleUrlUpdate() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(async () => {
    const version = client.version;
    const hash = await encodeProgram(view.state.doc.toString());
    if (version !== client.version) return;
    history.replaceState(null, '', hash);
    document.body.dataset.urlVersion = String(version);
  }, 250);
}

function setProgram(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

async function loadFromUrl() {
  const program = await decodeProgram(location.hash);
  if (program instanceof Error) {
    showStatus(program.message);
    return false;
  }
  if (program === null) return false;
  if (program !== view.state.doc.toString()) setProgram(program);
  return true;
}

// --- page wiring ------------------------------------------------------------------------

const examples = document.getElementById('examples');
for (const example of EXAMPLES) {
  examples.append(new Option(example.title, example.id));
}
examples.addEventListener('change', () => {
  const example = EXAMPLES.find((e) => e.id === examples.value);
  if (example) setProgram(example.text);
});
runButton.addEventListener('click', runProgram);
// Ctrl-Enter runs from anywhere on the page (the editor's own binding handles it there).
document.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key === 'Enter' && !event.defaultPrevented) {
    event.preventDefault();
    runProgram();
  }
});
document.getElementById('quick-fix').addEventListener('click', openQuickFixes);
document.getElementById('model-settings-open').addEventListener('click', () => openModelSettings());
document.getElementById('copy-link').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(location.href);
    showStatus('link copied');
  } catch {
    showStatus('copy the address bar: it holds the program');
  }
});
for (const tab of document.querySelectorAll('nav [role=tab]')) {
  tab.addEventListener('click', () => selectPanel(tab.dataset.panel));
}
window.addEventListener('hashchange', loadFromUrl);

if (!(await loadFromUrl())) setProgram(EXAMPLES[0].text);

// For the browser tests: the editor, latencies, and the newest text version sent.
window.rexPlayground = {
  view, timings, setProgram, lastAnalysis: () => lastAnalysis, version: () => client.version,
  crashes: () => crashes,
};
