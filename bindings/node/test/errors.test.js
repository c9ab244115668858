'use strict';
// Library errors reach JS as Error objects with `code` (the status macro's name), `status` (its
// number) and the library's own message for that very call, thrown or as a rejection.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { xs, scratchStore, FIXED, user, assistant } = require('./helpers');

const libError = (code, message) => (err) => {
  assert.ok(err instanceof Error, 'an Error object');
  assert.equal(err.code, code);
  assert.equal(err.status, xs.status[code]);
  assert.equal(err.message, message);
  return true;
};

test('the status table and statusString mirror xsession.h', () => {
  assert.equal(xs.status.XS_OK, 0);
  assert.equal(xs.status.XS_ENOTFOUND, -5);
  assert.equal(xs.status.XS_ELOCKED, -10);
  assert.equal(xs.status.XS_EAMBIGUOUS, -18);
  assert.equal(xs.status.XS_EDIALECT, -19);
  assert.equal(xs.status.XS_EINTERNAL, -99);
  assert.equal(Object.keys(xs.status).length, 21);
  assert.ok(Object.isFrozen(xs.status));
  assert.equal(xs.statusString(xs.status.XS_ENOTFOUND), 'XS_ENOTFOUND: not found');
  assert.equal(xs.statusString(12345), 'unknown status');
  assert.deepEqual(xs.version(), xs.bindingVersion);
  assert.deepEqual(Object.keys(xs.version()), ['major', 'minor', 'patch']);
});

test('a second writer gets XS_ELOCKED with the library message (sync and async)', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(store.create('/w', { ...FIXED, noDefer: true }));
  const file = s.info().path;
  const message = `${file} is open for writing by another handle or process`;
  assert.throws(() => store.openSync(file), libError('XS_ELOCKED', message));
  await assert.rejects(store.open(file), libError('XS_ELOCKED', message));
  // Any number of readers are fine, and they cannot write.
  const reader = track(await store.open(file, { readOnly: true }));
  assert.throws(() => reader.appendMessage(user('no')), libError('XS_EREADONLY', `${file} is open read-only`));
});

test('not found, invalid JSON, invalid UTF-8 and bad options carry their own codes and messages', async (t) => {
  const { root, store, track } = scratchStore(t);
  const missing = path.join(root, 'none.jsonl');
  assert.throws(() => store.openSync(missing), libError('XS_ENOTFOUND', `${missing}: no such session file`));
  const s = track(store.create('/w', FIXED));
  s.appendMessage(user('q'));
  assert.throws(() => s.setLeaf('nope'), libError('XS_ENOTFOUND', 'entry nope not found'));
  assert.throws(() => s.buildContextSync('zzz'), libError('XS_ENOTFOUND', 'entry zzz not found'));
  await assert.rejects(s.buildContext('zzz'), libError('XS_ENOTFOUND', 'entry zzz not found'));
  assert.throws(() => s.append('{bad'), libError('XS_EINVAL',
    'invalid JSON: The JSON document has an improper structure: missing or superfluous commas, braces, missing keys, etc.'));
  // A Buffer passes its bytes as they are, so the library sees (and refuses) invalid UTF-8.
  const bad = Buffer.concat([Buffer.from('{"role":"user","content":"'), Buffer.from([0xff]), Buffer.from('"}')]);
  assert.throws(() => s.appendMessage(bad), libError('XS_EINVAL', 'message: invalid UTF-8'));
  assert.throws(() => s.appendMessage(12), libError('XS_EINVAL', 'a message must be a JSON object'));
  assert.throws(() => store.create('/w', { maxDepth: 5000 }), libError('XS_EINVAL', 'max_depth must be between 3 and 4096'));
  assert.throws(() => store.create('/w', { sessionId: 'bad id' }),
                libError('XS_EINVAL', 'session id must be 1-64 characters of [A-Za-z0-9_-]'));
  // A failed append leaves the session as it was.
  assert.equal(s.buildContextSync().messages.length, 1);
});

test('concurrent failing calls on one session each report their own message', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(store.create('/w', FIXED));
  s.appendMessage(user('q'));
  s.appendMessage(assistant('a'));
  const ids = Array.from({ length: 16 }, (_, i) => `missing${i}`);
  const results = await Promise.allSettled(ids.map((id) => s.buildContext(id)));
  results.forEach((r, i) => {
    assert.equal(r.status, 'rejected');
    libError('XS_ENOTFOUND', `entry ${ids[i]} not found`)(r.reason);
  });
});

test('an ambiguous id prefix is XS_EAMBIGUOUS; a unique one resolves', async (t) => {
  const { store, track } = scratchStore(t);
  const a = track(store.create('/w', { noDefer: true, sessionId: 'abc1' }));
  const b = track(store.create('/w', { noDefer: true, sessionId: 'abc2' }));
  assert.equal(store.resolve('abc1'), a.info().path);
  assert.equal(store.resolve('abc2', '/w'), b.info().path);
  assert.throws(() => store.resolve('abc'), (err) => err.code === 'XS_EAMBIGUOUS' && err.status === -18 &&
                err.message.includes('abc1') && err.message.includes('abc2'));
  assert.throws(() => store.resolve('zzz'), { code: 'XS_ENOTFOUND' });
});
