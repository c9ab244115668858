'use strict';
// What the test files share: the addon, scratch stores, and a fixed-clock option set so that
// ids and timestamps (and therefore whole files) are reproducible.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

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

// An assert.throws/rejects validator: an XsError of `code` (XS_ECLOSED: the binding's own, with
// XS_EMISUSE's status) whose message is `message` (a string: exactly; a RegExp: matching).
const xsError = (code, message) => (err) => {
  assert.ok(err instanceof xs.XsError, `${err}`);
  assert.equal(err.code, code);
  assert.equal(err.status, xs.status[code === 'XS_ECLOSED' ? 'XS_EMISUSE' : code]);
  if (message instanceof RegExp) assert.match(err.message, message);
  else if (message !== undefined) assert.equal(err.message, message);
  return true;
};

// Runs the ```js block of the README's section `heading` in a child process, inside an async
// function with `store` (a Store on a fresh root) in scope: the lines it printed, and the ones its
// `// ...` comments show.
function runReadmeExample(t, heading) {
  const dir = path.join(__dirname, '..');
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  const section = readme.split(`\n## ${heading}\n`)[1].split('\n## ')[0];
  const code = section.split('```js\n')[1].split('```')[0];
  const main = `const xs = require(${JSON.stringify(dir)});
const store = new xs.Store(${JSON.stringify(scratch(t))});
(async () => {
${code}
store.close();
})().catch((err) => { console.error(err); process.exit(1); });`;
  const out = execFileSync(process.execPath, ['-e', main], { encoding: 'utf8' });
  return { printed: out.trimEnd().split('\n'), shown: [...code.matchAll(/\/\/ (.*)$/gm)].map((m) => m[1]) };
}

module.exports = { xs, scratch, scratchStore, FIXED, user, assistant, turn, runReadmeExample, xsError };
