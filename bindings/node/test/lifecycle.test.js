'use strict';
// Handle lifetimes: close twice, use after close, close while async work is in flight, and the
// GC finalizer (a forgotten session releases its writer lock once collected).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const v8 = require('node:v8');
const vm = require('node:vm');
const { xs, scratch, scratchStore, FIXED, user, assistant, turn } = require('./helpers');

// gc() without needing --expose-gc on the command line (ctest runs plain `node --test`).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

// GC, then let the event loop run the finalizers the GC queued; repeated because one pass may
// only find the wrapper unreachable.
async function collect() {
  for (let i = 0; i < 4; i++) {
    gc();
    await turn();
  }
}

const isClosed = (code, what) => (err) => {
  assert.ok(err instanceof Error);
  assert.equal(err.code, code);
  assert.equal(err.message, `the ${what} is closed`);
  assert.equal(err.status, xs.status.XS_EMISUSE);
  return true;
};

function writtenSession(store, opts = {}) {
  const s = store.create('/work/project', { ...FIXED, ...opts });
  s.appendMessage(user('hello'));
  s.appendMessage(assistant('hi there')); // the first assistant message writes the file
  return s;
}

test('close() twice is harmless, and every later use throws XS_ECLOSED', async (t) => {
  const { store } = scratchStore(t);
  const s = writtenSession(store);
  assert.equal(s.closed, false);
  s.close();
  assert.equal(s.closed, true);
  s.close();
  assert.equal(s.closed, true);
  assert.throws(() => s.leaf(), isClosed('XS_ECLOSED', 'session'));
  assert.throws(() => s.appendMessage(user('again')), isClosed('XS_ECLOSED', 'session'));
  assert.throws(() => s.buildContextSync(), isClosed('XS_ECLOSED', 'session'));
  // The Promise forms reject instead of throwing.
  const p = s.buildContext();
  assert.ok(p instanceof Promise);
  await assert.rejects(p, isClosed('XS_ECLOSED', 'session'));
  await assert.rejects(s.flush(), isClosed('XS_ECLOSED', 'session'));
});

test('a closed store throws XS_ECLOSED; its sessions keep working', async (t) => {
  const root = scratch(t);
  const store = new xs.Store(root);
  const s = writtenSession(store);
  store.close();
  store.close();
  assert.equal(store.closed, true);
  assert.throws(() => store.create('/x'), isClosed('XS_ECLOSED', 'store'));
  await assert.rejects(store.open('anything'), isClosed('XS_ECLOSED', 'store'));
  // The C library keeps the store's internals alive for its sessions.
  const id = s.appendMessage(user('still here'));
  assert.equal(s.leaf(), id);
  assert.equal(s.buildContextSync().messages.length, 3);
  s.close();
});

test('close() releases the writer lock at once when nothing is in flight', (t) => {
  const { store, track } = scratchStore(t);
  const s = writtenSession(store);
  const file = s.info().path;
  assert.throws(() => store.openSync(file), { code: 'XS_ELOCKED' });
  s.close();
  const again = track(store.openSync(file));
  assert.equal(again.info().readOnly, false);
});

test('close() during async work defers the free to the last completion', async (t) => {
  const { store, track } = scratchStore(t);
  const s = writtenSession(store);
  const file = s.info().path;
  const expected = s.buildContextSync({ raw: true });
  const pending = [s.buildContext(null, { raw: true }), s.entries({ raw: true }), s.flush()];
  s.close();
  assert.equal(s.closed, true);
  // New calls are refused at once ...
  assert.throws(() => s.leaf(), { code: 'XS_ECLOSED' });
  // ... but the C handle is still alive (and still holds the writer lock): no completion could
  // have run yet, since this code has not yielded to the event loop.
  assert.throws(() => store.openSync(file), { code: 'XS_ELOCKED' });
  const [context, entries, flushed] = await Promise.all(pending);
  assert.equal(context, expected);
  assert.equal(JSON.parse(entries).length, 2);
  assert.equal(flushed, undefined);
  // The last completion freed the handle: the lock is free.
  const reopened = track(store.openSync(file));
  assert.equal(reopened.buildContextSync({ raw: true }), expected);
});

test('a session that is garbage collected without close() is closed by its finalizer', async (t) => {
  const { store, track } = scratchStore(t);
  let file;
  (() => {
    const s = writtenSession(store);
    file = s.info().path;
  })();
  assert.throws(() => store.openSync(file), { code: 'XS_ELOCKED' }); // the forgotten handle holds it
  await collect();
  const s = track(store.openSync(file));
  assert.equal(s.buildContextSync().messages.length, 2);
});

test('a session with async work in flight is not collected before the work completes', async (t) => {
  const { store, track } = scratchStore(t);
  let file;
  const context = (() => {
    const s = writtenSession(store);
    file = s.info().path;
    return s.buildContext(); // the only reference left to s is the work's
  })();
  gc();
  const c = await context;
  assert.deepEqual(c.messages.map((m) => m.role), ['user', 'assistant']);
  await collect();
  const s = track(store.openSync(file));
  assert.equal(s.leaf(), c.leafId);
});

test('a store collected before its sessions leaves them usable', async (t) => {
  const root = scratch(t);
  let s = (() => writtenSession(new xs.Store(root)))();
  await collect();
  s.appendMessage(user('after the store is gone'));
  assert.equal(s.buildContextSync().messages.length, 3);
  s.close();
  s = null;
});

test('Session objects only come from the library', (t) => {
  const { store, track } = scratchStore(t);
  assert.throws(() => new xs.Session(), {
    name: 'TypeError',
    message: 'Session objects are made by Store.create/open/continueRecent/forkFrom and Session.fork/createBranched, not by new Session()',
  });
  assert.throws(() => xs.Store('/tmp'), { name: 'TypeError' });
  const s = track(writtenSession(store));
  assert.ok(s instanceof xs.Session);
  const fork = track(s.forkSync());
  assert.ok(fork instanceof xs.Session);
  assert.notEqual(fork.info().id, s.info().id);
  assert.equal(fork.info().parentSession, s.info().id);
});

test('a worker thread that exits without closing its session releases it (per-thread addon state)', async (t) => {
  const { Worker } = require('node:worker_threads');
  const { root, store, track } = scratchStore(t);
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    const xs = require(workerData.pkg);
    const store = new xs.Store(workerData.root);
    const s = store.create('/from/worker', { noDefer: true });
    s.appendMessage({ role: 'user', content: 'written in a worker' });
    s.buildContext().then((c) => parentPort.postMessage({ file: s.info().path, leaf: c.leafId }));
    setInterval(() => {}, 1000); // stay alive (holding the session) until terminated
  `, { eval: true, workerData: { pkg: require.resolve('..'), root } });
  const { file, leaf } = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  assert.throws(() => store.openSync(file), { code: 'XS_ELOCKED' }); // the worker's session holds it
  await worker.terminate();
  const s = track(store.openSync(file)); // the worker's environment teardown closed it
  assert.equal(s.leaf(), leaf);
  assert.equal(s.buildContextSync().messages[0].content, 'written in a worker');
});
