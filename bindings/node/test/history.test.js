'use strict';
// The prompt history (History, from Store.openHistory): add, flush, search and recent with exact
// results, the library's refusals as exact statuses and messages, close, the Promise forms, and
// the typed results against their raw JSON and their declared types (tsc).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { xs, scratch, scratchStore, runReadmeExample, xsError } = require('./helpers');
const { record, checkRecordedTypes } = require('./typed_outputs');

// A history of the scratch store, closed after the test.
function scratchHistory(t, options) {
  const { root, store } = scratchStore(t);
  const history = store.openHistorySync(options);
  t.after(() => history.close());
  return { root, store, history };
}

test('add, flush, then recent and search find the prompts, with the snippet markers', async (t) => {
  const { root, history } = scratchHistory(t);
  history.add('deploy the staging server', '/w/app', 1000);
  history.add('write a unit test', null, 2000);
  history.add('fix the staging deploy script', '/w/tools', 3000n);
  history.flushSync();
  const deploy = { id: 1, prompt: 'deploy the staging server', createdAt: 1000, cwd: '/w/app' };
  const unit = { id: 2, prompt: 'write a unit test', createdAt: 2000, cwd: null };
  const script = { id: 3, prompt: 'fix the staging deploy script', createdAt: 3000, cwd: '/w/tools' };
  // Newest first; a cwd keeps only its own; limit cuts.
  assert.deepEqual(history.recentSync(), [script, unit, deploy]);
  assert.deepEqual(await history.recent({ cwd: '/w/app' }), [deploy]);
  assert.deepEqual(history.recentSync({ limit: 2 }), [script, unit]);
  assert.deepEqual(history.recentSync({ cwd: '/nowhere' }), []);

  const [hit, ...rest] = history.searchSync('staging', { cwd: '/w/app' });
  assert.deepEqual(rest, []);
  const { score, ...fields } = hit;
  assert.deepEqual(fields, { ...deploy, snippet: 'deploy the \u0002staging\u0003 server' });
  assert.equal(typeof score, 'number');
  assert.ok(score < 0, `bm25 score ${score}`);
  const both = await history.search('stag*');
  assert.deepEqual(both.map((h) => h.id).sort(), [1, 3]);
  assert.deepEqual(both.find((h) => h.id === 3).snippet, 'fix the \u0002staging\u0003 deploy script');
  assert.deepEqual(history.searchSync('staging', { cwd: '/elsewhere' }), []);
  assert.deepEqual(history.searchSync('staging', { limit: 1 }).length, 1);

  assert.deepEqual(history.infoSync(), {
    path: path.join(root, 'history.db'), schemaVersion: 3, count: 3, pending: 0, synchronous: 'normal', damaged: null,
  });
  assert.equal(history.lastStatus(), 0);
});

test('literal: quotes and operators are ordinary characters, the last word a prefix', async (t) => {
  const { history } = scratchHistory(t);
  history.add('grep "needle" OR haystack', '/w', 1);
  history.add('needle work', '/w', 2);
  await history.flush();
  // As FTS5 syntax the same text is refused, or means something else.
  assert.throws(() => history.searchSync('"needle" OR'), xsError('XS_EINVAL', /^bad history query: /));
  const literal = history.searchSync('"needle" OR', { literal: true });
  assert.deepEqual(literal.map((h) => h.prompt), ['grep "needle" OR haystack']);
  assert.deepEqual(history.searchSync('needle NOT hay', { literal: true }).map((h) => h.id), []);
  assert.throws(() => history.searchSync('haystack NOT'), xsError('XS_EINVAL', /^bad history query: /));
  assert.deepEqual(history.searchSync('hays', { literal: true }).map((h) => h.id), [1]);
  assert.deepEqual((await history.search('needle', { literal: true })).map((h) => h.id).sort(), [1, 2]);
});

test('a query FTS5 refuses: XS_EINVAL, "bad history query: " and SQLite\'s words, in both forms', async (t) => {
  const { history } = scratchHistory(t);
  history.add('anything', null, 1);
  assert.throws(() => history.searchSync('"open'), xsError('XS_EINVAL', 'bad history query: unterminated string'));
  assert.equal(history.lastStatus(), xs.status.XS_EINVAL);
  await assert.rejects(history.search('a AND'), xsError('XS_EINVAL', 'bad history query: fts5: syntax error near ""'));
  assert.throws(() => history.searchSync(''), xsError('XS_EINVAL'));
  assert.throws(() => history.recentSync({ limit: 10001 }), xsError('XS_EINVAL'));
  assert.throws(() => history.searchSync('x', { limit: 10001 }), xsError('XS_EINVAL'));
});

test('refused prompts: NUL, invalid UTF-8, empty, a negative time (XS_EINVAL); too long (XS_ELIMIT)', (t) => {
  const { store, history } = scratchHistory(t);
  assert.throws(() => history.add('a\0b'), xsError('XS_EINVAL', 'the prompt contains a NUL byte'));
  assert.throws(() => history.add(Buffer.from([0xc0, 0xaf])), xsError('XS_EINVAL', 'the prompt is not valid UTF-8'));
  assert.throws(() => history.add(''), xsError('XS_EINVAL', 'the prompt is empty'));
  assert.throws(() => history.add(new Uint8Array(0)), xsError('XS_EINVAL', 'the prompt is empty'));
  assert.throws(() => history.add('x', null, -5), xsError('XS_EINVAL'));
  assert.equal(history.lastStatus(), xs.status.XS_EINVAL);
  history.add(Buffer.from('bytes are taken as UTF-8 ✓'), '/w', 7);
  assert.equal(history.lastStatus(), 0);
  const big = 'p'.repeat(1048577);
  assert.throws(() => history.add(big), xsError('XS_ELIMIT', 'the prompt has 1048577 bytes; the limit is 1048576'));
  // A limit of its own (and a path of its own).
  const dir = scratch(t);
  const small = store.openHistorySync({ path: path.join(dir, 'sub', 'h.db'), maxPromptBytes: 4 });
  t.after(() => small.close());
  assert.throws(() => small.add('12345'), xsError('XS_ELIMIT', 'the prompt has 5 bytes; the limit is 4'));
  small.add('1234');
  small.flushSync();
  assert.deepEqual(small.recentSync().map((r) => r.prompt), ['1234']);
  assert.ok(fs.existsSync(path.join(dir, 'sub', 'h.db')));
  // None of the refused ones was written.
  history.flushSync();
  assert.deepEqual(history.recentSync(), [{ id: 1, prompt: 'bytes are taken as UTF-8 ✓', createdAt: 7, cwd: '/w' }]);
});

test('a prompt equal to the one just added with the same cwd is skipped', (t) => {
  const { store, history } = scratchHistory(t);
  history.add('make', '/a', 1);
  history.add('make', '/a', 2); // skipped
  history.add('make', '/b', 3); // another cwd
  history.add('make', '/a', 4); // not right after the first
  history.flushSync();
  assert.deepEqual(history.recentSync().map((r) => [r.id, r.cwd, r.createdAt]), [[3, '/a', 4], [2, '/b', 3], [1, '/a', 1]]);
  // A new handle's first add is compared with the file's last row.
  const second = store.openHistorySync();
  second.add('make', '/a', 5);
  second.add('test', '/a', 6);
  second.close();
  assert.deepEqual(history.recentSync({ limit: 2 }).map((r) => [r.id, r.prompt]), [[4, 'test'], [3, 'make']]);
});

test('close: idempotent, then every call is XS_ECLOSED; a pending Promise still settles', async (t) => {
  const { store } = scratchStore(t);
  const history = await store.openHistory();
  history.add('queued before close', null, 1);
  const searching = history.search('queued'); // on a worker; close() waits for it, not the reverse
  assert.equal(history.close(), undefined);
  assert.equal(history.closed, true);
  assert.doesNotThrow(() => history.close());
  assert.ok(Array.isArray(await searching));
  assert.throws(() => history.add('x'), xsError('XS_ECLOSED', 'the history is closed'));
  assert.throws(() => history.lastStatus(), xsError('XS_ECLOSED'));
  await assert.rejects(history.flush(), xsError('XS_ECLOSED', 'the history is closed'));
  // close() flushed: another handle sees the prompt.
  const again = store.openHistorySync();
  t.after(() => again.close());
  assert.deepEqual(again.recentSync().map((r) => r.prompt), ['queued before close']);
});

test('the Promise forms, and explicit resource management (dispose, asyncDispose)', async (t) => {
  const { store } = scratchStore(t);
  const history = await store.openHistory({ sync: true, busyTimeoutMs: 1000 });
  await history.addAsync('async add', '/w', 10);
  assert.equal(await history.flush(), undefined);
  assert.deepEqual((await history.recent()).map((r) => r.prompt), ['async add']);
  assert.equal((await history.info()).synchronous, 'full');
  await assert.rejects(history.addAsync(''), xsError('XS_EINVAL', 'the prompt is empty'));
  await assert.rejects(history.search(5), { name: 'TypeError', message: 'History.search: query must be a string (got number)' });
  history.add('flushed by asyncDispose', '/w', 11);
  await history[Symbol.asyncDispose]();
  assert.equal(history.closed, true);
  const other = store.openHistorySync();
  assert.deepEqual(other.recentSync({ limit: 1 }).map((r) => r.prompt), ['flushed by asyncDispose']);
  other[Symbol.dispose]();
  assert.equal(other.closed, true);
});

test('open: options checked, an in-memory store needs a path, a damaged file is kept aside', async (t) => {
  const { root, store } = scratchStore(t);
  assert.throws(() => store.openHistorySync({ paht: 'x' }),
                { name: 'TypeError', message: "Store.openHistory: unknown key 'paht' in options" });
  assert.throws(() => store.openHistorySync({ busyTimeoutMs: -1 }),
                { name: 'RangeError', message: 'Store.openHistory: busyTimeoutMs must be between 0 and 4294967295' });
  assert.throws(() => store.openHistorySync({ sync: 1 }),
                { name: 'TypeError', message: 'Store.openHistory: sync must be a boolean (got number)' });
  assert.throws(() => new xs.History(), { name: 'TypeError', message: /made by Store.openHistory/ });
  assert.throws(() => xs.History.prototype.add.call(store, 'x'), { name: 'TypeError' });

  const memory = new xs.Store(null, { inMemory: true });
  t.after(() => memory.close());
  assert.throws(() => memory.openHistorySync(),
                xsError('XS_EINVAL', 'an in-memory store keeps no history.db: name a path in the options'));
  assert.equal(memory.lastStatus(), xs.status.XS_EINVAL);
  const dir = scratch(t);
  const kept = await memory.openHistory({ path: path.join(dir, 'h.db') });
  kept.close();

  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, 'history.db'), 'garbage that is not a database');
  const fresh = store.openHistorySync();
  t.after(() => fresh.close());
  const info = fresh.infoSync();
  assert.equal(info.count, 0);
  assert.ok(info.damaged.path.startsWith(path.join(root, 'history.db.damaged-')), info.damaged.path);
  assert.equal(typeof info.damaged.reason, 'string');
  assert.equal(fs.readFileSync(info.damaged.path, 'utf8'), 'garbage that is not a database');
});

test('typed results are the raw JSON decoded: re-encoded they compare equal, and tsc holds them to their types', async (t) => {
  const { history } = scratchHistory(t);
  history.add('deploy the staging server', '/w/app', 1000);
  history.add('write a unit test', null, 2000);
  await history.flush();
  const pairs = [
    ['HistoryItem[]', history.recentSync(), history.recentSync({ raw: true })],
    ['HistoryItem[]', await history.recent({ cwd: '/w/app' }), await history.recent({ cwd: '/w/app', raw: true })],
    ['HistoryHit[]', history.searchSync('stag*'), history.searchSync('stag*', { raw: true })],
    ['HistoryHit[]', await history.search('unit te', { literal: true }), await history.search('unit te', { literal: true, raw: true })],
    ['HistoryInfo', history.infoSync(), history.infoSync({ raw: true })],
    ['HistoryInfo', await history.info(), await history.info({ raw: true })],
  ];
  for (const [type, typed, raw] of pairs) {
    assert.equal(typeof raw, 'string');
    assert.deepEqual(JSON.parse(JSON.stringify(typed)), JSON.parse(raw), type);
    assert.ok(Array.isArray(typed) ? typed.length > 0 : typed.count === 2, type);
    record(type, typed, `history ${type}`);
  }
  // A damaged note, so the non-null branch of HistoryInfo.damaged is compiled too.
  record('HistoryInfo', { ...history.infoSync(), damaged: { path: '/x.damaged-1', reason: 'not a database' } }, 'damaged');
  assert.equal(checkRecordedTypes(6), 6);
});

test("the README's prompt history example runs as shown", (t) => {
  const { printed, shown } = runReadmeExample(t, 'Prompt history');
  assert.deepEqual(printed, shown);
  assert.deepEqual(shown, ['deploy the *staging* server', 'write a unit test for the parser']);
});
