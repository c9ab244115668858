'use strict';
// Concurrent Promise-form calls on one session and on several: every result is the one the
// synchronous form gives, whatever order the worker threads run them in.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { xs, scratchStore, FIXED, user, assistant } = require('./helpers');

function conversation(store, cwd, turns, opts = {}) {
  const s = store.create(cwd, { ...FIXED, ...opts });
  for (let i = 0; i < turns; i++) {
    s.appendMessage(user(`question ${i} in ${cwd}`));
    s.appendMessage(assistant(`answer ${i} in ${cwd}`));
  }
  return s;
}

test('many concurrent async reads of one session agree with the sync forms', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(conversation(store, '/one', 20));
  const leafs = s.entriesSync().map((e) => e.id);
  const expected = {
    context: s.buildContextSync({ raw: true }),
    entries: s.entriesSync({ raw: true }),
    tree: s.treeSync({ raw: true }),
  };
  const jobs = [];
  for (let i = 0; i < 10; i++) {
    jobs.push(s.buildContext({ raw: true }).then((v) => assert.equal(v, expected.context)));
    jobs.push(s.entries({ raw: true }).then((v) => assert.equal(v, expected.entries)));
    jobs.push(s.tree({ raw: true }).then((v) => assert.equal(v, expected.tree)));
    const leaf = leafs[i * 3];
    jobs.push(s.path(leaf).then((v) => assert.deepEqual(v, s.pathSync(leaf))));
    jobs.push(s.buildContext(leaf).then((v) => assert.equal(v.leafId, leaf)));
    jobs.push(s.flush());
  }
  await Promise.all(jobs);
});

test('a sync append while async reads are in flight: each read sees one whole state', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(conversation(store, '/mix', 10));
  const before = s.entriesSync().length;
  const reads = Array.from({ length: 8 }, () => s.entries());
  const id = s.appendMessage(user('late question')); // waits for the handle's lock if need be
  for (const entries of await Promise.all(reads)) {
    assert.ok(entries.length === before || entries.length === before + 1, `${entries.length} entries`);
    assert.deepEqual(entries.slice(0, before), s.entriesSync().slice(0, before));
  }
  assert.equal((await s.buildContext()).leafId, id);
});

test('async calls on several sessions at once', async (t) => {
  const { store, track } = scratchStore(t);
  const cwds = Array.from({ length: 8 }, (_, i) => `/project/${i}`);
  const files = [];
  const expected = new Map();
  for (const cwd of cwds) {
    const s = conversation(store, cwd, 5, { sessionId: `sess${cwd.slice(-1)}` });
    files.push(s.info().path);
    expected.set(s.info().path, s.buildContextSync({ raw: true }));
    s.close();
  }
  const sessions = (await Promise.all(files.map((f) => store.open(f)))).map(track);
  const contexts = await Promise.all(sessions.map((s) => s.buildContext({ raw: true })));
  sessions.forEach((s, i) => assert.equal(contexts[i], expected.get(s.info().path)));
  await Promise.all(sessions.map((s) => s.flush()));
  const listed = await store.list({ full: true });
  assert.equal(listed.length, 8);
  for (const entry of listed) {
    assert.ok(expected.has(entry.path));
    assert.equal(entry.messageCount, 10);
  }
  // Appends on all of them, then async reads again: each sees its own latest leaf.
  const ids = sessions.map((s, i) => s.appendMessage(user(`follow-up ${i}`)));
  const after = await Promise.all(sessions.map((s) => s.buildContext()));
  after.forEach((c, i) => {
    assert.equal(c.leafId, ids[i]);
    assert.equal(c.messages.at(-1).content, `follow-up ${i}`);
  });
});

test('concurrent writable opens of one file: exactly one wins, the rest get XS_ELOCKED', async (t) => {
  const { store, track } = scratchStore(t);
  const file = (() => {
    const s = conversation(store, '/race', 1);
    const p = s.info().path;
    s.close();
    return p;
  })();
  const results = await Promise.allSettled(Array.from({ length: 6 }, () => store.open(file)));
  const won = results.filter((r) => r.status === 'fulfilled');
  const lost = results.filter((r) => r.status === 'rejected');
  assert.equal(won.length, 1);
  won.forEach((r) => track(r.value));
  assert.equal(lost.length, 5);
  for (const r of lost) {
    assert.equal(r.reason.code, 'XS_ELOCKED');
    assert.equal(r.reason.message, `${file} is open for writing by another handle or process`);
  }
});

test('async session constructors and whole-session operations', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(conversation(store, '/ops', 2, { sessionId: 'opsorig' }));
  const [fork, branched] = (await Promise.all([s.fork({ sessionId: 'opsfork' }), s.createBranched()])).map(track);
  assert.equal(fork.info().id, 'opsfork');
  assert.equal(fork.info().parentSession, 'opsorig');
  assert.deepEqual((await fork.buildContext()).messages, s.buildContextSync().messages);
  assert.equal(branched.info().parentSession, s.info().path);
  await s.setTitle('renamed');
  assert.equal(s.header().title, 'renamed');
  await s.moveTo('/elsewhere');
  assert.equal(s.info().cwd, '/elsewhere');
  assert.ok(s.info().path.startsWith(store.sessionDir('/elsewhere')));
  const copy = track(await store.forkFrom(s.info().path, '/copy'));
  assert.equal(copy.info().cwd, '/copy');
  assert.equal(copy.info().parentSession, 'opsorig');
  const recent = track(await store.continueRecent('/nothing-here', null, { noDefer: true }));
  assert.equal(recent.info().entryCount, 0);
  const hash = await store.blobPut(Buffer.from('blob bytes'));
  assert.equal(hash, store.blobPutSync('blob bytes'));
  assert.deepEqual(await store.blobGet(hash), Buffer.from('blob bytes'));
  // A reader picks up what the writer appended since it loaded.
  const reader = track(await store.open(fork.info().path, { readOnly: true }));
  fork.appendMessage(user('one more'));
  fork.appendMessage(assistant('and an answer'));
  assert.equal(await reader.reload(), 2);
  assert.equal(reader.leaf(), fork.leaf());
  await fork.persist(); // already on disk (forks are written at once): a no-op that succeeds
  assert.equal(fork.info().persisted, true);
});
