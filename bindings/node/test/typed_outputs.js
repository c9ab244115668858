'use strict';
// Typed decoding of every JSON output the conformance replay produces. The binding gives outputs
// as parsed JSON whose types index.d.ts declares; that they are those types is checked by tsc:
// each output is recorded with its declared type, then written as an object literal of that
// type into one file and compiled. TypeScript holds an object literal to its type field by field,
// so a field the type lacks (dropped or renamed there), a required field missing, or a field of
// another type fails the compile: output drift fails the Node tests as it fails the other
// bindings' typed decoders.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const PACKAGE = path.join(__dirname, '..');

// entries.d.ts: the interface of each known entry type (others are held to EntryBase).
const ENTRY_TYPES = {
  message: 'MessageEntry',
  thinking_level_change: 'ThinkingLevelChangeEntry',
  model_change: 'ModelChangeEntry',
  compaction: 'CompactionEntry',
  branch_summary: 'BranchSummaryEntry',
  custom: 'CustomEntry',
  custom_message: 'CustomMessageEntry',
  label: 'LabelEntry',
  ttsr_injection: 'TtsrInjectionEntry',
  session_init: 'SessionInitRecordEntry',
  mode_change: 'ModeChangeEntry',
  session_info: 'SessionInfoEntry',
};

const records = new Map(); // the literal's text -> {type, where}, so both replay modes count once

// Long texts are cut: a type never depends on a string's length, and some cases hold megabytes.
const shorten = (key, value) => (typeof value === 'string' && value.length > 200 ? value.slice(0, 200) : value);

function record(type, value, where) {
  const text = JSON.stringify(value, shorten);
  if (!records.has(`${type}\0${text}`)) records.set(`${type}\0${text}`, { type, text, where });
}

// One entry, as the interface of its type; a tree node's entry and its children likewise.
function recordEntry(entry, where) {
  record(ENTRY_TYPES[entry.type] || 'EntryBase', entry, where);
}

// `text` is a raw output (the library's JSON text) of the declared type `type`; arrays of entries
// and tree nodes are recorded element by element, each entry as its own type's interface.
function recordOutput(type, text, where) {
  const value = JSON.parse(text);
  if (type === 'Entry') return recordEntry(value, where);
  if (type === 'Entry[]') return value.forEach((e) => recordEntry(e, where));
  if (type === 'TreeNode[]') {
    return value.forEach((node) => {
      record('TreeNode', node, where);
      recordEntry(node.entry, where);
    });
  }
  return record(type, value, where);
}

function findTsc() {
  if (process.env.XS_TSC) return process.env.XS_TSC;
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'tsc'))) return path.join(dir, 'tsc');
  }
  return assert.fail('tsc not found (Debian: apt-get install node-typescript; or set XS_TSC)');
}

// Compiles every recorded output against its type; fails with tsc's errors and the step each
// offending output came from.
function checkRecordedTypes(minimum) {
  assert.ok(records.size >= minimum, `only ${records.size} outputs recorded`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xsn-typed-'));
  try {
    const lines = [`import type * as X from ${JSON.stringify(path.join(PACKAGE, 'index'))};`];
    const whereOfLine = [];
    let n = 0;
    for (const { type, text, where } of records.values()) {
      whereOfLine[lines.length + 1] = `${where}: ${type}`;
      lines.push(`export const v${n++}: X.${type} = ${text};`);
    }
    fs.writeFileSync(path.join(dir, 'outputs.ts'), `${lines.join('\n')}\n`);
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2020', module: 'commonjs', lib: ['es2020'], types: [] },
      files: ['outputs.ts'],
    }));
    try {
      execFileSync(findTsc(), ['-p', dir], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      const out = `${err.stdout || ''}${err.stderr || ''}`;
      const steps = [...out.matchAll(/outputs\.ts\((\d+),/g)].map((m) => whereOfLine[Number(m[1])]);
      assert.fail(`outputs that are not their declared types:\n${[...new Set(steps)].join('\n')}\n\n${out.slice(0, 20000)}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return records.size;
}

module.exports = { recordOutput, record, checkRecordedTypes };
