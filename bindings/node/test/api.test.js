'use strict';
// The JS-facing shape of every method: JS values in (objects, arrays, Buffers), parsed objects
// out (or the exact text with {raw: true}), ids as strings. Byte-exact behaviour is the
// conformance suite's job; this file checks the binding's conversions and defaults.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { xs, scratchStore, FIXED, user, assistant } = require('./helpers');

const T = (s) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;

test('every typed append takes JS values and returns the new id', () => {
  const store = new xs.Store(null, { inMemory: true });
  const s = store.create('/w', FIXED);
  const image = Buffer.alloc(2000, 7).toString('base64');
  const first = s.appendMessage({ role: 'user', content: [{ type: 'image', data: image, mimeType: 'image/png' }] });
  assert.match(first, /^[0-9a-f]{8}$/);
  const ids = [first];
  const add = (id) => (ids.push(id), id);
  const compaction = add(s.appendCompaction({ summary: 'sum', shortSummary: 's', firstKeptEntryId: first,
    tokensBefore: 42, details: { a: 1 }, fromExtension: true, preserveData: { k: [1] } }));
  const custom = add(s.appendCustomMessage({ customType: 'note', content: [{ type: 'text', text: 'hi' }],
    display: false, details: { x: 1 }, attribution: 'user' }));
  const init = add(s.appendSessionInit({ systemPrompt: 'sys', task: 't', tools: ['read'], outputSchema: { type: 'object' } }));
  const mode = add(s.appendModeChange('plan', { step: 1 }));
  const ext = add(s.appendCustom('ext', { state: 1 }));
  const rules = add(s.appendTtsrInjection(['r1']));
  const level = add(s.appendThinkingLevel('high'));
  const model = add(s.appendModelChange('anthropic/claude-x', 'smol'));
  const label = add(s.appendLabel(first, 'start'));
  const branch = add(s.branchWithSummary(first, 'went back', { details: { why: 1 }, fromExtension: false }));
  assert.equal(new Set(ids).size, ids.length);

  const entry = (id) => s.entry(id);
  const env = (id, n) => ({ id, parentId: ids[n - 1], timestamp: T(n + 1) });
  assert.deepEqual(entry(compaction), { type: 'compaction', ...env(compaction, 1), summary: 'sum', shortSummary: 's',
    firstKeptEntryId: first, tokensBefore: 42, details: { a: 1 }, fromExtension: true, preserveData: { k: [1] } });
  assert.deepEqual(entry(custom), { type: 'custom_message', customType: 'note', content: [{ type: 'text', text: 'hi' }],
    display: false, details: { x: 1 }, attribution: 'user', ...env(custom, 2) });
  assert.deepEqual(entry(init), { type: 'session_init', ...env(init, 3), systemPrompt: 'sys', task: 't', tools: ['read'],
    outputSchema: { type: 'object' } });
  assert.deepEqual(entry(mode), { type: 'mode_change', ...env(mode, 4), mode: 'plan', data: { step: 1 } });
  assert.deepEqual(entry(ext), { type: 'custom', customType: 'ext', data: { state: 1 }, ...env(ext, 5) });
  assert.deepEqual(entry(rules), { type: 'ttsr_injection', ...env(rules, 6), injectedRules: ['r1'] });
  assert.deepEqual(entry(level), { type: 'thinking_level_change', ...env(level, 7), thinkingLevel: 'high' });
  assert.deepEqual(entry(model), { type: 'model_change', ...env(model, 8), model: 'anthropic/claude-x', role: 'smol' });
  assert.deepEqual(entry(label), { type: 'label', ...env(label, 9), targetId: first, label: 'start' });
  assert.deepEqual(entry(branch), { type: 'branch_summary', id: branch, parentId: first, timestamp: T(11),
    fromId: first, summary: 'went back', details: { why: 1 }, fromExtension: false });

  // Large images moved to the store's blobs: refs as stored, content when resolved.
  const ref = entry(first).message.content[0].data;
  assert.match(ref, /^blob:sha256:[0-9a-f]{64}$/);
  assert.equal(s.entry(first, { resolveBlobs: true }).message.content[0].data, image);
  assert.deepEqual(store.blobGetSync(ref.slice('blob:sha256:'.length)), Buffer.alloc(2000, 7));

  // Optional arguments left out; null clears a label; setLeaf(null) starts a new root.
  const plain = s.appendCustom('bare');
  assert.deepEqual(Object.keys(entry(plain)), ['type', 'customType', 'id', 'parentId', 'timestamp']);
  assert.equal(entry(s.appendThinkingLevel(null)).thinkingLevel, null);
  assert.equal(entry(s.appendModelChange('a/b')).role, undefined);
  s.appendLabel(first, null);
  assert.deepEqual(s.labels(), []);
  s.setLeaf(compaction);
  assert.equal(s.leaf(), compaction);
  s.setLeaf(null);
  assert.equal(s.leaf(), null);
  assert.equal(entry(s.appendMessage(user('new root'))).parentId, null);
  s.close();
  store.close();
});

test('readers return parsed values, or the library text with {raw: true}', async (t) => {
  const { root, store, track } = scratchStore(t);
  const s = track(store.create('/w', { ...FIXED, sessionId: 'readers', title: 'T' }));
  const q = s.appendMessage(user('q'));
  const a = s.appendMessage({ ...assistant('a'), usage: { input: 10, output: 5, cacheRead: 1, cacheWrite: 2, cost: { total: 0.5 } } });
  s.appendLabel(q, 'question');
  const header = s.header();
  assert.deepEqual(header, { type: 'session', version: 3, id: 'readers', timestamp: T(0), cwd: '/w', title: 'T' });
  assert.equal(s.header({ raw: true }), JSON.stringify(header));
  assert.equal(s.entriesSync().length, 3);
  assert.equal(typeof s.entriesSync({ raw: true }), 'string');
  assert.deepEqual(s.children(q).map((e) => e.id), [a]);
  assert.deepEqual((await s.path(a)).map((e) => e.id), [q, a]);
  assert.deepEqual(s.pathSync().map((e) => e.type), ['message', 'message', 'label']);
  const tree = await s.tree();
  assert.deepEqual(tree.map((n) => [n.id, n.depth, n.label]), [[q, 0, 'question'], [a, 1, undefined], [tree[2].id, 2, undefined]]);
  assert.deepEqual(s.labels().map((l) => [l.targetId, l.label]), [[q, 'question']]);
  assert.deepEqual(s.usage(), { input: 10, output: 5, cacheRead: 1, cacheWrite: 2, premiumRequests: 0, cost: 0.5,
    assistantMessages: 1 });
  assert.deepEqual(s.diagnostics(), []);
  const info = s.info();
  assert.equal(info.path, path.join(store.sessionDir('/w'), `${T(0).replace(/[:.]/g, '-')}_readers.jsonl`));
  assert.equal(store.sessionDir('/w'), path.join(root, 'sessions', '--w--'));
  assert.deepEqual([info.entryCount, info.leafId, info.persisted, info.readOnly], [3, s.leaf(), true, false]);
  const context = await s.buildContext();
  assert.deepEqual(context.messages.map((m) => m.role), ['user', 'assistant']);
  assert.equal(context.leafId, s.leaf());
  assert.deepEqual(s.buildContextSync(q).messages, [user('q')]);
  assert.equal(typeof (await store.list({ raw: true })), 'string');
  assert.deepEqual((await store.list({ cwd: '/w', limit: 1 })).map((e) => e.id), ['readers']);
  assert.ok(fs.existsSync(info.path));
});

test('a terminal breadcrumb leads continueRecent back to its session', async (t) => {
  const { store, track } = scratchStore(t);
  const older = store.create('/w', { noDefer: true, sessionId: 'older' });
  const olderPath = older.info().path;
  older.close();
  const newer = store.create('/w', { noDefer: true, sessionId: 'newer' });
  newer.close();
  store.writeBreadcrumb('tty1', '/w', olderPath);
  assert.equal(track(await store.continueRecent('/w', 'tty1')).info().id, 'older');
  assert.equal(track(store.continueRecentSync('/w', 'tty2')).info().id, 'newer');
});
