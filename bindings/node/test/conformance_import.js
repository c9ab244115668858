'use strict';
// The import ops of the conformance cases (tests/conformance/README.md: "Import"), replayed through
// Store.import and Store.foreignList as tests/conformance/import_steps.cc replays them through the
// C API. importStep(runner, step, expect) answers whether it knew the op.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { textOf } = require('./conformance_library');

const rooted = (runner, text) => text.replaceAll('{root}', runner.root);

// A listing's modification times are the run's, not the case's: each "mtime" and "mtimeMs"
// number of the library's text becomes 0 before the comparison.
const withoutMtimes = (json) => json.replace(/"(mtime|mtimeMs)":-?\d+/g, '"$1":0');

// The step's options as ImportOptions (absent fields: the defaults).
function importOptions(s) {
  const o = { raw: true };
  if (s.op === 'import') {
    o.dryRun = s.dry_run === true;
    if (typeof s.target_cwd === 'string') o.targetCwd = s.target_cwd;
    if (typeof s.fallback_cwd === 'string') o.fallbackCwd = s.fallback_cwd;
  }
  if ('lock_wait_ms' in s) o.lockWaitMs = s.lock_wait_ms;
  if ('now_ms' in s) o.nowMs = s.now_ms;
  return o;
}

async function importStep(runner, s, expect) {
  switch (s.op) {
    case 'check_raw_file': {
      const file = path.join(runner.root, s.path);
      assert.ok(fs.existsSync(file), s.path);
      assert.deepEqual(fs.readFileSync(file), Buffer.from(textOf(s.raw)), s.path);
      return true;
    }
    case 'import':
    case 'foreign_list': {
      const method = s.op === 'import' ? 'import' : 'foreignList';
      const source = path.join(runner.root, s.path);
      const got = await runner.attempt(expect, () =>
        runner.call(runner.store, method, s.kind, source, importOptions(s)));
      if (expect !== 'XS_OK') return true;
      const want = rooted(runner, textOf(s.json));
      assert.equal(s.op === 'import' ? got : withoutMtimes(got), want);
      runner.typed(s.op === 'import' ? 'ImportReport' : 'ForeignListing', got, s);
      return true;
    }
    default:
      return false;
  }
}

module.exports = { importStep };
