'use strict';
// The pi dialect through the JS API (docs/dialects.md): which dialect a session writes (forced,
// the store's default, an existing file's, a fork's source's), pi's title entries, pi's "model"
// in contexts, and the XS_EDIALECT refusals. The exact bytes of pi's lines are the conformance
// suite's job.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { xs, scratchStore, FIXED, user, assistant } = require('./helpers');

const T = (s) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// An XS_EDIALECT error; with `message`, the library's exact text for that call.
const refused = (message) => (err) => {
  assert.ok(err instanceof Error, 'an Error object');
  assert.equal(err.code, 'XS_EDIALECT');
  assert.equal(err.status, -19);
  assert.equal(err.status, xs.status.XS_EDIALECT);
  if (message) assert.equal(err.message, message);
  else assert.ok(err.message.length > 0, 'the library says why');
  return true;
};

test("a new session writes the store's default dialect unless it forces one", (t) => {
  const omp = scratchStore(t);
  const pi = scratchStore(t, { dialect: 'pi' });
  const named = scratchStore(t, { dialect: 'omp' });
  const cases = [
    [omp, {}, 'omp'],
    [omp, { dialect: 'pi' }, 'pi'],
    [omp, { dialect: null }, 'omp'],
    [pi, {}, 'pi'],
    [pi, { dialect: 'omp' }, 'omp'],
    [named, {}, 'omp'],
  ];
  for (const [{ store, track }, options, want] of cases) {
    const s = track(store.create('/w', { ...FIXED, ...options }));
    assert.equal(s.dialect(), want, JSON.stringify(options));
    assert.equal(s.info().dialect, want);
    // Generated session ids follow the dialect: pi's are UUIDv7, ours 16 hex characters.
    assert.match(s.info().id, want === 'pi' ? UUID_V7 : /^[0-9a-f]{16}$/);
  }
});

test('an existing file keeps its dialect (detected), unless the open forces another', async (t) => {
  const omp = scratchStore(t);
  const pi = scratchStore(t, { dialect: 'pi' });
  const first = pi.store.create('/w', { ...FIXED, noDefer: true });
  first.appendMessage(user('q'));
  first.appendMessage(assistant('a'));
  const file = first.info().path;
  first.close();
  // Opened from a store whose default is omp: pi's lines decide.
  const reopened = await omp.store.open(file);
  assert.equal(reopened.dialect(), 'pi');
  // A fork and a branched session hold pi's lines, so they write pi's too; forcing wins.
  const fork = omp.track(await reopened.fork());
  assert.equal(fork.dialect(), 'pi');
  assert.equal(omp.track(reopened.createBranchedSync({ dialect: 'omp' })).dialect(), 'omp');
  assert.equal(omp.track(await omp.store.forkFrom(file, '/elsewhere')).dialect(), 'pi');
  reopened.close();
  const forced = omp.track(omp.store.openSync(file, { dialect: 'omp' }));
  assert.equal(forced.dialect(), 'omp');
  forced.close();
  // Read-only handles report it too.
  assert.equal(omp.track(await omp.store.open(file, { readOnly: true })).dialect(), 'pi');
});

test('appendSessionInfo returns the new id and the title follows the last one', async (t) => {
  const { store, track } = scratchStore(t, { dialect: 'pi' });
  const s = track(store.create('/w', FIXED));
  const q = s.appendMessage(user('q'));
  const id = s.appendSessionInfo('  Fix the build \n');
  assert.match(id, /^[0-9a-f]{8}$/);
  assert.equal(s.leaf(), id);
  // pi's key order; the name trimmed as String.prototype.trim does.
  assert.equal(s.entry(id, { raw: true }),
               `{"type":"session_info","id":"${id}","parentId":"${q}","timestamp":"${T(2)}","name":"Fix the build"}`);
  assert.equal(s.info().title, 'Fix the build');
  assert.equal(s.header().title, undefined); // pi's header never has one
  // setTitle appends the same entry in the pi dialect; an empty name (null) clears the title.
  await s.setTitle('Second');
  const last = () => s.entriesSync().at(-1);
  assert.deepEqual([last().type, last().name, s.info().title], ['session_info', 'Second', 'Second']);
  s.setTitleSync(null);
  assert.deepEqual([last().type, last().name, s.info().title], ['session_info', '', null]);
  assert.deepEqual(s.entriesSync().map((e) => e.type), ['message', 'session_info', 'session_info', 'session_info']);
  // A title in the options of a new pi session is its first entry.
  const titled = track(store.create('/w', { ...FIXED, title: 'Start' }));
  assert.deepEqual(titled.entriesSync().map((e) => [e.type, e.name]), [['session_info', 'Start']]);
  assert.equal(titled.info().title, 'Start');
});

test('omp-only entries are XS_EDIALECT in a pi session, session_info in an omp one', (t) => {
  const pi = scratchStore(t, { dialect: 'pi' });
  const s = pi.track(pi.store.create('/w', FIXED));
  s.appendMessage(user('q'));
  const before = s.entriesSync({ raw: true });
  assert.throws(() => s.appendTtsrInjection(['rule']), refused(
    'a ttsr_injection entry (oh-my-pi only) has no form in the pi dialect of this session (docs/dialects.md)'));
  assert.throws(() => s.appendModeChange('plan'), refused());
  assert.throws(() => s.appendSessionInit({ systemPrompt: 's', task: 't', tools: [] }), refused());
  assert.throws(() => s.appendModelChange('anthropic/claude', 'smol'), refused());
  assert.throws(() => s.appendCustomMessage({ customType: 'c', content: '"x"', attribution: 'user' }), refused());
  assert.throws(() => s.append({ type: 'ttsr_injection', injectedRules: ['rule'] }), refused());
  // A refused call changes nothing.
  assert.equal(s.entriesSync({ raw: true }), before);

  const omp = scratchStore(t);
  const o = omp.track(omp.store.create('/w', FIXED));
  assert.throws(() => o.appendSessionInfo('title'), refused(
    'a session_info entry (pi only; omp\'s title: set_title) has no form in the omp dialect of this session ' +
    '(docs/dialects.md)'));
  assert.deepEqual(o.entriesSync(), []);
});

test('a pi context names the model as pi does; an omp context has no "model"', async (t) => {
  const pi = scratchStore(t, { dialect: 'pi' });
  const s = pi.track(pi.store.create('/w', FIXED));
  s.appendMessage(user('q'));
  s.appendModelChange('anthropic/claude-x');
  assert.deepEqual((await s.buildContext()).model, { provider: 'anthropic', modelId: 'claude-x' });
  s.setLeaf(null);
  assert.equal(s.buildContextSync({ raw: true }),
               '{"leafId":null,"messages":[],"thinkingLevel":"off","model":null,"models":{},' +
               '"injectedTtsrRules":[],"mode":"none"}');
  const omp = scratchStore(t);
  const o = omp.track(omp.store.create('/w', FIXED));
  o.appendModelChange('anthropic/claude-x');
  assert.equal('model' in o.buildContextSync(), false);
});
