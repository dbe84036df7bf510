// The model server the playground's "Fill with model" talks to: an OpenAI-compatible
// endpoint (llama.cpp's server, vLLM, SGLang), its model name and kind, an optional API
// key, and the fill loop's sizes (blank: the defaults of `rex fill`). Kept in this
// browser's local storage only, never in the shared URL.

const KEY = 'rex.modelServer';
const TEXTS = ['url', 'model', 'apiKey'];
const NUMBERS = ['samples', 'errorRounds', 'maxTokens'];

/// A count as typed (a whole number, at least 0), or null for the default.
function count(value) {
  const n = Number(value);
  return value !== '' && value !== null && Number.isInteger(n) && n >= 0 ? n : null;
}

export function modelSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') ?? {};
  } catch {
    // unreadable settings are no settings
  }
  const settings = {
    server: ['llamacpp', 'vllm', 'sglang'].includes(saved.server) ? saved.server : 'llamacpp',
  };
  for (const name of TEXTS) settings[name] = typeof saved[name] === 'string' ? saved[name] : '';
  for (const name of NUMBERS) settings[name] = count(saved[name]);
  return settings;
}

/// Opens the settings dialog; resolves with the settings when saved, null when cancelled.
export function openModelSettings(note = '') {
  const dialog = document.getElementById('model-settings');
  const form = dialog.querySelector('form');
  const current = modelSettings();
  for (const name of [...TEXTS, 'server']) form.elements[name].value = current[name];
  for (const name of NUMBERS) form.elements[name].value = current[name] ?? '';
  dialog.querySelector('.note').textContent = note;
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      if (dialog.returnValue !== 'save') {
        resolve(null);
        return;
      }
      const settings = { server: form.elements.server.value };
      for (const name of TEXTS) settings[name] = form.elements[name].value.trim();
      for (const name of NUMBERS) settings[name] = count(form.elements[name].value.trim());
      localStorage.setItem(KEY, JSON.stringify(settings));
      resolve(settings);
    }, { once: true });
  });
}
