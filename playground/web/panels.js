// The side panels: problems list, holes panel with candidates, tab switching, status line.

const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
};

const where = (pos) => el('span', { className: 'where' }, `${pos.line + 1}:${pos.character + 1}`);

export function showStatus(text) {
  document.getElementById('status').textContent = text;
}

export function selectPanel(name) {
  for (const tab of document.querySelectorAll('nav [role=tab]')) {
    tab.setAttribute('aria-selected', String(tab.dataset.panel === name));
  }
  for (const panel of document.querySelectorAll('aside [role=tabpanel]')) {
    panel.hidden = panel.id !== name;
  }
}

export function renderProblems(diagnostics, onSelect) {
  const list = document.querySelector('#problems .list');
  const items = diagnostics.map((d) => {
    const item = el('li', { className: `sev-${d.severity}` }, where(d.range.start),
      `${d.code} ${d.message}`);
    item.addEventListener('click', () => onSelect(d));
    return item;
  });
  list.replaceChildren(...(items.length ? items : [el('li', { className: 'empty' }, 'No problems.')]));
  document.getElementById('problem-count').textContent =
    String(diagnostics.filter((d) => d.severity !== 'info').length);
}

let shownHoles = '';
let selectedHole = -1;

export function renderHoles(holes, actions) {
  document.getElementById('hole-count').textContent = String(holes.length);
  const key = JSON.stringify(holes);
  if (key === shownHoles) return;
  shownHoles = key;
  selectedHole = -1;
  document.getElementById('hole-detail').replaceChildren();
  const list = document.querySelector('#holes .list');
  const items = holes.map((hole, index) => {
    const item = el('li', {}, where(hole.range.start), `${hole.name} : ${hole.expectedType}`);
    item.dataset.hole = String(index);
    item.addEventListener('click', () => selectHole(holes, index, actions));
    return item;
  });
  list.replaceChildren(...(items.length ? items : [el('li', { className: 'empty' }, 'No holes.')]));
}

async function selectHole(holes, index, actions) {
  const hole = holes[index];
  selectedHole = index;
  for (const item of document.querySelectorAll('#holes .list li')) {
    item.classList.toggle('selected', item.dataset.hole === String(index));
  }
  actions.jumpTo(hole.range.start);
  const detail = document.getElementById('hole-detail');
  const candidateList = el('div', { className: 'candidates' }, el('span', { className: 'empty' }, 'finding candidates…'));
  const scope = hole.context.map((b) => el('div', { className: 'binding' }, `${b.name} : ${b.type}`));
  detail.replaceChildren(
    el('h2', {}, `${hole.name} expects ${hole.expectedType}`),
    el('h2', {}, 'Candidates'), candidateList,
    el('h2', {}, 'Model'), modelSection(hole, index, actions),
    el('h2', {}, 'In scope'), ...(scope.length ? scope : [el('div', { className: 'empty' }, 'nothing')]),
  );
  let candidates;
  try {
    candidates = await actions.candidates(hole);
  } catch (e) {
    candidateList.replaceChildren(el('span', { className: 'empty' }, e.message));
    return;
  }
  if (selectedHole !== index) return;
  const buttons = candidates.map((c) => {
    const button = el('button', { className: 'candidate', title: c.detail ?? '' }, c.replacement);
    button.addEventListener('click', () => actions.fill(hole, c.replacement));
    return button;
  });
  candidateList.replaceChildren(...(buttons.length ? buttons : [el('span', { className: 'empty' }, 'no candidate type-checks here')]));
}

// "Fill with model": the button turns into Stop while the model works; the fills that come
// back (each verified by the compiler in the worker) are buttons that write themselves in.
function modelSection(hole, index, actions) {
  const button = el('button', { className: 'fill-with-model' }, 'Fill with model');
  const status = el('span', { className: 'model-status' });
  const fills = el('div', { className: 'model-fills' });
  let running = false;
  button.addEventListener('click', async () => {
    if (running) {
      actions.stopModel();
      return;
    }
    running = true;
    button.textContent = 'Stop';
    status.classList.remove('failed');
    status.textContent = 'asking the model…';
    fills.replaceChildren();
    try {
      const result = await actions.fillWithModel(hole, (p) => {
        const what = p.phase === 'scores' ? 'scoring candidates' : `round ${p.round + 1}: samples`;
        status.textContent = `${what} ${p.done}/${p.total}`;
      });
      if (selectedHole !== index) return;
      status.textContent = result.fills.length
        ? `${result.fills.length} fill(s) that type-check, ${result.stats.tokens} tokens in ${result.stats.seconds.toFixed(1)} s`
        : 'no well-typed fill found';
      fills.replaceChildren(...result.fills.map((f) => {
        const b = el('button', { className: 'model-fill', title: `log-probability ${f.logprob.toFixed(2)}` },
          f.text, el('span', { className: 'source' }, f.source));
        b.dataset.text = f.text;
        // Parenthesised when it has spaces, as `rex fill --write` writes it.
        b.addEventListener('click', () => actions.fill(hole, /\s/.test(f.text) ? `(${f.text})` : f.text));
        return b;
      }));
    } catch (e) {
      status.classList.add('failed');
      status.textContent = e.message;
    } finally {
      running = false;
      button.textContent = 'Fill with model';
    }
  });
  return el('div', {}, el('div', { className: 'model-row' }, button, status), fills);
}
