'use strict';
// Wrong-type arguments from JS: each is a TypeError/RangeError with a message naming the method
// and the argument, never a crash, and never a call that reaches the library with garbage.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { xs, scratchStore, FIXED, user } = require('./helpers');

const typeError = (message) => ({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message });
const rangeError = (message) => ({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message });

function fixture(t) {
  const { store, track } = scratchStore(t);
  const s = track(store.create('/w', FIXED));
  s.appendMessage(user('q'));
  return { store, s };
}

test('a method called on the wrong object is a TypeError', (t) => {
  const { store, s } = fixture(t);
  for (const receiver of [{}, store, null, undefined, 42, Object.create(xs.Session.prototype)]) {
    assert.throws(() => xs.Session.prototype.leaf.call(receiver), { name: 'TypeError' });
    assert.throws(() => xs.Session.prototype.close.call(receiver), { name: 'TypeError' });
  }
  assert.throws(() => xs.Store.prototype.create.call(s, '/w'), { name: 'TypeError' });
  // Reflect.apply with a detached method and a plain object: still refused, nothing freed.
  assert.throws(() => Reflect.apply(s.appendMessage, {}, [user('x')]), { name: 'TypeError' });
  assert.equal(s.closed, false);
  assert.equal(s.buildContextSync().messages.length, 1);
});

test('strings, names and JSON arguments of the wrong type', (t) => {
  const { store, s } = fixture(t);
  const cases = [
    [() => new xs.Store(42), typeError('Store.constructor: root must be a string (got number)')],
    [() => new xs.Store(), typeError('Store.constructor: root must be a string (got undefined)')],
    [() => store.create(), typeError('Store.create: cwd must be a string (got undefined)')],
    [() => store.create(['/w']), typeError('Store.create: cwd must be a string (got array)')],
    [() => store.create('/w\0evil'), typeError('Store.create: cwd must not contain NUL characters')],
    [() => store.openSync(Symbol('x')), typeError('Store.open: pathOrId must be a string (got symbol)')],
    [() => s.setLeaf(7n), typeError('Session.setLeaf: id must be a string or null (got bigint)')],
    [() => s.appendModelChange('a/b', 3), typeError('Session.appendModelChange: role must be a string or null (got number)')],
    [() => s.appendMessage(), typeError('Session.appendMessage: message must be a JSON-serialisable value, JSON text or a Buffer (got undefined)')],
    [() => s.appendMessage(() => 1), typeError('Session.appendMessage: message must be a JSON-serialisable value, JSON text or a Buffer (got function)')],
    [() => s.appendMessage({ toJSON: () => undefined }), typeError('Session.appendMessage: message must be a JSON-serialisable value (got object)')],
    [() => s.appendMessage(new Uint16Array(4)),
      typeError('Session.appendMessage: message must be a Buffer or Uint8Array, not another typed array (got object)')],
    [() => s.appendMessage('{"role":"user","content":"\ud800"}'),
      typeError('Session.appendMessage: message is not valid Unicode (it holds a lone surrogate, which UTF-8 cannot encode)')],
    [() => s.setTitleSync(5), typeError('Session.setTitle: title must be a string or null (got number)')],
    [() => s.appendSessionInfo(null), typeError('Session.appendSessionInfo: name must be a string (got null)')],
    [() => s.appendCompaction('summary'), typeError('Session.appendCompaction: the argument must be an object with the entry\'s fields')],
    [() => s.appendCompaction({ summary: 's', firstKeptEntryId: 'x' }),
      typeError('Session.appendCompaction: tokensBefore must be an integer (number or bigint) (got undefined)')],
    [() => s.appendCompaction({ summary: 's', firstKeptEntryId: 'x', tokensBefore: 1.5 }),
      typeError('Session.appendCompaction: tokensBefore must be an integer (got number)')],
    [() => s.appendCompaction({ summary: 's', firstKeptEntryId: 'x', tokensBefore: 1, fromExtension: 'yes' }),
      typeError('Session.appendCompaction: fromExtension must be a boolean (got string)')],
    [() => s.appendCustomMessage({ customType: 'c', content: '"x"', colour: 'red' }),
      typeError("Session.appendCustomMessage: unknown key 'colour' in the argument")],
    [() => store.blobPutSync(123), typeError('Store.blobPut: data must be a Buffer, a Uint8Array, an ArrayBuffer or a string (got number)')],
    [() => xs.statusString('x'), typeError('xsession.statusString: code must be an integer (number or bigint) (got string)')],
  ];
  for (const [fn, expected] of cases) assert.throws(fn, expected);
  // A circular value fails in JSON.stringify itself, with its own TypeError.
  const circular = { role: 'user' };
  circular.self = circular;
  assert.throws(() => s.appendMessage(circular), { name: 'TypeError', message: /circular/ });
  assert.throws(() => s.appendMessage({ role: 'user', content: 1n }), { name: 'TypeError', message: /BigInt/ });
  // None of that reached the session.
  assert.equal(s.buildContextSync().messages.length, 1);
});

test('options: unknown keys, wrong types and out-of-range numbers', (t) => {
  const { store, s } = fixture(t);
  const cases = [
    [() => store.create('/w', { readonly: true }), typeError("Store.create: unknown key 'readonly' in options")],
    [() => store.create('/w', 'readOnly'), typeError('Store.create: options must be an options object (got string)')],
    [() => store.create('/w', [true]), typeError('Store.create: options must be an options object (got array)')],
    [() => store.create('/w', { noDefer: 1 }), typeError('Store.create: noDefer must be a boolean (got number)')],
    [() => store.create('/w', { maxDepth: -1 }), rangeError('Store.create: maxDepth must be between 0 and 4294967295')],
    [() => store.create('/w', { maxDepth: 2 ** 40 }), rangeError('Store.create: maxDepth must be between 0 and 4294967295')],
    [() => store.create('/w', { maxLineBytes: -5 }), rangeError('Store.create: maxLineBytes must be between 0 and 9223372036854775807')],
    [() => store.create('/w', { idSeed: 2 ** 64 }), rangeError('Store.create: idSeed must be between 0 and 9223372036854775807')],
    [() => store.create('/w', { idSeed: -1n }), rangeError('Store.create: idSeed must be between 0 and 2^64-1')],
    [() => store.create('/w', { clockStartMs: Number.MAX_SAFE_INTEGER + 2 }),
      rangeError('Store.create: clockStartMs must be between -9223372036854775808 and 9223372036854775807')],
    [() => store.create('/w', { clockStartMs: 2n ** 63n }),
      rangeError('Store.create: clockStartMs must be between -9223372036854775808 and 9223372036854775807')],
    [() => store.create('/w', { clockStartMs: NaN }), typeError('Store.create: clockStartMs must be an integer (got number)')],
    [() => store.create('/w', { clockStartMs: Infinity }), typeError('Store.create: clockStartMs must be an integer (got number)')],
    [() => store.create('/w', { title: 7 }), typeError('Store.create: title must be a string or null (got number)')],
    [() => store.listSync({ limit: -1 }), rangeError('Store.list: limit must be between 0 and 9223372036854775807')],
    [() => store.listSync({ cwd: 1 }), typeError('Store.list: cwd must be a string or null (got number)')],
    [() => s.entriesSync({ resolve: true }), typeError("Session.entries: unknown key 'resolve' in options")],
    [() => s.header({ resolveBlobs: true }), typeError("Session.header: unknown key 'resolveBlobs' in options")],
    [() => s.header({ raw: 'yes' }), typeError('Session.header: raw must be a boolean (got string)')],
    [() => new xs.Store(null, { inMemory: 'yes' }), typeError('Store.constructor: inMemory must be a boolean (got string)')],
    // A dialect is named; auto is what an absent option means, so 'auto' is not one.
    [() => store.create('/w', { dialect: 'auto' }), typeError("Store.create: dialect must be 'omp' or 'pi' (got 'auto')")],
    [() => store.create('/w', { dialect: 'PI' }), typeError("Store.create: dialect must be 'omp' or 'pi' (got 'PI')")],
    [() => store.create('/w', { dialect: 2 }), typeError('Store.create: dialect must be a string or null (got number)')],
    [() => s.forkSync({ dialect: true }), typeError('Session.fork: dialect must be a string or null (got boolean)')],
    [() => new xs.Store(null, { inMemory: true, dialect: 'pie' }),
      typeError("Store.constructor: dialect must be 'omp' or 'pi' (got 'pie')")],
    [() => new xs.Store(null, { inMemory: true, dialect: null, dialects: 'pi' }),
      typeError("Store.constructor: unknown key 'dialects' in options")],
  ];
  for (const [fn, expected] of cases) assert.throws(fn, expected);
  // BigInts are accepted where the C field is 64-bit, including beyond Number's safe range.
  const big = store.create('/w', { idSeed: 2n ** 63n + 5n, clockStartMs: 1767225600000n, noDefer: true });
  assert.equal(big.header().timestamp, '2026-01-01T00:00:00.000Z');
  big.close();
});

test('the Promise forms reject with the TypeError instead of throwing', async (t) => {
  const { store, s } = fixture(t);
  let p;
  assert.doesNotThrow(() => { p = store.open(42); });
  await assert.rejects(p, typeError('Store.open: pathOrId must be a string (got number)'));
  await assert.rejects(s.buildContext(5), typeError('Session.buildContext: leafId must be a string or null (got number)'));
  await assert.rejects(s.entries({ nope: 1 }), typeError("Session.entries: unknown key 'nope' in options"));
  // Only a foreign receiver throws at once: V8 checks it before the method runs.
  assert.throws(() => xs.Session.prototype.flush.call({}), { name: 'TypeError', message: 'Illegal invocation' });
  await assert.rejects(store.blobGet(null), typeError('Store.blobGet: hash must be a string (got null)'));
});

test('arguments of the right shape in the other accepted forms', (t) => {
  const { store, s } = fixture(t);
  // JSON as a value, as text and as a Buffer / Uint8Array / ArrayBuffer of UTF-8.
  const text = '{"role":"user","content":"two"}';
  const ids = [
    s.appendMessage({ role: 'user', content: 'one' }),
    s.appendMessage(text),
    s.appendMessage(Buffer.from(text)),
    s.appendMessage(new Uint8Array(Buffer.from(text))),
    s.appendMessage(new Uint8Array(Buffer.from(text)).buffer),
  ];
  assert.equal(new Set(ids).size, 5);
  for (const id of ids.slice(1)) assert.equal(JSON.stringify(s.entry(id).message), text);
  // Extra arguments are ignored, as JS functions do.
  assert.equal(s.leaf(1, 2, 3), ids[4]);
  // A genuine U+FFFD (not a lone surrogate) is ordinary text.
  const id = s.appendMessage({ role: 'user', content: 'replacement \ufffd char' });
  assert.equal(s.entry(id).message.content, 'replacement \ufffd char');
  // A surrogate pair is fine; a lone low surrogate is not.
  assert.equal(s.entry(s.appendMessage({ role: 'user', content: '\ud83d\ude00' })).message.content, '\ud83d\ude00');
  assert.throws(() => s.appendMessage('{"role":"user","content":"\udc00 \ufffd"}'), { name: 'TypeError' });
  assert.equal(typeof store.sessionDir('/w'), 'string');
});

test('user code run while arguments are read cannot pull the handle away', async (t) => {
  const { store, s } = fixture(t);
  // A throwing getter on an options object: its error, and no call with a default in its place.
  const trap = { get readOnly() { throw new Error('getter says no'); } };
  assert.throws(() => store.create('/w', trap), { message: 'getter says no' });
  await assert.rejects(store.open('x', trap), { message: 'getter says no' });
  assert.throws(() => new xs.Store('/tmp', { get inMemory() { throw new Error('nope'); } }), { message: 'nope' });
  // toJSON that closes the session it is being appended to: XS_ECLOSED, not a freed handle.
  const sneaky = { toJSON() { s.close(); return { role: 'user', content: 'x' }; } };
  assert.throws(() => s.appendMessage(sneaky), { code: 'XS_ECLOSED', message: 'the session is closed' });
  assert.equal(s.closed, true);
  const other = store.create('/w', FIXED);
  const closing = { get raw() { other.close(); return true; } };
  await assert.rejects(other.buildContext(closing), { code: 'XS_ECLOSED' });
});
