'use strict';
// What makes the binding feel like Node: an XsError class, lastStatus(), close() that reports the
// final flush's error, Symbol.dispose / Symbol.asyncDispose, and Promise forms of the appends.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { xs, scratch, scratchStore, FIXED, user, assistant } = require('./helpers');

test('XsError: a class of its own, an Error, thrown and rejected with', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(store.create('/w', FIXED));
  const sync = (() => {
    try {
      s.entry('nope');
    } catch (err) {
      return err;
    }
    return null;
  })();
  assert.ok(sync instanceof xs.XsError);
  assert.ok(sync instanceof Error);
  assert.equal(sync.name, 'XsError');
  assert.equal(sync.code, 'XS_ENOTFOUND');
  assert.equal(sync.status, xs.status.XS_ENOTFOUND);
  assert.equal(sync.message, 'entry nope not found');
  assert.equal(String(sync), 'XsError: entry nope not found');
  assert.match(sync.stack, /^XsError: entry nope not found\n/);
  await assert.rejects(s.buildContext('nope'), (err) => err instanceof xs.XsError && err.code === 'XS_ENOTFOUND');
  await assert.rejects(s.appendMessageAsync(12), (err) => err instanceof xs.XsError && err.code === 'XS_EINVAL');
  // The binding's own XS_ECLOSED is one too; argument errors stay TypeErrors.
  s.close();
  assert.throws(() => s.leaf(), (err) => err instanceof xs.XsError && err.code === 'XS_ECLOSED' && err.status === -4);
  assert.throws(() => store.create(42), (err) => err instanceof TypeError && !(err instanceof xs.XsError));
  // Users may make their own (tests, wrappers), with the same fields.
  const mine = new xs.XsError('mine', 'XS_EIO', xs.status.XS_EIO);
  assert.deepEqual([mine.message, mine.code, mine.status, mine.name], ['mine', 'XS_EIO', -9, 'XsError']);
  class Sub extends xs.XsError {}
  assert.ok(new Sub('x', 'XS_ERROR', -1) instanceof xs.XsError);
});

test('lastStatus(): the status of the handle\'s last call', async (t) => {
  const { root, store, track } = scratchStore(t);
  assert.equal(store.lastStatus(), 0);
  assert.throws(() => store.openSync(path.join(root, 'none.jsonl')), { code: 'XS_ENOTFOUND' });
  assert.equal(store.lastStatus(), xs.status.XS_ENOTFOUND);
  store.sessionDir('/w');
  assert.equal(store.lastStatus(), 0);
  const s = track(store.create('/w', FIXED));
  assert.equal(s.lastStatus(), 0);
  assert.throws(() => s.setLeaf('nope'), { code: 'XS_ENOTFOUND' });
  assert.equal(s.lastStatus(), xs.status.XS_ENOTFOUND);
  await assert.rejects(s.appendMessageAsync('{bad'), { code: 'XS_EINVAL' });
  assert.equal(s.lastStatus(), xs.status.XS_EINVAL);
  s.appendMessage(user('q'));
  assert.equal(s.lastStatus(), 0);
  s.close();
  assert.throws(() => s.lastStatus(), { code: 'XS_ECLOSED' });
});

// A child process under a file-size limit (Node ignores SIGXFSZ, so a write past it fails with
// EFBIG): an append fails and poisons the session, whose final flush then fails too.
function underSizeLimit(t, script) {
  const root = scratch(t);
  const file = path.join(root, 'child.js');
  fs.writeFileSync(file, `'use strict';\nconst xs = require(${JSON.stringify(path.join(__dirname, '..'))});\n${script}`);
  return execFileSync('bash', ['-c', 'ulimit -f 4 && exec "$0" "$@"', process.execPath, file, path.join(root, 'st')],
                      { encoding: 'utf8' }).trim().split('\n');
}

test('close() throws the final flush\'s error, and the session is closed all the same', (t) => {
  const out = underSizeLimit(t, `
const store = new xs.Store(process.argv[2]);
const s = store.create('/p', { noDefer: true });
try { s.appendMessage({ role: 'user', content: 'x'.repeat(10000) }); } catch (e) { console.log('append', e.code); }
try { s.close(); } catch (e) { console.log('close', e instanceof xs.XsError, e.code); }
console.log('closed', s.closed);
s.close();
console.log('again');
const d = store.create('/p', { noDefer: true });
try { d.appendMessage({ role: 'user', content: 'y'.repeat(10000) }); } catch (e) { console.log('append', e.code); }
d[Symbol.asyncDispose]().then(() => console.log('no error'), (e) => {
  console.log('asyncDispose', e.code, d.closed);
  const u = store.create('/p', { noDefer: true });
  try { u.appendMessage({ role: 'user', content: 'z'.repeat(10000) }); } catch (e) { console.log('append', e.code); }
  try { u[Symbol.dispose](); } catch (e) { console.log('dispose', e.code, u.closed); }
});
`);
  assert.deepEqual(out, ['append XS_ENOSPC', 'close true XS_EPOISONED', 'closed true', 'again',
                         'append XS_ENOSPC', 'asyncDispose XS_EPOISONED true', 'append XS_ENOSPC',
                         'dispose XS_EPOISONED true']);
});

test('Symbol.dispose and Symbol.asyncDispose close stores and sessions', async (t) => {
  const root = scratch(t);
  const store = new xs.Store(root);
  const s = store.create('/w', { ...FIXED, sync: true });
  s.appendMessage(user('q'));
  s.appendMessage(assistant('a'));
  const file = s.info().path;
  await s[Symbol.asyncDispose]();
  assert.equal(s.closed, true);
  await s[Symbol.asyncDispose](); // as close(): a second time is harmless
  s[Symbol.dispose]();
  const again = store.openSync(file); // the writer lock was released
  again[Symbol.dispose]();
  assert.equal(again.closed, true);
  assert.equal(fs.readFileSync(file, 'utf8').split('\n').length, 4);
  store[Symbol.dispose]();
  assert.equal(store.closed, true);
  const other = new xs.Store(root);
  await other[Symbol.asyncDispose]();
  assert.equal(other.closed, true);
});

test('every append has a Promise form that writes exactly what the synchronous one does', async (t) => {
  const { store, track } = scratchStore(t);
  const appends = (s, suffix) => {
    const call = (name, ...args) => s[`${name}${suffix}`](...args);
    return [
      () => call('appendMessage', user('q')),
      () => call('appendMessage', assistant('a')),
      () => call('append', { type: 'custom', customType: 'raw', data: 1 }),
      () => call('appendThinkingLevel', 'high'),
      () => call('appendModelChange', 'anthropic/claude-x', 'smol'),
      (first) => call('appendCompaction', { summary: 's', firstKeptEntryId: first, tokensBefore: 5 }),
      () => call('appendCustom', 'ext', { k: 1 }),
      () => call('appendCustomMessage', { customType: 'note', content: [{ type: 'text', text: 'hi' }] }),
      (first) => call('appendLabel', first, 'start'),
      () => call('appendTtsrInjection', ['r']),
      () => call('appendSessionInit', { systemPrompt: 'p', task: 't', tools: ['read'] }),
      () => call('appendModeChange', 'plan'),
      (first) => call('branchWithSummary', first, 'back'),
    ];
  };
  const sync = track(store.create('/w', { ...FIXED, noDefer: true, sessionId: 'same' }));
  const syncIds = [];
  for (const step of appends(sync, '')) syncIds.push(step(syncIds[0]));
  const syncPath = sync.info().path;
  const syncFile = fs.readFileSync(syncPath);
  sync.close();
  fs.rmSync(syncPath); // the same id again, for the same bytes

  const durable = track(store.create('/w', { ...FIXED, noDefer: true, sessionId: 'same', sync: true }));
  const asyncIds = [];
  for (const step of appends(durable, 'Async')) {
    const pending = step(asyncIds[0]);
    assert.ok(pending instanceof Promise);
    asyncIds.push(await pending);
  }
  assert.deepEqual(asyncIds, syncIds);
  assert.deepEqual(fs.readFileSync(durable.info().path), syncFile);
  const pi = track(store.create('/w', { ...FIXED, dialect: 'pi' }));
  assert.match(await pi.appendSessionInfoAsync('title'), /^[0-9a-f]{8}$/);
  await assert.rejects(pi.appendModeChangeAsync('plan'), { code: 'XS_EDIALECT' });
});
