'use strict';
// The session library calls beyond what the conformance cases replay: the typed (parsed) results,
// argument errors, archive's progress callback in both forms (order, a throwing callback, a call
// on its own store from inside it), struct versions, and that every function of xsession.h is
// wrapped.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { xs, scratchStore, FIXED, user, assistant } = require('./helpers');

const typeError = (message) => ({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message });
const code = (c) => (err) => err.code === c && err.status === xs.status[c];

const FEB_1 = 1769904000000; // 2026-02-01: a month after FIXED's clock
const MONTH = 2592000000;

// Three finished sessions written in January 2026 (FIXED clock): candidates of archive at FEB_1.
function oldSessions(store, n = 3) {
  const paths = [];
  for (let i = 0; i < n; i++) {
    const s = store.create(`/w${i}`, { ...FIXED, idSeed: 100 + i, noDefer: true });
    s.appendMessage(user('q'));
    s.appendMessage(assistant('a'));
    paths.push(s.info().path);
    s.close();
  }
  return paths;
}

test('defaultCompactionSettings is what xs_compaction_settings_init fills in, frozen', () => {
  assert.deepEqual({ ...xs.defaultCompactionSettings }, {
    contextWindow: 0, reserveTokens: 16384, reserveFloor: 20000, keepRecentTokens: 20000, softThresholdTokens: 4000,
  });
  assert.ok(Object.isFrozen(xs.defaultCompactionSettings));
});

test('shouldCompact and shouldFlushMemory: decisions, library errors, argument errors', () => {
  const s = { contextWindow: 200000 };
  assert.equal(xs.shouldCompact(s, 180000), false);
  assert.equal(xs.shouldCompact(s, 180001n), true);
  assert.equal(xs.shouldFlushMemory(s, 176001, 0), true); // lastFlushCompactionCount left out: never
  assert.equal(xs.shouldFlushMemory(s, 176001, 0, null), true);
  assert.equal(xs.shouldFlushMemory(s, 176001, 0, 0), false);
  assert.throws(() => xs.shouldCompact({}, 1), code('XS_EINVAL'));
  assert.throws(() => xs.shouldCompact(s, -1), { code: 'XS_EINVAL', message: /shouldCompact/ });
  assert.throws(() => xs.shouldFlushMemory(s, 1, 0, -2), code('XS_EINVAL'));
  // A struct version other than the header's is the library's XS_EVERSION.
  assert.throws(() => xs.shouldCompact({ ...s, version: 99 }, 1), code('XS_EVERSION'));
  assert.throws(() => xs.shouldFlushMemory({ ...s, version: 0 }, 1, 0), code('XS_EVERSION'));
  assert.throws(() => xs.shouldCompact(s),
                typeError('xsession.shouldCompact: contextTokens must be an integer (number or bigint) (got undefined)'));
  assert.throws(() => xs.shouldCompact({ window: 5 }, 1), typeError("xsession.shouldCompact: unknown key 'window' in settings"));
  assert.throws(() => xs.shouldCompact({ contextWindow: '200000' }, 1),
                typeError('xsession.shouldCompact: contextWindow must be an integer (number or bigint) (got string)'));
  assert.throws(() => xs.shouldFlushMemory(s, 1, 0.5),
                typeError('xsession.shouldFlushMemory: compactionCount must be an integer (got number)'));
  assert.throws(() => xs.shouldCompact({ ...s, version: -1 }, 1), { name: 'RangeError' });
});

test('compactionPlan, resumeCheck and stats return parsed objects; raw gives the exact text', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(store.create('/w', FIXED));
  const u = s.appendMessage(user('q'.repeat(400)));
  s.appendMessage({ ...assistant('a'), usage: { input: 10, output: 5, cacheRead: 1, cacheWrite: 2, cost: { total: 0.5 } } });
  const plan = s.compactionPlanSync({ keepRecentTokens: 1 });
  assert.equal(plan.needed, true);
  assert.deepEqual(plan.toSummarise, [u]);
  assert.equal(JSON.stringify(plan), s.compactionPlanSync(null, { keepRecentTokens: 1, raw: true }));
  assert.deepEqual(await s.compactionPlan(s.leaf(), { keepRecentTokens: 1 }), plan);
  assert.equal(s.compactionPlanSync().needed, false); // the default keeps 20000 tokens: all of it
  assert.throws(() => s.compactionPlanSync({ keepRecentTokens: 1, version: 7 }), code('XS_EVERSION'));
  assert.throws(() => s.compactionPlanSync('nope'), code('XS_ENOTFOUND'));
  await assert.rejects(s.compactionPlan({ keep: 1 }), typeError("Session.compactionPlan: unknown key 'keep' in settings"));

  assert.deepEqual(s.resumeCheckSync(), { leafId: s.leaf(), orphans: [], pendingToolCalls: [] });
  assert.deepEqual(await s.resumeCheck(u), { leafId: u, orphans: [], pendingToolCalls: [] });
  await assert.rejects(s.resumeCheck('nope'), code('XS_ENOTFOUND'));

  const stats = s.stats();
  assert.deepEqual(stats, {
    inputTokens: 10, outputTokens: 5, cacheRead: 1, cacheWrite: 2, totalTokens: 18, contextTokens: 18, cost: 0.5,
    compactionCount: 0, messageCounts: { user: 1, assistant: 1 }, toolCalls: 0,
  });
  assert.equal(s.stats({ raw: true }), JSON.stringify(stats));
});

test('sessionForKey: a new session, then the same one, then a forced one; bound to the key', async (t) => {
  const { store, track } = scratchStore(t);
  const first = store.sessionForKeySync('agent:a:main', { nowMs: 1767225600000, session: { ...FIXED, cwd: '/w' } });
  assert.equal(first.reason, 'new');
  assert.ok(first.session instanceof xs.Session);
  const id = first.session.info().id;
  first.session.appendMessage(user('q'));
  first.session.appendMessage({ ...assistant('a'), usage: { input: 3, output: 4 } });
  first.session.close();
  const record = store.keys.getSync('agent:a:main');
  assert.equal(record.sessionId, id);
  assert.equal(record.totalTokens, 7); // the bound session wrote its stats into the record

  const again = await store.sessionForKey('agent:a:main', { nowMs: 1767225700000, policy: { idleMinutes: 60 } });
  assert.equal(again.reason, 'continued');
  assert.equal(track(again.session).info().id, id);
  again.session.close();
  const forced = track(store.sessionForKeySync('agent:a:main', { nowMs: 1767225800000, force: true }).session);
  assert.notEqual(forced.info().id, id);
  assert.equal(store.keys.getSync('agent:a:main').previousSessionIds.at(-1), id);

  assert.throws(() => store.sessionForKeySync('a/b'), code('XS_EINVAL'));
  assert.throws(() => store.sessionForKeySync('k', { policy: { dailyHour: 24, timeZone: 'UTC' } }), code('XS_EINVAL'));
  assert.throws(() => store.sessionForKeySync('k', { now: 1 }), typeError("Store.sessionForKey: unknown key 'now' in options"));
  assert.throws(() => store.sessionForKeySync('k', { policy: { dailyHour: 1.5 } }),
                typeError('Store.sessionForKey: dailyHour must be an integer (got number)'));
  await assert.rejects(store.sessionForKey('k', { session: { readOnly: true } }), code('XS_EINVAL'));
  assert.throws(() => store.create('/w', { key: 'k', readOnly: true }), code('XS_EINVAL'));
  // The store's default policy; a bad one is refused when the store opens.
  assert.throws(() => new xs.Store(null, { inMemory: true, resetPolicy: { dailyHour: 4, timeZone: 'Mars/Base' } }),
                code('XS_EINVAL'));
});

test('claimMemoryFlush and fixStats on the keyed store', async (t) => {
  const { store } = scratchStore(t);
  store.keys.putSync('k', { sessionId: 's1', compactionCount: 2 });
  const settings = { contextWindow: 200000 };
  assert.equal(store.keys.claimMemoryFlushSync('k', settings, 190000, 5), true);
  assert.equal(await store.keys.claimMemoryFlush('k', settings, 190000, 6), false); // once per cycle
  assert.deepEqual(store.keys.getSync('k'), { sessionId: 's1', compactionCount: 2, memoryFlushAt: 5, memoryFlushCompactionCount: 2 });
  await assert.rejects(store.keys.claimMemoryFlush('nobody', settings, 1), code('XS_ENOTFOUND'));
  assert.throws(() => store.keys.claimMemoryFlushSync('k', settings, 1, 'now'),
                typeError('Keys.claimMemoryFlush: nowMs must be an integer (number or bigint) (got string)'));
  const report = await store.keys.fixStats();
  assert.deepEqual(report, { checked: 1, fixed: [], skipped: [{ key: 'k', reason: report.skipped[0].reason }] });
  assert.equal(typeof report.skipped[0].reason, 'string');
  assert.equal(store.keys.fixStatsSync('zzz', { raw: true }), '{"checked":0,"fixed":[],"skipped":[]}');
});

for (const form of ['sync', 'async']) {
  const archive = (store, o) => (form === 'sync' ? store.archiveSync(o) : store.archive(o));

  test(`${form} archive: progress runs on the JS thread, in order, before the result`, async (t) => {
    const { root, store } = scratchStore(t);
    const paths = oldSessions(store);
    const calls = [];
    const report = await archive(store, {
      olderThanMs: MONTH, nowMs: FEB_1, progress: (done, total) => calls.push([done, total]),
    });
    assert.deepEqual(calls, [[0, 3], [1, 3], [2, 3], [3, 3]]);
    assert.deepEqual(report.archived.map((a) => a.path), [...paths].sort());
    for (const p of paths) assert.ok(fs.existsSync(`${p}.gz`) && !fs.existsSync(p));
    const listed = store.listSync();
    assert.ok(listed.every((l) => l.archived === true), JSON.stringify(listed));
    // An archive opens read-only; every write is XS_EREADONLY.
    const opened = store.openSync(`${paths[0]}.gz`);
    assert.equal(opened.info().archived, true);
    assert.throws(() => opened.appendMessage(user('x')), code('XS_EREADONLY'));
    opened.close();
    // prune: archives older than a day at 2100-01-01 (their mtimes are today's).
    const pruneOpts = { olderThanMs: 86400000, nowMs: 4102444800000, dryRun: true };
    const pruned = await (form === 'sync' ? store.pruneSync(pruneOpts) : store.prune(pruneOpts));
    assert.deepEqual(pruned.pruned.map((p) => p.path), [...paths].sort().map((p) => `${p}.gz`));
    assert.equal(pruned.dryRun, true);
    assert.ok(fs.readdirSync(root).includes('sessions'));
  });

  test(`${form} archive: a throwing progress is not called again and is what the call throws`, async (t) => {
    const { store } = scratchStore(t);
    const paths = oldSessions(store);
    const boom = new Error('progress failed');
    let calls = 0;
    const run = () => archive(store, { olderThanMs: MONTH, nowMs: FEB_1, progress: () => { calls++; throw boom; } });
    if (form === 'sync') assert.throws(run, (err) => err === boom);
    else await assert.rejects(run(), (err) => err === boom);
    assert.equal(calls, 1);
    // The C callback cannot stop the archive: it ran to its end.
    for (const p of paths) assert.ok(fs.existsSync(`${p}.gz`), p);
    assert.equal(store.closed, false);
  });

  test(`${form} archive: calls on the store from inside progress are XS_EMISUSE`, async (t) => {
    const { store } = scratchStore(t);
    oldSessions(store, 1);
    const seen = [];
    await archive(store, {
      olderThanMs: MONTH, nowMs: FEB_1,
      progress: () => {
        try { store.listSync(); } catch (err) { seen.push(err.code); }
        store.list().catch((err) => seen.push(`async ${err.code}`));
      },
    });
    assert.deepEqual(seen.filter((c) => !c.startsWith('async')), ['XS_EMISUSE', 'XS_EMISUSE']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen.filter((c) => c.startsWith('async')), ['async XS_EMISUSE', 'async XS_EMISUSE']);
    assert.equal(store.listSync().length, 1); // and afterwards the store answers again
  });
}

// Busy-waits on the JS thread, so that a worker started before gets as far as it can meanwhile.
const spin = (ms) => { for (const end = Date.now() + ms; Date.now() < end;); };

test('a session bound to a key answers a keys.update Promise holding the document instead of waiting', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(store.create('/w', { key: 'k', noDefer: true }));
  s.appendMessage(user('q'));
  store.keys.putSync('other', { sessionId: 'x' });
  const seen = [];
  const update = store.keys.update('other', (r) => { seen.push(r.sessionId); });
  spin(300); // the update's worker now holds the document and waits for its callback on this thread
  const t0 = Date.now();
  s.appendMessage({ ...assistant('a'), usage: { input: 1, output: 2 } }); // writes the record of 'k'
  assert.deepEqual(seen, ['x']); // the callback ran while the append waited for the document
  assert.ok(Date.now() - t0 < 5000, `the append waited ${Date.now() - t0} ms`);
  await update;
  assert.equal(store.keys.getSync('k').totalTokens, 3);
  const close = store.keys.update('other', (r) => { seen.push(`${r.sessionId} again`); });
  spin(300);
  s.close(); // a bound session writes its record as it closes
  assert.deepEqual(seen, ['x', 'x again']);
  await close;
});

test('archive and prune: the limit is required, and argument errors', async (t) => {
  const { store } = scratchStore(t);
  assert.throws(() => store.archiveSync({ nowMs: FEB_1 }), code('XS_EINVAL')); // no olderThanMs: the library's -1
  assert.throws(() => store.pruneSync({ olderThanMs: -5 }), code('XS_EINVAL'));
  await assert.rejects(store.archive(), code('XS_EINVAL'));
  assert.throws(() => store.archiveSync({ olderThanMs: 1, progress: 5 }), typeError('Store.archive: progress must be a function'));
  assert.throws(() => store.pruneSync({ olderThanMs: 1, progress: () => {} }), typeError("Store.prune: unknown key 'progress' in options"));
  await assert.rejects(store.archive({ olderThanMs: '1' }),
                       typeError('Store.archive: olderThanMs must be an integer (number or bigint) (got string)'));
});

test('every function of xsession.h is wrapped', () => {
  const header = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'capi', 'include', 'xsession.h'), 'utf8');
  const src = path.join(__dirname, '..', 'src');
  const sources = fs.readdirSync(src).filter((n) => n.endsWith('.c'))
    .map((n) => fs.readFileSync(path.join(src, n), 'utf8')).join('\n');
  const functions = [...header.matchAll(/^XS_API[^(]*?\b(xs_\w+)\s*\(/gm)].map((m) => m[1]);
  assert.ok(functions.length > 80, `${functions.length} functions found`);
  // None exempt: even xs_*_errcode, which every error carries as `status`, is lastStatus().
  const missing = functions.filter((f) => !new RegExp(`\\b${f}\\(`).test(sources));
  assert.deepEqual(missing, []);
});
