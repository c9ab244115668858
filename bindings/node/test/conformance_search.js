'use strict';
// The session index ops of the conformance cases (tests/conformance/README.md: "Session index and
// search"), replayed through Store.openIndex and the Index class as
// tests/conformance/search_steps.cc replays them through the C API. Each step opens an index at
// <root>/index.db, makes its one call (the Promise form in async mode) and closes it.
// searchStep(runner, step, expect) answers whether it knew the op.
const assert = require('node:assert/strict');
const path = require('node:path');
const { xs } = require('./helpers');

// A string naming a path under the store root, relative to it; any other value as it is.
const relative = (runner, v) => (typeof v === 'string' ? runner.relative(v) : v);

// The output's items against the step's: as many, in order, each a path equal to the output's,
// or an object each of whose members equals the output item's.
function expectItems(runner, got, want, text) {
  assert.ok(Array.isArray(got), `not a list: ${text}`);
  assert.equal(got.length, want.length, text);
  want.forEach((w, i) => {
    if (typeof w === 'string') {
      assert.equal(relative(runner, got[i]), w, `item ${i} of ${text}`);
      return;
    }
    for (const [member, value] of Object.entries(w)) {
      assert.ok(member in got[i], `item ${i} has no member ${member}: ${text}`);
      assert.deepEqual(relative(runner, got[i][member]), value, `item ${i} member ${member} of ${text}`);
    }
  });
}

// The members the step lists equal to the report's (its lists item by item).
function expectMembers(runner, report, want, text) {
  for (const [member, value] of Object.entries(want)) {
    assert.ok(member in report, `no member ${member}: ${text}`);
    if (Array.isArray(report[member])) expectItems(runner, report[member], value, `${member} of ${text}`);
    else assert.deepEqual(report[member], value, `${member} of ${text}`);
  }
}

// The step's search options: absent members are left out (the library's defaults). The role goes
// as it is: one that is none of the five reaches the library, which refuses it.
function searchOptions(s) {
  const o = {};
  if ('cwd' in s) o.cwd = s.cwd;
  if ('role' in s) o.role = s.role;
  if ('session_id' in s) o.sessionId = s.session_id;
  if ('since_ms' in s) o.sinceMs = s.since_ms;
  if ('limit' in s) o.limit = s.limit;
  if (s.literal === true) o.literal = true;
  return o;
}

const REPORT_TYPES = { index_refresh: 'IndexReport', index_rebuild: 'IndexReport', index_verify: 'IndexVerifyReport' };
const METHODS = { index_refresh: 'refresh', index_rebuild: 'rebuild', index_verify: 'verify' };

async function indexCall(runner, index, s) {
  if (s.op === 'search') return runner.call(index, 'search', s.query, searchOptions(s));
  if (s.op === 'index_list') {
    const o = {};
    if ('cwd' in s) o.cwd = s.cwd;
    if ('limit' in s) o.limit = s.limit;
    return runner.call(index, 'list', o);
  }
  return runner.call(index, METHODS[s.op]);
}

async function searchStep(runner, s, expect) {
  if (s.op !== 'search' && s.op !== 'index_list' && !METHODS[s.op]) return false;
  const index = await runner.call(runner.store, 'openIndex', { path: path.join(runner.root, 'index.db') });
  try {
    if (expect !== 'XS_OK') {
      await assert.rejects(async () => indexCall(runner, index, s), (err) => {
        assert.equal(err.code, expect, `expected ${expect}, got ${err.code}: ${err.message}`);
        if ('message_prefix' in s) assert.ok(err.message.startsWith(s.message_prefix), err.message);
        return true;
      });
      // The handle's own status: the library refused the call, not the binding before it.
      assert.equal(index.lastStatus(), xs.status[expect]);
      return true;
    }
    const got = await indexCall(runner, index, s);
    const text = JSON.stringify(got);
    if (s.op === 'search') {
      runner.typed('SearchHit[]', text, s);
      expectItems(runner, got, s.hits, text);
    } else if (s.op === 'index_list') {
      runner.typed('IndexedSession[]', text, s);
      expectItems(runner, got, s.sessions, text);
    } else {
      runner.typed(REPORT_TYPES[s.op], text, s);
      expectMembers(runner, got, s.report, text);
    }
    return true;
  } finally {
    index.close();
  }
}

module.exports = { searchStep };
