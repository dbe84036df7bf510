// The page's side of the worker protocol: versioned text updates, request/reply calls, and
// a fresh worker after a crash (a WebAssembly trap cannot be recovered in place).

export class AnalysisClient {
  constructor({ onAnalysis, onCrash }) {
    this.onAnalysis = onAnalysis;
    this.onCrash = onCrash;
    this.nextId = 1;
    this.pending = new Map();
    this.version = 0;
    this.text = '';
    this.crashedVersion = null;
    this.start();
  }

  start() {
    this.worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.receive({ kind: 'crashed', version: this.version, message: event.message });
    };
  }

  receive(msg) {
    if (msg.kind === 'progress') {
      this.pending.get(msg.id)?.onProgress?.(msg);
    } else if (msg.kind === 'analysis') {
      if (msg.version === this.version) this.onAnalysis(msg);
    } else if (msg.kind === 'reply') {
      const call = this.pending.get(msg.id);
      if (msg.error) call?.reject(new Error(msg.error));
      else call?.resolve(msg.result);
      this.pending.delete(msg.id);
    } else if (msg.kind === 'crashed') {
      this.restart(msg);
    }
  }

  restart(msg) {
    this.worker.terminate();
    for (const { reject } of this.pending.values()) reject(new Error(msg.message));
    this.pending.clear();
    this.crashedVersion = this.version;
    this.onCrash(msg.message);
    this.start();
    // The same text would crash the new worker again: wait for the next edit.
  }

  /// Stops whatever the worker is doing (a long run) and starts a fresh one with the
  /// current text; pending requests fail with `reason`.
  stop(reason) {
    this.worker.terminate();
    for (const { reject } of this.pending.values()) reject(new Error(reason));
    this.pending.clear();
    this.start();
    this.update(this.text);
  }

  update(text) {
    this.text = text;
    this.version += 1;
    this.worker.postMessage({ kind: 'update', version: this.version, text });
    return this.version;
  }

  /// Asks the worker something; `onProgress` gets the progress messages of long requests.
  request(kind, params = {}, onProgress = null) {
    if (this.crashedVersion === this.version) {
      return Promise.reject(new Error('the analysis crashed on this text'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ kind, id, ...params });
    });
  }
}
