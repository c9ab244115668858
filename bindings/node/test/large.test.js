'use strict';
// A session of more than 50 MB through the Promise forms: the event loop keeps turning while the
// library loads and builds it (a setImmediate callback runs before each promise settles), and
// the result is exact (the retry after XS_EBUFS copies the library's cached result in full).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scratchStore } = require('./helpers');

const MESSAGES = 110;
const CHARS = 480000; // under the 500,000-unit cut of the size rules

// Writes the file directly (as another agent would have); returns its path and message texts.
function writeBigSession(root) {
  const file = path.join(root, 'big.jsonl');
  const lines = ['{"type":"session","version":3,"id":"big0000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/big"}'];
  const messages = [];
  let parent = null;
  for (let i = 0; i < MESSAGES; i++) {
    const id = `e${String(i).padStart(7, '0')}`;
    const body = String.fromCharCode(97 + (i % 26)).repeat(CHARS - 12) + String(i).padStart(12, '0');
    const message = i % 2 === 0
      ? `{"role":"user","content":"${body}"}`
      : `{"role":"assistant","content":[{"type":"text","text":"${body}"}]}`;
    messages.push(message);
    lines.push(`{"type":"message","id":"${id}","parentId":${parent ? `"${parent}"` : 'null'},` +
               `"timestamp":"2026-01-01T00:00:01.000Z","message":${message}}`);
    parent = id;
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return { file, messages, leaf: parent };
}

// Awaits `promise` while counting event-loop turns (setImmediate callbacks) until it settles.
async function counting(promise) {
  let turns = 0;
  let settled = false;
  const tick = () => {
    if (settled) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await promise, turns };
  } finally {
    settled = true;
  }
}

test('a session over 50 MB opens and builds its context off the main thread', async (t) => {
  const { root, store, track } = scratchStore(t);
  const { file, messages, leaf } = writeBigSession(root);
  assert.ok(fs.statSync(file).size > 50 * 1024 * 1024, 'the file is over 50 MiB');

  const opened = await counting(store.open(file, { readOnly: true }));
  assert.ok(opened.turns >= 1, 'the event loop turned while the file loaded');
  const s = track(opened.value);
  assert.equal(s.info().entryCount, MESSAGES);
  assert.deepEqual(s.diagnostics(), []);

  const built = await counting(s.buildContext({ raw: true }));
  assert.ok(built.turns >= 1, 'the event loop turned while the context was built');
  const expected = `{"leafId":"${leaf}","messages":[${messages.join(',')}],"thinkingLevel":"off","models":{},` +
                   '"injectedTtsrRules":[],"mode":"none"}';
  assert.ok(built.value.length > 50 * 1024 * 1024);
  assert.equal(built.value, expected);

  const entries = await counting(s.entries());
  assert.ok(entries.turns >= 1, 'the event loop turned while the entries were read');
  assert.equal(entries.value.length, MESSAGES);
  assert.equal(JSON.stringify(entries.value[MESSAGES - 1].message), messages[MESSAGES - 1]);

  // The synchronous form gives the same bytes.
  assert.equal(s.buildContextSync({ raw: true }), expected);
});

test('a 50 MB session written through appends, then read back async', async (t) => {
  const { store, track } = scratchStore(t);
  const s = track(store.create('/big', { noDefer: true }));
  const text = 'z'.repeat(CHARS);
  for (let i = 0; i < MESSAGES; i++) s.appendMessage(`{"role":"user","content":"${text}"}`);
  await s.flush();
  const file = s.info().path;
  assert.ok(fs.statSync(file).size > 50 * 1024 * 1024);
  const copy = track((await counting(store.open(file, { readOnly: true }))).value);
  const built = await counting(copy.buildContext());
  assert.ok(built.turns >= 1);
  assert.equal(built.value.messages.length, MESSAGES);
  assert.ok(built.value.messages.every((m) => m.content === text));
});
