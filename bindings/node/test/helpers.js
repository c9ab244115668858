'use strict';
// What the test files share: the addon, scratch stores, and a fixed-clock option set so that
// ids and timestamps (and therefore whole files) are reproducible.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const xs = require('..');

// A fresh directory for one test, removed by the returned function.
function scratch(t, prefix = 'xsn-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A store in a fresh directory (StoreOptions `options`); closed (with every session given to
// `track`) after the test.
function scratchStore(t, options) {
  const root = scratch(t);
  const store = new xs.Store(root, options);
  const sessions = [];
  t.after(() => {
    for (const s of sessions) s.close();
    store.close();
  });
  return { root, store, track: (s) => (sessions.push(s), s) };
}

const FIXED = Object.freeze({ clockStartMs: 1767225600000, clockStepMs: 1000, idSeed: 7 });

const user = (text) => ({ role: 'user', content: text });
const assistant = (text) => ({
  role: 'assistant',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text }],
});

// Resolves after the event loop has gone round (finalizers queued by a GC run there).
const turn = () => new Promise((resolve) => setImmediate(resolve));

module.exports = { xs, scratch, scratchStore, FIXED, user, assistant, turn };
