'use strict';
// Upkeep through the binding: verify/repair (with and without quarantine) on sessions,
// blobList/blobGc on the store, in both forms. The reports are the library's; the checks here are
// on exact values and file bytes.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { xs, scratchStore } = require('./helpers');

const HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
const MSG = '{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z",'
  + '"message":{"role":"user","content":"hi"}}';
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'; // sha256("abc")

test('verify reports a torn tail as fixable; repair writes its newline once', async (t) => {
  const { root, store, track } = scratchStore(t);
  const file = path.join(root, 'torn.jsonl');
  fs.writeFileSync(file, `${HEADER}\n${MSG}\n{"type":"mess`);
  const ro = track(await store.open(file, { readOnly: true }));
  const report = await ro.verify();
  assert.deepEqual(report, {
    path: file, id: 's1', fileVersion: 3, needsMigration: false, lines: 3, entries: 1, blobRefs: 0,
    problems: [{
      line: 3, offset: HEADER.length + MSG.length + 2, length: 13, code: 'incomplete_tail',
      reason: 'last line has no newline (an interrupted or unfinished write): invalid JSON: A string is opened, '
        + 'but never closed.',
      fixable: true,
    }],
  });
  assert.equal(ro.verifySync({ raw: true }), JSON.stringify(report));
  assert.throws(() => ro.repairSync(), { code: 'XS_EREADONLY', message: `${file} is open read-only` });

  const rw = track(store.openSync(file));
  const done = await rw.repair();
  assert.deepEqual(done.done.map((d) => [d.code, d.line]), [['newline_written', 3]]);
  assert.equal(fs.readFileSync(file, 'utf8'), `${HEADER}\n${MSG}\n{"type":"mess\n`);
  assert.deepEqual(rw.repairSync(), { path: file, done: [] });
  assert.deepEqual(rw.verifySync().problems.map((p) => [p.code, p.fixable]), [['invalid_json', false]]);
});

// A garbage line and a torn tail: what repair({quarantine: true}) moves out of the session.
const GARBAGE = 'not JSON at all';
const TORN = '{"type":"message","id":"m2","par';
const MSG2 = '{"type":"message","id":"m3","parentId":"m1","timestamp":"2026-01-01T00:00:02.000Z",'
  + '"message":{"role":"user","content":"again"}}';

// The quarantine file's records: each gives back the bytes at its old offset; together they are
// everything removed.
function checkQuarantine(file, original, quarantine) {
  assert.ok(quarantine.path.startsWith(`${file}.quarantine-`) && quarantine.path.endsWith('.jsonl'), quarantine.path);
  const records = fs.readFileSync(quarantine.path, 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));
  let removed = '';
  for (const r of records) {
    assert.equal(original.substr(r.offset, r.length), r.text);
    removed += r.text + (r.newline ? '\n' : '');
  }
  assert.equal(removed, `${GARBAGE}\n${TORN}`);
  assert.deepEqual(records.map((r) => [r.line, r.code, r.newline]),
    [[3, 'invalid_json', true], [5, 'incomplete_tail', false]]);
  assert.deepEqual(quarantine, { path: quarantine.path, lines: 2, bytes: removed.length });
}

test('repair({quarantine: true}) moves the lines that are not JSON out, in both forms', async (t) => {
  const { root, store, track } = scratchStore(t);
  const original = `${HEADER}\n${MSG}\n${GARBAGE}\n${MSG2}\n${TORN}`;
  let s;
  for (const form of ['promise', 'sync']) {
    const file = path.join(root, `${form}.jsonl`);
    fs.writeFileSync(file, original);
    s = track(store.openSync(file));
    const report = form === 'promise' ? await s.repair({ quarantine: true }) : s.repairSync({ quarantine: true });
    assert.deepEqual(report.done.map((d) => [d.code, d.line]), [['quarantined', 3], ['quarantined', 5]]);
    assert.equal(fs.readFileSync(file, 'utf8'), `${HEADER}\n${MSG}\n${MSG2}\n`);
    assert.deepEqual(s.verifySync().problems, []);
    checkQuarantine(file, original, report.quarantine);
    // Nothing is left to move; the raw form is the library's text.
    assert.equal(s.repairSync({ quarantine: true, raw: true }),
      JSON.stringify({ path: file, done: [], quarantine: null }));
  }
  assert.throws(() => s.repairSync({ quarantin: true }), {
    name: 'TypeError', message: "Session.repair: unknown key 'quarantin' in options",
  });
  assert.throws(() => s.repairSync({ quarantine: 'yes' }), {
    name: 'TypeError', message: 'Session.repair: quarantine must be a boolean (got string)',
  });
});

test('blobList lists and verifies; blobGc keeps what is referenced or young', async (t) => {
  const { root, store, track } = scratchStore(t);
  const used = store.blobPutSync('abc');
  const unused = await store.blobPut('hello');
  assert.equal(used, ABC);
  const s = track(store.create('/w', { noDefer: true }));
  s.appendMessage({ role: 'user', content: [{ type: 'image', data: `blob:sha256:${used}`, mimeType: 'image/png' }] });
  const old = 1700000000;
  for (const h of [used, unused]) fs.utimesSync(path.join(root, 'blobs', h), old, old);

  assert.deepEqual(store.blobListSync(), {
    count: 2, bytes: 8, others: [],
    blobs: [{ hash: unused, size: 5, mtimeMs: old * 1000 }, { hash: used, size: 3, mtimeMs: old * 1000 }],
  });
  fs.writeFileSync(path.join(root, 'blobs', used), 'abd');
  fs.utimesSync(path.join(root, 'blobs', used), old, old);
  const checked = await store.blobList({ verify: true });
  assert.deepEqual(checked.blobs.map((b) => b.problem), [null, `blob ${used} does not match its hash`]);
  fs.writeFileSync(path.join(root, 'blobs', used), 'abc');
  fs.utimesSync(path.join(root, 'blobs', used), old, old);

  const young = store.blobGcSync({ nowMs: old * 1000 + 1000 });
  assert.deepEqual([young.deleted, young.young.map((b) => b.name), young.referenced], [[], [unused], 1]);
  const dry = await store.blobGc({ nowMs: old * 1000 + 3600000, dryRun: true });
  assert.deepEqual([dry.dryRun, dry.deleted.map((b) => b.name), dry.bytesFreed], [true, [unused], 5]);
  assert.ok(fs.existsSync(path.join(root, 'blobs', unused)));
  const gone = await store.blobGc({ nowMs: old * 1000, graceMs: 0 });
  assert.deepEqual(gone.deleted.map((b) => b.name), [unused]);
  assert.equal(fs.existsSync(path.join(root, 'blobs', unused)), false);
  assert.equal(store.blobGetSync(used).toString(), 'abc');
});

test('upkeep arguments are checked in JS', async (t) => {
  const { store } = scratchStore(t);
  assert.throws(() => store.blobGcSync({ graceMs: -1 }), RangeError);
  assert.throws(() => store.blobGcSync({ grace: 1 }), TypeError);
  assert.throws(() => store.blobListSync({ verify: 'yes' }), TypeError);
  await assert.rejects(store.blobGc({ nowMs: 'now' }), TypeError);
});
