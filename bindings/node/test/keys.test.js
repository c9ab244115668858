'use strict';
// store.keys, the keyed session store (docs/keyed-store.md): its Map-like reads, its writes in
// both forms, update's callback (keep, set, remove, cancel by throwing, calls back into its own
// store) and the Promise form's callback, which runs on the JS thread while a worker holds the
// store and the document's lock.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { xs, scratch, scratchStore } = require('./helpers');

const docOf = (root) => path.join(root, 'sessions.json');
const bytes = (file) => fs.readFileSync(file, 'utf8');

test('put, get, list, patch and delete round trip; absence is null and false', async (t) => {
  const { root, store } = scratchStore(t);
  const keys = store.keys;
  assert.ok(keys instanceof xs.Keys);
  assert.equal(store.keys, keys);
  assert.equal(keys.store, store);
  assert.equal(keys.getSync('agent:main'), null);
  assert.equal(await keys.get('agent:main', { raw: true }), null);
  assert.deepEqual(keys.listSync(), []);

  keys.putSync('agent:main', { sessionId: 'a1', title: 'Main', inputTokens: 10 });
  await keys.put('cron:nightly', '{"sessionId":"c1","cost":1.0e3}'); // JSON text: token for token
  keys.putSync('agent:other', Buffer.from('{"sessionId":"o1"}'));
  assert.equal(bytes(docOf(root)), [
    '{',
    '  "agent:main": {',
    '    "sessionId": "a1",',
    '    "title": "Main",',
    '    "inputTokens": 10',
    '  },',
    '  "cron:nightly": {',
    '    "sessionId": "c1",',
    '    "cost": 1.0e3',
    '  },',
    '  "agent:other": {',
    '    "sessionId": "o1"',
    '  }',
    '}',
    '',
  ].join('\n'));
  assert.deepEqual(keys.getSync('agent:main'), { sessionId: 'a1', title: 'Main', inputTokens: 10 });
  assert.equal(await keys.get('cron:nightly', { raw: true }), '{"sessionId":"c1","cost":1.0e3}');
  assert.deepEqual(await keys.list('agent:'), [
    { key: 'agent:main', record: { sessionId: 'a1', title: 'Main', inputTokens: 10 } },
    { key: 'agent:other', record: { sessionId: 'o1' } },
  ]);
  assert.equal(keys.listSync('cron', { raw: true }), '[{"key":"cron:nightly","record":{"sessionId":"c1","cost":1.0e3}}]');
  assert.equal(keys.listSync({ raw: true }).length, keys.listSync(null, { raw: true }).length);

  // A merge patch: null removes, new fields go last; a missing record starts as {}.
  await keys.patch('agent:main', { title: null, outputTokens: 5 });
  assert.equal(keys.getSync('agent:main', { raw: true }), '{"sessionId":"a1","inputTokens":10,"outputTokens":5}');
  keys.patchSync('hook:new', '{"sessionId":"h1"}');
  assert.deepEqual(keys.getSync('hook:new'), { sessionId: 'h1' });

  assert.equal(keys.deleteSync('agent:other'), true);
  assert.equal(await keys.delete('agent:other'), false);
  assert.equal(keys.getSync('agent:other'), null);
  assert.deepEqual(keys.listSync().map((r) => r.key), ['agent:main', 'cron:nightly', 'hook:new']);
});

for (const form of ['sync', 'async']) {
  const update = (keys, ...args) => (form === 'sync' ? keys.updateSync(...args) : keys.update(...args));

  test(`${form} update: set, keep, remove, and what the callback sees`, async (t) => {
    const { root, store } = scratchStore(t);
    const keys = store.keys;
    const seen = [];
    await update(keys, 'k', (current) => (seen.push(current), { sessionId: 's', n: 1 }));
    await update(keys, 'k', (current) => (seen.push(current), { ...current, n: current.n + 1 }));
    await update(keys, 'k', (current) => (seen.push(current), '{"sessionId":"s","n":3}'), { raw: true });
    assert.deepEqual(seen, [null, { sessionId: 's', n: 1 }, '{"sessionId":"s","n":2}']);
    assert.equal(keys.getSync('k', { raw: true }), '{"sessionId":"s","n":3}');

    // undefined keeps the record: nothing is written (the file is not even replaced).
    const before = fs.statSync(docOf(root)).ino;
    assert.equal(await update(keys, 'k', () => undefined), undefined);
    assert.equal(fs.statSync(docOf(root)).ino, before);

    await update(keys, 'k', () => null);
    assert.equal(keys.getSync('k'), null);
    assert.equal(bytes(docOf(root)), '{}\n');
    await update(keys, 'never', (current) => (assert.equal(current, null), null)); // none stays none
    assert.equal(bytes(docOf(root)), '{}\n');
  });

  test(`${form} update: a throwing callback cancels and its error comes back unchanged`, async (t) => {
    const { root, store } = scratchStore(t);
    const keys = store.keys;
    keys.putSync('k', { sessionId: 's' });
    const before = bytes(docOf(root));
    const mine = new RangeError('not today');
    await assert.rejects(async () => update(keys, 'k', () => { throw mine; }), (err) => err === mine);
    // A result that is not JSON cancels with JSON.stringify's own error.
    await assert.rejects(async () => update(keys, 'k', () => ({ sessionId: 's', n: 1n })),
                         { name: 'TypeError', message: /BigInt/ });
    // A Promise is not a record: the callback runs while the document is locked.
    await assert.rejects(async () => update(keys, 'k', async () => ({ sessionId: 'later' })),
                         { code: 'ERR_INVALID_ARG_TYPE', message: /returned a Promise/ });
    // A record the library refuses: its error, as for put.
    await assert.rejects(async () => update(keys, 'k', () => ({ n: 1 })), { code: 'XS_EINVAL' });
    assert.equal(bytes(docOf(root)), before);
  });

  test(`${form} update: a callback calling its own store gets XS_EMISUSE, not a deadlock`, async (t) => {
    const { root, store } = scratchStore(t);
    const keys = store.keys;
    keys.putSync('k', { sessionId: 's', n: 1 });
    const errors = [];
    const pending = [];
    await update(keys, 'k', (current) => {
      for (const call of [() => keys.getSync('k'), () => keys.putSync('other', { sessionId: 'o' }),
                          () => store.listSync(), () => keys.updateSync('k', () => null)]) {
        try {
          call();
        } catch (err) {
          errors.push(err.code);
        }
      }
      for (const p of [keys.get('k'), store.blobPut('x')]) pending.push(p.then(() => null, (err) => err)); // rejected alike
      return { ...current, n: current.n + 1 };
    });
    assert.deepEqual(errors, ['XS_EMISUSE', 'XS_EMISUSE', 'XS_EMISUSE', 'XS_EMISUSE']);
    for (const err of await Promise.all(pending)) {
      assert.equal(err.code, 'XS_EMISUSE');
      assert.match(err.message, /may not call its own store/);
    }
    assert.deepEqual(keys.getSync('k'), { sessionId: 's', n: 2 });
    assert.equal(bytes(docOf(root)).includes('other'), false);
    // Another store on the same root is another handle: it may read (readers take no lock).
    const other = new xs.Store(root);
    t.after(() => other.close());
    await update(keys, 'k', (current) => (assert.deepEqual(other.keys.getSync('k'), current), undefined));
  });

  test(`${form} update: the callback may close its store; the update still completes`, async (t) => {
    const { root, store } = scratchStore(t);
    await update(store.keys, 'k', () => (store.close(), { sessionId: 'closed-meanwhile' }));
    assert.equal(store.closed, true);
    assert.throws(() => store.keys.getSync('k'), { code: 'XS_ECLOSED' });
    const again = new xs.Store(root);
    t.after(() => again.close());
    assert.deepEqual(again.keys.getSync('k'), { sessionId: 'closed-meanwhile' });
  });
}

test('update (Promise form) runs its callback later, on the JS thread, while a worker holds the lock', async (t) => {
  const { root, store } = scratchStore(t);
  const keys = store.keys;
  keys.putSync('k', { sessionId: 's', n: 0 });
  const heldByAnother = () => {
    const r = spawnSync('flock', ['--nonblock', `${docOf(root)}.lock`, 'true']);
    assert.ok(r.status === 0 || r.status === 1, `flock: ${r.error || r.stderr}`);
    return r.status === 1;
  };
  let ran = false;
  const done = keys.update('k', (current) => {
    ran = true;
    // The worker holds the document's lock while it waits for this answer: another process
    // cannot take it now (flock(1) from util-linux, which every Debian has).
    assert.equal(heldByAnother(), true);
    return { ...current, n: 1 };
  });
  assert.equal(ran, false); // queued: the callback cannot have run on this synchronous path
  await done;
  assert.equal(ran, true);
  assert.equal(heldByAnother(), false);
  assert.deepEqual(keys.getSync('k'), { sessionId: 's', n: 1 });
});

test('a sync call on the store while an update Promise waits for its callback answers it', async (t) => {
  const { store } = scratchStore(t);
  const keys = store.keys;
  keys.putSync('k', { sessionId: 's', n: 0 });
  // The worker takes the store and asks for the callback; a sync call made then waits for the
  // worker, which waits for this thread: the waiting call runs the callback itself. (Made before
  // the worker started, the sync call simply goes first: both orders must be whole.)
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let answeredByTheWait = 0;
  for (let attempt = 1; attempt <= 5 && answeredByTheWait === 0; attempt++) {
    const order = [];
    const done = keys.update('k', (current) => (order.push('callback'), { ...current, n: current.n + 1 }));
    Atomics.wait(pause, 0, 0, 100 * attempt); // blocks this thread: the worker gets going
    order.push(`read n=${keys.getSync('k').n}`);
    await done;
    const n = keys.getSync('k').n;
    if (order[0] === 'callback') answeredByTheWait++;
    assert.deepEqual(order, order[0] === 'callback' ? ['callback', `read n=${n}`] : [`read n=${n - 1}`, 'callback']);
  }
  assert.equal(answeredByTheWait, 1);
  // Many at once, with sync writes in between: none is lost.
  const before = keys.getSync('k').n;
  const jobs = [];
  for (let i = 0; i < 40; i++) {
    jobs.push(keys.update('k', (current) => ({ ...current, n: current.n + 1 })));
    if (i % 10 === 0) keys.patchSync('k', { [`sync${i}`]: true });
  }
  await Promise.all(jobs);
  const final = keys.getSync('k');
  assert.equal(final.n, before + 40);
  assert.deepEqual(Object.keys(final).filter((f) => f.startsWith('sync')), ['sync0', 'sync10', 'sync20', 'sync30']);
});

test('a sync write through another store while an update Promise waits for its callback', async (t) => {
  const { root, store } = scratchStore(t);
  const other = new xs.Store(root);
  const elsewhere = new xs.Store(scratch(t));
  t.after(() => (other.close(), elsewhere.close()));
  store.keys.putSync('k', { sessionId: 's', n: 0 });
  // The worker holds the document's lock while it waits for this thread. A write through another
  // handle waits at the binding's documents gate, answering the callback, instead of waiting in
  // the library for that lock (10 s, then XS_ELOCKED).
  const done = store.keys.update('k', (current) => {
    elsewhere.keys.putSync('k', { sessionId: 'e' }); // another document: no wait at all
    return { ...current, n: current.n + 1 };
  });
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200); // the worker gets going
  const started = Date.now();
  other.keys.patchSync('k', { patched: true });
  assert.ok(Date.now() - started < 5000, `the write waited ${Date.now() - started} ms`);
  await done;
  assert.deepEqual(other.keys.getSync('k'), { sessionId: 's', n: 1, patched: true });
  assert.deepEqual(elsewhere.keys.getSync('k'), { sessionId: 'e' });
});

test('concurrent updates through two stores on one document lose nothing', async (t) => {
  const { root, store } = scratchStore(t);
  const second = new xs.Store(root);
  t.after(() => second.close());
  const bump = (cur) => ({ sessionId: 's', n: (cur ? cur.n : 0) + 1 });
  const jobs = [];
  for (let i = 0; i < 30; i++) {
    jobs.push((i % 2 ? store : second).keys.update('shared', bump));
    if (i % 5 === 0) (i % 2 ? second : store).keys.updateSync('shared', bump); // sync, the other handle
  }
  await Promise.all(jobs);
  assert.deepEqual(store.keys.getSync('shared'), { sessionId: 's', n: 36 });
});

test('keysPath puts the document elsewhere', async (t) => {
  const root = scratch(t);
  const elsewhere = path.join(scratch(t), 'gateway', 'sessions.json');
  const store = new xs.Store(root, { keysPath: elsewhere });
  t.after(() => store.close());
  await store.keys.put('agent:main', { sessionId: 'a1' });
  assert.equal(bytes(elsewhere), '{\n  "agent:main": {\n    "sessionId": "a1"\n  }\n}\n');
  assert.equal(fs.existsSync(docOf(root)), false);
  const plain = new xs.Store(root, { keysPath: null }); // null: <root>/sessions.json
  t.after(() => plain.close());
  assert.equal(plain.keys.getSync('agent:main'), null);
  assert.throws(() => new xs.Store(root, { keysPath: 5 }),
                { name: 'TypeError', message: 'Store.constructor: keysPath must be a string or null (got number)' });
});

test('bad keys and arguments', async (t) => {
  const { root, store } = scratchStore(t);
  const keys = store.keys;
  keys.putSync('ok', { sessionId: 's' });
  const before = bytes(docOf(root));
  for (const [key, message] of [['a/b', "a session key may not hold '/' or '\\'"], ['a\\b', "a session key may not hold '/' or '\\'"],
                                ['', 'a session key is 1-256 bytes'], ['x'.repeat(257), 'a session key is 1-256 bytes'],
                                ['tab\there', 'a session key must be printable (no control characters)']]) {
    const invalid = { code: 'XS_EINVAL', status: xs.status.XS_EINVAL, message };
    assert.throws(() => keys.putSync(key, { sessionId: 's' }), invalid);
    await assert.rejects(keys.patch(key, { title: 't' }), invalid);
    assert.throws(() => keys.deleteSync(key), invalid);
    let called = false;
    await assert.rejects(keys.update(key, () => { called = true; }), invalid);
    assert.equal(called, false);
    assert.throws(() => keys.getSync(key), invalid); // reads check keys too (docs/keyed-store.md#keys)
  }
  assert.equal(bytes(docOf(root)), before);
  assert.throws(() => keys.getSync('a\0b'), { name: 'TypeError', message: 'Keys.get: key must not contain NUL characters' });
  assert.throws(() => keys.updateSync('k', 'not a function'), { name: 'TypeError', message: 'Keys.update: fn must be a function' });
  await assert.rejects(keys.update('k'), { name: 'TypeError', message: 'Keys.update: fn must be a function' });
  assert.throws(() => keys.putSync('k'), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
  assert.throws(() => keys.getSync('k', { rawr: true }), { message: "Keys.get: unknown key 'rawr' in options" });
  assert.throws(() => new xs.Keys(store), { name: 'TypeError', message: /made by the Store/ });
  assert.throws(() => xs.Keys.prototype.getSync.call(store, 'k'), { name: 'TypeError' });
  store.close();
  assert.throws(() => keys.getSync('ok'), { code: 'XS_ECLOSED', message: 'the store is closed' });
  await assert.rejects(keys.update('ok', () => null), { code: 'XS_ECLOSED' });
});

test("the README's keyed store example runs and leaves the document it describes", async (t) => {
  const root = scratch(t);
  const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
  const code = readme.split('## Keyed store')[1].split('```js\n')[1].split('```')[0];
  const results = [];
  // A line ending in `// <value>` is an expression whose value is checked (the comment's is below).
  const body = code.replace(/^(.*?);\s*\/\/ (?:[[{]|null)/gm, (line, expr) => `results.push(${expr}); //`);
  const AsyncFunction = (async () => {}).constructor;
  const run = new AsyncFunction('require', 'root', 'results', body.replace("require('xsession')", "require('..')"));
  await run((m) => (m === '..' ? xs : require(m)), root, results);
  assert.deepEqual(results, [
    { sessionId: 'a1b2c3d4', inputTokens: 812, updatedAt: 1767225600000 },
    [{ key: 'agent:main', record: { sessionId: 'a1b2c3d4', inputTokens: 812, updatedAt: 1767225600000 } }],
    null,
  ]);
});
