'use strict';
// Store.export and Store.importBundle (docs/bundles.md): a session and its fork carried to an empty
// store byte for byte, a second import that changes nothing, a dry run, a cwd map in each of its
// forms, a clash refused then renamed, a damaged bundle refused with the store untouched, the
// argument errors with their exact statuses, and the reports held to their declared types.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scratch, scratchStore, FIXED, user, assistant, runReadmeExample, xsError } = require('./helpers');
const { record, checkRecordedTypes } = require('./typed_outputs');

const typeError = (message) => ({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message });

// A store with a session in /w/app and a fork of it (whose parentSession is its id), both closed.
function forked(t) {
  const { root, store } = scratchStore(t);
  const parent = store.create('/w/app', { ...FIXED, noDefer: true });
  parent.appendMessage(user('Why does the build fail?'));
  parent.appendMessage(assistant('A missing include.'));
  const child = parent.forkSync({ ...FIXED, idSeed: 8 });
  child.appendMessage(user('And the linker flags?'));
  const [p, c] = [parent.info(), child.info()];
  parent.close();
  child.close();
  return { root, store, parent: p, child: c };
}

// Every file under dir with its bytes (an empty object for a directory that is not there).
function picture(dir, out = {}, prefix = '') {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) picture(path.join(dir, e.name), out, `${prefix}${e.name}/`);
    else out[prefix + e.name] = fs.readFileSync(path.join(dir, e.name));
  }
  return out;
}

// The session files of a store (not their .lock files) with their bytes.
function sessionFiles(root) {
  const all = picture(path.join(root, 'sessions'));
  return Object.fromEntries(Object.entries(all).filter(([name]) => name.endsWith('.jsonl')));
}

// The report is the raw text decoded: encoding it again gives the same text.
function decoded(raw, type) {
  const report = JSON.parse(raw);
  assert.equal(JSON.stringify(report), raw);
  record(type, report, type);
  return report;
}

test('export carries the fork and its parent; the import writes the same bytes, then finds them present', async (t) => {
  const { root, store, parent, child } = forked(t);
  assert.equal(child.parentSession, parent.id); // the fork names its parent: the lineage to follow
  const bundle = path.join(scratch(t), 'two.xsb');
  const exported = decoded(store.exportSync([child.id], bundle, { raw: true }), 'BundleExportReport');
  const bytes = fs.readFileSync(bundle);
  assert.deepEqual([...bytes.subarray(0, 4)], [0x28, 0xb5, 0x2f, 0xfd]); // zstd's magic
  assert.deepEqual(exported, {
    path: bundle,
    bytes: bytes.length,
    compression: 'zstd',
    sessions: [
      { id: child.id, path: child.path, cwd: '/w/app', archived: false, lineage: false,
        bytes: fs.statSync(child.path).size, parentSession: parent.id, parentInBundle: true },
      { id: parent.id, path: parent.path, cwd: '/w/app', archived: false, lineage: true,
        bytes: fs.statSync(parent.path).size, parentSession: null, parentInBundle: false },
    ],
    blobs: [],
    missingBlobs: [],
    keys: [],
  });
  // The Promise form, parsed: the same report, and the same bundle byte for byte.
  assert.deepEqual(await store.export(child.id, bundle), exported);
  assert.deepEqual(fs.readFileSync(bundle), bytes);

  const other = scratchStore(t);
  const imported = decoded(await other.store.importBundle(bundle, { raw: true }), 'BundleImportReport');
  const placed = (info) => path.join(other.root, path.relative(root, info.path));
  assert.deepEqual(imported, {
    dryRun: false,
    bundle,
    sourceRoot: root,
    sessions: [child, parent].map((s) => ({ id: s.id, newId: null, path: placed(s), cwd: '/w/app', oldCwd: null,
                                            archived: false, action: 'imported' })),
    blobs: [],
    keys: [],
  });
  const files = sessionFiles(root);
  const names = [child, parent].map((s) => path.relative(path.join(root, 'sessions'), s.path));
  assert.deepEqual(Object.keys(files).sort(), names.sort());
  assert.deepEqual(sessionFiles(other.root), files);

  const again = other.store.importBundleSync(bundle);
  assert.deepEqual(again.sessions.map((s) => [s.id, s.action, s.path]),
                   [[child.id, 'present', placed(child)], [parent.id, 'present', placed(parent)]]);
  assert.deepEqual(sessionFiles(other.root), files);
});

test('lineage: false carries the named session only; gzip compresses with gzip', async (t) => {
  const { store, parent, child } = forked(t);
  const bundle = path.join(scratch(t), 'one.xsb');
  const report = await store.export([child.id, child.id], bundle, { lineage: false, gzip: true });
  assert.equal(report.compression, 'gzip');
  assert.deepEqual([...fs.readFileSync(bundle).subarray(0, 2)], [0x1f, 0x8b]);
  assert.deepEqual(report.sessions.map((s) => [s.id, s.lineage, s.parentSession, s.parentInBundle]),
                   [[child.id, false, parent.id, false]]); // named twice, carried once
  const { store: other } = scratchStore(t);
  assert.deepEqual(other.importBundleSync(bundle).sessions.map((s) => [s.id, s.action]), [[child.id, 'imported']]);
});

test('a dry run reports what it would do and writes nothing, in both forms', async (t) => {
  const { store, parent, child } = forked(t);
  const bundle = path.join(scratch(t), 'b.xsb');
  store.exportSync(child.id, bundle);
  const { root, store: other } = scratchStore(t);
  const dry = other.importBundleSync(bundle, { dryRun: true });
  assert.equal(dry.dryRun, true);
  assert.deepEqual(dry.sessions.map((s) => [s.id, s.action]), [[child.id, 'imported'], [parent.id, 'imported']]);
  assert.deepEqual(await other.importBundle(bundle, { dryRun: true }), dry);
  assert.deepEqual(fs.readdirSync(root), []);
  // The real import does what the dry run said.
  const real = other.importBundleSync(bundle);
  assert.deepEqual(real, { ...dry, dryRun: false });
});

test('a cwd map moves the sessions and keeps the old cwd; a Map, pairs and an object map alike', async (t) => {
  const { store, parent, child } = forked(t);
  const bundle = path.join(scratch(t), 'b.xsb');
  store.exportSync(child.id, bundle);
  const { root, store: other } = scratchStore(t);
  const report = await other.importBundle(bundle, { cwdMap: new Map([['/w', '/srv/me']]) });
  const dir = path.join(root, 'sessions', '--srv-me-app--');
  assert.deepEqual(report.sessions.map((s) => [s.id, s.cwd, s.oldCwd, s.path, s.action]), [
    [child.id, '/srv/me/app', '/w/app', path.join(dir, path.basename(child.path)), 'imported'],
    [parent.id, '/srv/me/app', '/w/app', path.join(dir, path.basename(parent.path)), 'imported'],
  ]);
  const s = other.openSync(parent.id, { readOnly: true });
  t.after(() => s.close());
  assert.equal(s.header().cwd, '/srv/me/app');
  assert.match(s.header({ raw: true }), /"originalCwd":"\/w\/app"/);
  // The same map as pairs and as an object: the same report (dry runs: nothing more placed).
  const pairs = other.importBundleSync(bundle, { cwdMap: [['/w', '/srv/me']], dryRun: true });
  assert.deepEqual(pairs.sessions.map((x) => x.action), ['present', 'present']);
  assert.deepEqual(other.importBundleSync(bundle, { cwdMap: { '/w': '/srv/me' }, dryRun: true }), pairs);
  // The first pair that applies wins (into another store: this one has the ids under /srv/me).
  const first = scratchStore(t).store.importBundleSync(bundle, { cwdMap: [['/w/app', '/a'], ['/w', '/b']],
                                                                 dryRun: true });
  assert.deepEqual(first.sessions.map((x) => [x.cwd, x.oldCwd]), [['/a', '/w/app'], ['/a', '/w/app']]);
});

test('a clash is XS_EEXISTS and writes nothing; rename imports the copy under a new id, and again finds it', (t) => {
  const { store, parent, child } = forked(t);
  const bundle = path.join(scratch(t), 'b.xsb');
  store.exportSync(child.id, bundle);
  // Another store holds the parent's id (and file name) with other bytes.
  const { root, store: other } = scratchStore(t);
  const mine = other.create('/w/app', { ...FIXED, sessionId: parent.id, noDefer: true });
  mine.appendMessage(user('Something else entirely'));
  const minePath = mine.info().path;
  mine.close();
  assert.equal(path.basename(minePath), path.basename(parent.path));
  const before = picture(root);
  assert.throws(() => other.importBundleSync(bundle),
                xsError('XS_EEXISTS', `session ${parent.id} is already in the store with other content (${minePath}); ` +
                                      'import with rename to give the bundle\'s copy a new id'));
  assert.deepEqual(picture(root), before);

  const renamed = other.importBundleSync(bundle, { rename: true });
  const [c, p] = renamed.sessions;
  assert.deepEqual([c.id, c.action, p.id, p.action], [child.id, 'imported', parent.id, 'renamed']);
  assert.match(p.newId, /^[0-9a-f]{16}$/);
  assert.equal(path.basename(p.path), path.basename(parent.path).replace(parent.id, p.newId));
  assert.deepEqual(fs.readFileSync(minePath), before[path.relative(root, minePath)]); // its own session kept
  const copy = other.openSync(p.path, { readOnly: true });
  const fork = other.openSync(c.path, { readOnly: true });
  t.after(() => { copy.close(); fork.close(); });
  assert.equal(copy.header().id, p.newId);
  assert.equal(fork.header().parentSession, p.newId); // the fork's link follows the rename
  assert.deepEqual(other.importBundleSync(bundle, { rename: true }).sessions.map((s) => [s.action, s.newId]),
                   [['present', null], ['present', p.newId]]);
});

test('a bundle cut short is XS_ECORRUPT and the store is left as it was', async (t) => {
  const { root, store, child } = forked(t);
  const dir = scratch(t);
  const bundle = path.join(dir, 'b.xsb');
  store.exportSync(child.id, bundle);
  const bytes = fs.readFileSync(bundle);
  const cut = path.join(dir, 'cut.xsb');
  fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
  const { root: emptyRoot, store: empty } = scratchStore(t);
  assert.throws(() => empty.importBundleSync(cut), xsError('XS_ECORRUPT'));
  await assert.rejects(empty.importBundle(cut), xsError('XS_ECORRUPT'));
  assert.deepEqual(fs.readdirSync(emptyRoot), []);
  const before = picture(root);
  fs.writeFileSync(cut, 'not a bundle');
  assert.throws(() => store.importBundleSync(cut),
                xsError('XS_ECORRUPT', 'not a bundle, or a damaged one (Unrecognized archive format)'));
  assert.deepEqual(picture(root), before);
});

test('export and importBundle: argument errors, the library statuses and TypeErrors', async (t) => {
  const { root, store, child } = forked(t);
  const dir = scratch(t);
  const bundle = path.join(dir, 'b.xsb');
  // Empty or unknown names and paths reach the library, whose statuses answer them.
  assert.throws(() => store.exportSync([], bundle), xsError('XS_EINVAL', 'n_ids is 0: name at least one session'));
  await assert.rejects(store.export('nope', bundle), xsError('XS_ENOTFOUND', 'no session matches "nope"'));
  assert.throws(() => store.exportSync(child.id, ''), xsError('XS_EINVAL'));
  assert.throws(() => store.exportSync('', bundle), xsError('XS_EINVAL'));
  assert.throws(() => store.importBundleSync(''), xsError('XS_EINVAL'));
  assert.throws(() => store.importBundleSync(bundle), xsError('XS_ENOTFOUND', `bundle ${bundle} does not exist`));
  assert.deepEqual(fs.readdirSync(dir), []);
  store.exportSync(child.id, bundle);
  const before = picture(root);
  await assert.rejects(store.importBundle(bundle, { cwdMap: { '/w': 'relative' } }), xsError('XS_EINVAL'));
  // The binding's own checks: nothing reaches the library.
  assert.throws(() => store.exportSync(undefined, bundle),
                typeError('Store.export: ids must be a string or an array of strings (got undefined)'));
  await assert.rejects(store.export([child.id, 5], bundle), typeError('Store.export: ids[1] must be a string (got number)'));
  assert.throws(() => store.exportSync(child.id), typeError('Store.export: outPath must be a string (got undefined)'));
  assert.throws(() => store.exportSync(['a\0b'], bundle), typeError('Store.export: ids[0] must not contain NUL characters'));
  assert.throws(() => store.exportSync(child.id, bundle, { lineage: 'no' }),
                typeError('Store.export: lineage must be a boolean (got string)'));
  assert.throws(() => store.exportSync(child.id, bundle, { noLineage: true }),
                typeError("Store.export: unknown key 'noLineage' in options"));
  assert.throws(() => store.importBundleSync(), typeError('Store.importBundle: bundlePath must be a string (got undefined)'));
  await assert.rejects(store.importBundle(bundle, { cwdMap: 5 }),
                       typeError('Store.importBundle: cwdMap must be a Map, an array of pairs or an object (got number)'));
  assert.throws(() => store.importBundleSync(bundle, { cwdMap: [['/w']] }),
                typeError('Store.importBundle: cwdMap[0] must be a pair [from, to] (got array)'));
  assert.throws(() => store.importBundleSync(bundle, { cwdMap: new Map([['/w', 5]]) }),
                typeError('Store.importBundle: cwdMap[0][1] must be a string (got number)'));
  assert.throws(() => store.importBundleSync(bundle, { rename: 1 }),
                typeError('Store.importBundle: rename must be a boolean (got number)'));
  assert.throws(() => store.importBundleSync(bundle, { cwd_map: [] }),
                typeError("Store.importBundle: unknown key 'cwd_map' in options"));
  assert.deepEqual(picture(root), before);
  store.close();
  assert.throws(() => store.exportSync(child.id, bundle), { code: 'XS_ECLOSED' });
  await assert.rejects(store.importBundle(bundle), { code: 'XS_ECLOSED' });
});

test('the reports are the types bundles.d.ts declares', () => {
  assert.ok(checkRecordedTypes(2) >= 2);
});

test("the README's bundle example runs as shown", (t) => {
  const { printed, shown } = runReadmeExample(t, 'Bundles and HTML pages');
  assert.deepEqual(printed, shown);
  assert.deepEqual(shown, ['1 zstd', 'imported /srv/me/app', '1 <!DOCTYPE html>']);
});
