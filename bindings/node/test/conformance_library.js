'use strict';
// The session library's conformance ops (tests/conformance/README.md: "Compaction planning",
// "Resume analysis", "Session stats", "Retention", "Reset policies"), replayed through the JS
// API as tests/conformance/{library,stats,archive,reset}_steps.cc replay them through the C API.
// libraryStep(runner, step, expect) answers whether it knew the op; conformance.test.js fails a
// case on an op nobody knows.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { xs } = require('./helpers');

// A text argument: a string, or an array of parts (strings and {repeat, times}).
function textOf(v) {
  if (typeof v === 'string') return v;
  return v.map((p) => (typeof p === 'string' ? p : p.repeat.repeat(p.times))).join('');
}

const SETTINGS = {
  version: 'version',
  context_window: 'contextWindow',
  reserve_tokens: 'reserveTokens',
  reserve_floor: 'reserveFloor',
  keep_recent_tokens: 'keepRecentTokens',
  soft_threshold_tokens: 'softThresholdTokens',
};

// The step's "settings" as a CompactionSettings object (absent fields: the defaults).
function settingsOf(s) {
  const out = {};
  for (const [k, v] of Object.entries(s.settings || {})) {
    assert.ok(SETTINGS[k], `unknown settings field ${k}`);
    out[SETTINGS[k]] = v;
  }
  return out;
}

// A policy object of the cases as a ResetPolicy.
function policyOf(p) {
  return { dailyHour: p.daily_hour, idleMinutes: p.idle_minutes, timeZone: p.time_zone };
}

const rooted = (runner, text) => text.replaceAll('{root}', runner.root);
const str = (s, key) => (typeof s[key] === 'string' ? s[key] : undefined);

// The report's list against the step's: as many, in order, each listed member equal (`path`
// relative to the store root).
function expectListed(runner, report, key, want) {
  const got = report[key];
  assert.equal(got.length, want.length, `${key} of ${JSON.stringify(report)}`);
  want.forEach((w, i) => {
    for (const [member, value] of Object.entries(w)) {
      const actual = member === 'path' ? runner.relative(got[i].path) : got[i][member];
      assert.deepEqual(actual, value, `${key}[${i}].${member} of ${JSON.stringify(report)}`);
    }
  });
}

async function decision(runner, s, expect, fn) {
  const got = await runner.attempt(expect, fn);
  if (expect === 'XS_OK') assert.equal(got, s.result);
}

async function retention(runner, s, expect) {
  const o = { dryRun: s.dry_run === true };
  if ('older_than_ms' in s) o.olderThanMs = s.older_than_ms;
  if ('now_ms' in s) o.nowMs = s.now_ms;
  const report = await runner.attempt(expect, () => runner.call(runner.store, s.op, o));
  if (expect !== 'XS_OK') return;
  runner.typed(s.op === 'archive' ? 'ArchiveReport' : 'PruneReport', JSON.stringify(report), s);
  assert.equal(report.dryRun, s.dry_run === true);
  if (s.op === 'archive') {
    expectListed(runner, report, 'archived', s.archived);
    expectListed(runner, report, 'skipped', s.skipped);
  } else {
    expectListed(runner, report, 'pruned', s.pruned);
  }
}

async function sessionForKey(runner, s, expect) {
  if (runner.session) runner.session.close(); // the key's session may be the one held
  runner.session = null;
  const session = { ...runner.options(s), sessionId: str(s, 'session_id') };
  if ('id_seed' in s) session.idSeed = s.id_seed;
  const o = { nowMs: s.now_ms, force: s.force === true, session };
  if (s.policy) o.policy = policyOf(s.policy);
  const got = await runner.attempt(expect, () => runner.call(runner.store, 'sessionForKey', s.key, o));
  if (!got) return;
  runner.typed('ResetReason', JSON.stringify(got.reason), s);
  runner.adopt(got.session);
  if (s.expect_reason !== undefined) assert.equal(got.reason, s.expect_reason);
}

async function libraryStep(runner, s, expect) {
  const session = runner.session;
  const keys = runner.store.keys;
  switch (s.op) {
    case 'compaction_plan':
      await runner.checkText(s, expect, 'plan', () =>
        runner.call(session, 'compactionPlan', str(s, 'leaf'), { ...settingsOf(s), raw: true }), 'CompactionPlan');
      return true;
    case 'check_should_compact':
      await decision(runner, s, expect, () => xs.shouldCompact(settingsOf(s), s.context_tokens));
      return true;
    case 'check_should_flush_memory':
      await decision(runner, s, expect, () =>
        xs.shouldFlushMemory(settingsOf(s), s.context_tokens, s.compaction_count, s.last_flush_compaction_count));
      return true;
    case 'keys_claim_memory_flush':
      await decision(runner, s, expect, () =>
        runner.call(keys, 'claimMemoryFlush', s.key, settingsOf(s), s.context_tokens, s.now_ms));
      return true;
    case 'check_resume':
      await runner.checkText(s, expect, 'json', () => runner.call(session, 'resumeCheck', str(s, 'leaf'), { raw: true }),
                             'ResumeCheck');
      return true;
    case 'check_stats':
      await runner.checkText(s, expect, 'json', () => session.stats({ raw: true }), 'SessionStats');
      return true;
    case 'keys_fix_stats': {
      const got = await runner.attempt(expect, () => runner.call(keys, 'fixStats', str(s, 'prefix'), { raw: true }));
      if (expect === 'XS_OK' && s.json !== undefined) assert.equal(got, rooted(runner, textOf(s.json)));
      if (expect === 'XS_OK') runner.typed('FixStatsReport', got, s);
      return true;
    }
    case 'check_stats_document':
    case 'check_keys_file_rooted': {
      const want = rooted(runner, textOf(s.raw));
      const bytes = fs.readFileSync(path.join(runner.root, 'sessions.json'));
      assert.equal(bytes.toString('utf8'), want);
      assert.deepEqual(bytes, Buffer.from(want)); // byte for byte, not just as decoded text
      return true;
    }
    case 'check_store_files':
      assert.deepEqual(fs.readdirSync(runner.root).sort(), s.files);
      return true;
    case 'archive':
    case 'prune':
      await retention(runner, s, expect);
      return true;
    case 'check_path_exists':
      assert.equal(fs.existsSync(path.join(runner.root, s.path)), s.exists, s.path);
      return true;
    case 'session_for_key':
      await sessionForKey(runner, s, expect);
      return true;
    default:
      return false;
  }
}

// "store_reset_policy": the case's store opens with that default policy.
function storeOptions(doc) {
  const o = {};
  if (doc.store_dialect) o.dialect = doc.store_dialect;
  if (doc.store_reset_policy) o.resetPolicy = policyOf(doc.store_reset_policy);
  return Object.keys(o).length ? o : undefined;
}

module.exports = { libraryStep, storeOptions, textOf };
