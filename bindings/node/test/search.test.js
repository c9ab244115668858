'use strict';
// The session index and search (Index, from Store.openIndex) over sessions written through the
// binding: rebuild/refresh/verify reports with exact values, search hits and each filter, list
// order and fields, info, the library's refusals as exact statuses and messages, close, the
// Promise forms, followWrites and flush (also a failed update, with another connection holding the
// write lock), and the typed results against their raw JSON and their declared types (tsc).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const readline = require('node:readline');
const { xs, scratch, scratchStore, runReadmeExample, xsError } = require('./helpers');
const { record, checkRecordedTypes } = require('./typed_outputs');

const T0 = 1767225600000; // 2026-01-01T00:00:00Z: session n's clock starts a minute per n later

const answer = (text) => ({
  role: 'assistant', content: [{ type: 'text', text }], api: 'x', provider: 'p', model: 'm',
  usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15,
           cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.25 } },
  stopReason: 'stop', timestamp: 2,
});

// Session "s<n>" in cwd with a prompt and an answer on a fixed clock; its path, and each entry's
// id and time (ms) as the session itself reports them.
function writeSession(store, n, cwd, prompt, reply) {
  const s = store.create(cwd, { clockStartMs: T0 + n * 60000, clockStepMs: 1000, idSeed: 7 + n, sessionId: `s${n}` });
  s.appendMessage({ role: 'user', content: prompt, timestamp: 1 });
  s.appendMessage(answer(reply));
  const [user, assistant] = s.entriesSync().map((e) => ({ id: e.id, ms: Date.parse(e.timestamp) }));
  const { path: file } = s.info();
  s.close();
  return { path: file, user, assistant };
}

// A store with two sessions (s1 in /w/app, s2 in /w/lib) and an index of it, closed after the test.
function indexedStore(t) {
  const { root, store } = scratchStore(t);
  const s1 = writeSession(store, 1, '/w/app', 'deploy the staging server', 'staging is deployed');
  const s2 = writeSession(store, 2, '/w/lib', 'write a unit test', 'the test passes');
  const index = store.openIndexSync();
  t.after(() => index.close());
  return { root, store, index, s1, s2 };
}

const report = (counts) => ({
  files: 0, unchanged: 0, appended: 0, reindexed: 0, added: 0, removed: 0, unreadable: 0, raced: 0, entries: 0, ...counts,
});
const ids = (hits) => hits.map((h) => h.entryId).sort();

// Another connection holding the database's write lock (BEGIN IMMEDIATE), through Python's sqlite3
// module (python3 is a dependency of the tests already; Node 20 has no SQLite of its own) in a
// child process; release() commits and waits for it to end.
async function holdWriteLock(t, file) {
  const script = 'import sqlite3, sys\n'
    + 'db = sqlite3.connect(sys.argv[1], isolation_level=None)\n'
    + 'db.execute("BEGIN IMMEDIATE")\n'
    + 'print("locked", flush=True)\n'
    + 'sys.stdin.readline()\n'
    + 'db.execute("COMMIT")\n'
    + 'db.close()\n';
  const child = spawn(process.env.XS_PYTHON || 'python3', ['-c', script, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const ended = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the lock holder exited with ${code}`))));
  });
  t.after(() => child.kill());
  const lines = readline.createInterface({ input: child.stdout });
  const [line] = await Promise.race([once(lines, 'line'), ended.then(() => ['(ended)'])]);
  assert.equal(line, 'locked');
  return { release: () => (child.stdin.end('\n'), ended) };
}

test('rebuild reports what it read; info counts the rows', async (t) => {
  const { root, index } = indexedStore(t);
  const info = { path: path.join(root, 'index.db'), schemaVersion: 2, sessions: 0, entries: 0, damaged: null };
  assert.deepEqual(index.infoSync(), info); // opened, not read
  assert.deepEqual(index.rebuildSync(), report({ files: 2, added: 2, entries: 4 }));
  assert.deepEqual(await index.info(), { ...info, sessions: 2, entries: 4 });
  // Made again from nothing: the rows are new, not unchanged.
  assert.deepEqual(await index.rebuild(), report({ files: 2, added: 2, entries: 4 }));
  assert.deepEqual(index.infoSync(), { ...info, sessions: 2, entries: 4 });
  assert.equal(index.lastStatus(), 0);
});

test('search finds the prompt and the answer, each match between U+0002 and U+0003', async (t) => {
  const { index, s1 } = indexedStore(t);
  index.rebuildSync();
  const hits = index.searchSync('staging');
  const byId = Object.fromEntries(hits.map(({ score, ...hit }) => {
    assert.equal(typeof score, 'number');
    assert.ok(score < 0, `bm25 score ${score}`);
    return [hit.entryId, hit];
  }));
  const hit = (entry, role, snippet) => ({
    sessionId: 's1', sessionTitle: null, sessionPath: s1.path, cwd: '/w/app', entryId: entry.id, role, onPath: true,
    timestamp: entry.ms, snippet,
  });
  assert.deepEqual(byId, {
    [s1.user.id]: hit(s1.user, 'user', 'deploy the \u0002staging\u0003 server'),
    [s1.assistant.id]: hit(s1.assistant, 'assistant', '\u0002staging\u0003 is deployed'),
  });
  assert.deepEqual(await index.search('staging'), hits); // the Promise form gives the same
  assert.deepEqual(index.searchSync('nowhere'), []);
});

test('each filter changes the result: role, cwd, sessionId, sinceMs, limit, literal', async (t) => {
  const { index, s1, s2 } = indexedStore(t);
  index.rebuildSync();
  const q = 'test OR staging';
  const all = index.searchSync(q);
  assert.deepEqual(ids(all), ids([s1.user, s1.assistant, s2.user, s2.assistant].map((e) => ({ entryId: e.id }))));

  assert.deepEqual(ids(index.searchSync(q, { role: 'user' })), [s1.user.id, s2.user.id].sort());
  assert.deepEqual(index.searchSync(q, { role: 'assistant' }).map((h) => h.role), ['assistant', 'assistant']);
  assert.deepEqual(index.searchSync(q, { role: 'summary' }), []);
  assert.deepEqual(index.searchSync(q, { role: null }).length, 4);

  assert.deepEqual(ids(index.searchSync(q, { cwd: '/w/lib' })), [s2.user.id, s2.assistant.id].sort());
  assert.deepEqual(index.searchSync('staging', { cwd: '/w/lib' }), []);

  assert.deepEqual(ids(await index.search(q, { sessionId: 's1' })), [s1.user.id, s1.assistant.id].sort());
  assert.deepEqual(index.searchSync(q, { sessionId: 'nobody' }), []);

  // Only the second session's entries are that new; a bigint is taken as a number.
  const since = T0 + 2 * 60000;
  assert.ok(s1.assistant.ms < since && s2.user.ms >= since);
  assert.deepEqual(ids(index.searchSync(q, { sinceMs: since })), [s2.user.id, s2.assistant.id].sort());
  assert.deepEqual(ids(index.searchSync(q, { sinceMs: BigInt(s2.assistant.ms) })), [s2.assistant.id]);
  assert.deepEqual(index.searchSync(q, { sinceMs: 0 }).length, 4);

  assert.deepEqual(index.searchSync(q, { limit: 1 }), all.slice(0, 1)); // best first: the same one
  assert.deepEqual(index.searchSync(q, { limit: 3 }), all.slice(0, 3));

  // Plain words, the last a prefix; as FTS5 syntax "unit te" wants the whole word "te".
  assert.deepEqual(index.searchSync('unit te'), []);
  assert.deepEqual(ids(index.searchSync('unit te', { literal: true })), [s2.user.id]);
  assert.throws(() => index.searchSync('"staging" OR'), xsError('XS_EINVAL', /^bad search query: /));
  assert.deepEqual(index.searchSync('"staging" OR', { literal: true }), []); // "or" occurs nowhere
  assert.deepEqual(ids(index.searchSync('"staging" serv', { literal: true })), [s1.user.id]);

  // Filters combine.
  assert.deepEqual(ids(index.searchSync(q, { cwd: '/w/app', role: 'assistant', limit: 5 })), [s1.assistant.id]);
});

test('list: newest first, every field from the index; cwd and limit', async (t) => {
  const { index, s1, s2 } = indexedStore(t);
  index.rebuildSync();
  const row = (s, n, cwd, prompt) => {
    const stat = fs.statSync(s.path, { bigint: true }); // the mtime's whole ms, as the library cuts it
    return {
      path: s.path, id: `s${n}`, cwd, title: null, firstPrompt: prompt, created: T0 + n * 60000,
      updated: s.assistant.ms, modified: Number(stat.mtimeNs / 1000000n), size: Number(stat.size), entries: 2, messages: 2,
      inputTokens: 10, outputTokens: 5, cost: 0.25, dialect: 'omp', sourceAgent: null, parentSession: null,
      archived: false, leafId: s.assistant.id,
    };
  };
  const first = row(s2, 2, '/w/lib', 'write a unit test'), second = row(s1, 1, '/w/app', 'deploy the staging server');
  assert.deepEqual(index.listSync(), [first, second]);
  assert.deepEqual(await index.list({ cwd: '/w/app' }), [second]);
  assert.deepEqual(index.listSync({ limit: 1 }), [first]);
  assert.deepEqual(index.listSync({ cwd: '/nowhere' }), []);
});

test('refresh reads what changed; verify reports each difference without changing anything', async (t) => {
  const { store } = scratchStore(t);
  const s1 = writeSession(store, 1, '/w/app', 'first prompt', 'first answer');
  const index = await store.openIndex();
  t.after(() => index.close());
  assert.deepEqual(index.verifySync(), { ok: false, files: 1, indexed: 0, missing: [s1.path], extra: [], stale: [] });
  assert.deepEqual(await index.verify(), { ok: false, files: 1, indexed: 0, missing: [s1.path], extra: [], stale: [] });
  assert.deepEqual(index.refreshSync(), report({ files: 1, added: 1, entries: 2 }));
  assert.deepEqual(await index.refresh(), report({ files: 1, unchanged: 1 }));
  assert.deepEqual(index.verifySync(), { ok: true, files: 1, indexed: 1, missing: [], extra: [], stale: [] });

  // A new session: not seen until a refresh adds it.
  assert.deepEqual(index.searchSync('second'), []);
  const s2 = writeSession(store, 2, '/w/app', 'second prompt', 'second answer');
  assert.deepEqual(index.refreshSync(), report({ files: 2, unchanged: 1, added: 1, entries: 2 }));
  assert.deepEqual(index.searchSync('second').map((h) => h.sessionId), ['s2', 's2']);

  // Grown in place: stale, then only the new line read.
  const grown = store.openSync(s1.path);
  const third = grown.appendMessage({ role: 'user', content: 'third prompt', timestamp: 3 });
  grown.close();
  assert.deepEqual(index.verifySync(), { ok: false, files: 2, indexed: 2, missing: [], extra: [], stale: [s1.path] });
  assert.deepEqual(index.refreshSync(), report({ files: 2, unchanged: 1, appended: 1, entries: 1 }));
  assert.deepEqual(index.searchSync('third').map((h) => [h.entryId, h.onPath]), [[third, true]]);

  // Gone: an extra row, then removed.
  fs.unlinkSync(s2.path);
  assert.deepEqual(index.verifySync(), { ok: false, files: 1, indexed: 2, missing: [], extra: [s2.path], stale: [] });
  assert.deepEqual(index.refreshSync(), report({ files: 1, unchanged: 1, removed: 1 }));
  assert.deepEqual(index.searchSync('second'), []);
  assert.deepEqual(index.infoSync().sessions, 1);
});

test('refusals: a bad query, a role that is none, out-of-range options, each with its status', async (t) => {
  const { index } = indexedStore(t);
  index.rebuildSync();
  assert.throws(() => index.searchSync('"open'), xsError('XS_EINVAL', 'bad search query: unterminated string'));
  assert.equal(index.lastStatus(), xs.status.XS_EINVAL);
  await assert.rejects(index.search('a AND'), xsError('XS_EINVAL', 'bad search query: fts5: syntax error near ""'));
  assert.throws(() => index.searchSync('('), xsError('XS_EINVAL', /^bad search query: /));
  assert.throws(() => index.searchSync('staging', { role: 'robot' }),
                xsError('XS_EINVAL', 'role "robot" is none of user, assistant, tool, summary, label'));
  await assert.rejects(index.search('staging', { role: '' }), xsError('XS_EINVAL', /^role "" is none of /));
  assert.throws(() => index.searchSync(''), xsError('XS_EINVAL'));
  assert.throws(() => index.searchSync('x', { limit: 10001 }), xsError('XS_EINVAL'));
  assert.throws(() => index.searchSync('x', { sinceMs: -1 }), xsError('XS_EINVAL'));
  assert.throws(() => index.listSync({ limit: 10001 }), xsError('XS_EINVAL'));
  assert.equal(index.searchSync('staging', { limit: 10000 }).length, 2); // the bound itself is fine
  assert.equal(index.lastStatus(), 0);

  // The binding's own checks: types and keys, before the library is called.
  assert.throws(() => index.searchSync('x', { rol: 'user' }),
                { name: 'TypeError', message: "Index.search: unknown key 'rol' in options" });
  assert.throws(() => index.searchSync('x', { role: 5 }), { name: 'TypeError' });
  assert.throws(() => index.searchSync('x', { sinceMs: 1.5 }), { name: 'TypeError' });
  assert.throws(() => index.listSync({ limit: -1 }),
                { name: 'RangeError', message: 'Index.list: limit must be between 0 and 4294967295' });
  await assert.rejects(index.search(5), { name: 'TypeError', message: 'Index.search: query must be a string (got number)' });
  assert.throws(() => index.rebuildSync({ dryRun: true }), { name: 'TypeError' });
  assert.throws(() => new xs.Index(), { name: 'TypeError', message: /made by Store.openIndex/ });
  assert.throws(() => xs.Index.prototype.infoSync.call(index.infoSync()), { name: 'TypeError' });
});

test('open: options checked; an in-memory store needs a path; the index outlives its store', async (t) => {
  const { store } = scratchStore(t);
  assert.throws(() => store.openIndexSync({ paht: 'x' }), { name: 'TypeError', message: "Store.openIndex: unknown key 'paht' in options" });
  assert.throws(() => store.openIndexSync({ busyTimeoutMs: -1 }),
                { name: 'RangeError', message: 'Store.openIndex: busyTimeoutMs must be between 0 and 4294967295' });

  const memory = new xs.Store(null, { inMemory: true });
  assert.throws(() => memory.openIndexSync(), xsError('XS_EINVAL', 'an in-memory store keeps no index.db: name a path in the options'));
  await assert.rejects(memory.openIndex({ busyTimeoutMs: 50 }), xsError('XS_EINVAL', /^an in-memory store keeps no index\.db/));
  assert.equal(memory.lastStatus(), xs.status.XS_EINVAL);
  const dir = scratch(t);
  const file = path.join(dir, 'elsewhere', 'mem-index.db');
  const kept = await memory.openIndex({ path: file });
  t.after(() => kept.close());
  writeSession(memory, 1, '/w', 'kept in memory', 'an answer');
  memory.close(); // the index keeps what it reads through
  assert.deepEqual(kept.refreshSync(), report({ files: 1, added: 1, entries: 2 }));
  assert.deepEqual(kept.searchSync('memory').map((h) => h.sessionId), ['s1']);
  assert.deepEqual(kept.infoSync().path, file);
  assert.ok(fs.existsSync(file));

  // A store on disk, likewise: closed before its index is first read.
  const { root, store: disk } = scratchStore(t);
  writeSession(disk, 3, '/w/disk', 'written before close', 'answered');
  const index = disk.openIndexSync({ path: path.join(root, 'custom', 'ix.db'), busyTimeoutMs: 1000 });
  t.after(() => index.close());
  disk.close();
  assert.deepEqual(await index.rebuild(), report({ files: 1, added: 1, entries: 2 }));
  assert.deepEqual((await index.list()).map((s) => s.id), ['s3']);
  assert.equal(index.infoSync().path, path.join(root, 'custom', 'ix.db'));
});

test('followWrites: a session written after the open is found after flush(), without a refresh', async (t) => {
  const { store } = scratchStore(t);
  assert.throws(() => store.openIndexSync({ followWrites: 1 }), { name: 'TypeError' });
  const index = await store.openIndex({ followWrites: true });
  t.after(() => index.close());
  const s1 = writeSession(store, 1, '/w/app', 'launch the zeppelin', 'zeppelin launched');
  assert.equal(index.flushSync(), undefined); // waits for the index's thread
  assert.equal(index.lastStatus(), 0);
  assert.deepEqual(ids(index.searchSync('zeppelin')), [s1.user.id, s1.assistant.id].sort());
  // What the thread indexed is what a refresh would have: nothing left for one to read.
  assert.deepEqual(index.refreshSync(), report({ files: 1, unchanged: 1 }));
  const s2 = writeSession(store, 2, '/w/lib', 'inflate the balloon', 'balloon inflated');
  assert.equal(await index.flush(), undefined); // the Promise form, on a worker
  assert.deepEqual(ids(await index.search('balloon')), [s2.user.id, s2.assistant.id].sort());
  assert.deepEqual(await index.refresh(), report({ files: 2, unchanged: 2 }));
});

test('without followWrites, flush() succeeds and finds nothing to wait for: a refresh finds the session', async (t) => {
  const { store } = scratchStore(t);
  const index = store.openIndexSync();
  t.after(() => index.close());
  const s1 = writeSession(store, 1, '/w/app', 'launch the zeppelin', 'zeppelin launched');
  assert.equal(index.flushSync(), undefined);
  assert.equal(await index.flush(), undefined);
  assert.deepEqual(index.searchSync('zeppelin'), []);
  assert.deepEqual(index.refreshSync(), report({ files: 1, added: 1, entries: 2 }));
  assert.deepEqual(ids(index.searchSync('zeppelin')), [s1.user.id, s1.assistant.id].sort());
  index.close();
  assert.throws(() => index.flushSync(), xsError('XS_ECLOSED', 'the index is closed'));
  await assert.rejects(index.flush(), xsError('XS_ECLOSED', 'the index is closed'));
});

test('flush() rejects once with the update that failed on a lock; the next refresh makes it', async (t) => {
  const { root, store } = scratchStore(t);
  const index = store.openIndexSync({ followWrites: true, busyTimeoutMs: 50 });
  t.after(() => index.close());
  assert.deepEqual(index.rebuildSync(), report()); // the database exists before another connection opens it
  const holder = await holdWriteLock(t, path.join(root, 'index.db'));
  writeSession(store, 1, '/w/app', 'launch the zeppelin', 'zeppelin launched');
  await assert.rejects(index.flush(), xsError('XS_ELOCKED', /^indexing what sessions wrote: /));
  assert.equal(index.lastStatus(), xs.status.XS_ELOCKED);
  assert.equal(index.flushSync(), undefined); // reported once
  await holder.release();
  assert.deepEqual(index.searchSync('zeppelin'), []);
  assert.deepEqual(index.refreshSync(), report({ files: 1, added: 1, entries: 2 }));
  assert.equal(index.searchSync('zeppelin').length, 2);
  // The Sync form throws the same error.
  const again = await holdWriteLock(t, path.join(root, 'index.db'));
  writeSession(store, 2, '/w/app', 'inflate the balloon', 'balloon inflated');
  assert.throws(() => index.flushSync(), xsError('XS_ELOCKED', /^indexing what sessions wrote: /));
  assert.equal(await index.flush(), undefined);
  await again.release();
});

test('close: idempotent, then every call is XS_ECLOSED; a pending Promise still settles', async (t) => {
  const { store, s1 } = indexedStore(t);
  const index = await store.openIndex();
  const rebuilding = index.rebuild(); // on a worker; close() frees the handle after it
  assert.equal(index.close(), undefined);
  assert.equal(index.closed, true);
  assert.doesNotThrow(() => index.close());
  assert.deepEqual(await rebuilding, report({ files: 2, added: 2, entries: 4 }));
  assert.throws(() => index.searchSync('x'), xsError('XS_ECLOSED', 'the index is closed'));
  assert.throws(() => index.lastStatus(), xsError('XS_ECLOSED'));
  await assert.rejects(index.refresh(), xsError('XS_ECLOSED', 'the index is closed'));
  // What it wrote stays: another handle finds it.
  const again = store.openIndexSync();
  t.after(() => again.close());
  assert.deepEqual(again.searchSync('deploy').map((h) => h.entryId), [s1.user.id]);
});

test('calls on one Index run one at a time; using and await using close it', async (t) => {
  const { store, index } = indexedStore(t);
  await index.rebuild();
  const expected = index.searchSync('test OR staging');
  const results = await Promise.all([index.refresh(), ...Array.from({ length: 6 }, () => index.search('test OR staging')),
                                     index.verify(), index.list()]);
  assert.deepEqual(results[0], report({ files: 2, unchanged: 2 }));
  for (const hits of results.slice(1, 7)) assert.deepEqual(hits, expected);
  assert.equal(results[7].ok, true);
  assert.equal(results[8].length, 2);

  const other = await store.openIndex();
  other[Symbol.dispose]();
  assert.equal(other.closed, true);
  const third = store.openIndexSync();
  await third[Symbol.asyncDispose]();
  assert.equal(third.closed, true);
});

test('a damaged index file is kept aside and a fresh one started', (t) => {
  const { root, store } = scratchStore(t);
  writeSession(store, 1, '/w', 'a prompt', 'an answer');
  fs.writeFileSync(path.join(root, 'index.db'), 'x'.repeat(4096));
  const index = store.openIndexSync();
  t.after(() => index.close());
  const info = index.infoSync();
  assert.deepEqual({ ...info, damaged: null },
                   { path: path.join(root, 'index.db'), schemaVersion: 2, sessions: 0, entries: 0, damaged: null });
  assert.ok(info.damaged.path.startsWith(path.join(root, 'index.db.damaged-')), info.damaged.path);
  assert.equal(typeof info.damaged.reason, 'string');
  assert.equal(fs.readFileSync(info.damaged.path, 'utf8'), 'x'.repeat(4096));
  assert.deepEqual(index.refreshSync(), report({ files: 1, added: 1, entries: 2 }));
});

test('typed results are the raw JSON decoded: re-encoded they compare equal, and tsc holds them to their types', async (t) => {
  const { index } = indexedStore(t);
  const rebuilt = index.rebuildSync();
  record('IndexReport', rebuilt, 'index rebuild');
  const pairs = [
    ['IndexReport', index.refreshSync(), index.refreshSync({ raw: true })],
    ['IndexReport', await index.refresh(), await index.refresh({ raw: true })],
    ['IndexVerifyReport', index.verifySync(), index.verifySync({ raw: true })],
    ['IndexVerifyReport', await index.verify(), await index.verify({ raw: true })],
    ['IndexedSession[]', index.listSync(), index.listSync({ raw: true })],
    ['IndexedSession[]', await index.list({ cwd: '/w/app' }), await index.list({ cwd: '/w/app', raw: true })],
    ['IndexInfo', index.infoSync(), index.infoSync({ raw: true })],
    ['IndexInfo', await index.info(), await index.info({ raw: true })],
    ['SearchHit[]', index.searchSync('stag*'), index.searchSync('stag*', { raw: true })],
    ['SearchHit[]', await index.search('unit te', { literal: true }), await index.search('unit te', { literal: true, raw: true })],
  ];
  for (const [type, typed, raw] of pairs) {
    assert.equal(typeof raw, 'string');
    assert.deepEqual(JSON.parse(JSON.stringify(typed)), JSON.parse(raw), type);
    assert.ok(Array.isArray(typed) ? typed.length > 0 : Object.keys(typed).length > 4, type);
    record(type, typed, `index ${type}`);
  }
  // A raw rebuild is the library's exact text of the report it returns typed.
  const raw = index.rebuildSync({ raw: true });
  assert.equal(raw, '{"files":2,"unchanged":0,"appended":0,"reindexed":0,"added":2,"removed":0,"unreadable":0,'
                    + '"raced":0,"entries":4}');
  assert.deepEqual(JSON.parse(raw), rebuilt);
  // A damaged note, so the non-null branch of IndexInfo.damaged is compiled too.
  record('IndexInfo', { ...index.infoSync(), damaged: { path: '/x.damaged-1', reason: 'not a database' } }, 'damaged');
  assert.ok(checkRecordedTypes(8) >= 8);
});

test("the README's session index example runs as shown", (t) => {
  const { printed, shown } = runReadmeExample(t, 'Session index and search');
  assert.deepEqual(printed, shown);
  assert.deepEqual(shown, ['1', 'deploy the *staging* server', 'deploy the staging server']);
});
