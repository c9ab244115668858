'use strict';
// Store.import and Store.foreignList beyond what the conformance cases replay: the parsed results
// against the raw text, both forms, the options' defaults and version, what each option does, and
// the argument errors with their exact statuses.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { xs, scratch, scratchStore } = require('./helpers');

const CASES = process.env.XS_CONFORMANCE_DIR || path.join(__dirname, '..', '..', '..', 'tests', 'conformance', 'cases');
const typeError = (message) => ({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message });
const code = (c) => (err) => err.code === c && err.status === xs.status[c];

const CLAUDE = 'source/claude/-tmp-demo';
const MYAGENTS = 'source/myagents';
const GATEWAY = 'source/gateway';
const CODEX = 'source/codex';
const CODEX_ID = '0199a000-0000-7000-8000-0000000000c1';
const ROLLOUT = `${CODEX}/2026/03/01/rollout-2026-03-01T10-00-00-${CODEX_ID}.jsonl`;

// A Codex rollout (docs/import-codex.md#rows): its meta, a turn's context, a prompt and its UI
// event (the listing's firstPrompt), the answer and its usage (6 rows).
const codexRow = (time, type, payload) =>
  `${JSON.stringify({ timestamp: `2026-03-01T10:00:${time}Z`, type, payload })}\n`;
const CODEX_ROWS = [
  codexRow('00.000', 'session_meta', { id: CODEX_ID, timestamp: '2026-03-01T10:00:00.000Z', cwd: '/tmp/demo',
                                       cli_version: '0.50.0', model_provider: 'openai' }),
  codexRow('01.000', 'turn_context', { cwd: '/tmp/demo', model: 'gpt-5-codex', effort: 'low' }),
  codexRow('01.000', 'response_item', { type: 'message', role: 'user',
                                        content: [{ type: 'input_text', text: 'Show the date' }] }),
  codexRow('01.000', 'event_msg', { type: 'user_message', message: 'Show the date' }),
  codexRow('02.000', 'response_item', { type: 'message', role: 'assistant',
                                        content: [{ type: 'output_text', text: 'It is Sunday.' }] }),
  codexRow('02.000', 'event_msg', { type: 'token_count', info: { last_token_usage: {
    input_tokens: 10, cached_input_tokens: 0, output_tokens: 5, total_tokens: 15 } } }),
].join('');

// The three sources of the dry-run case (its write_file steps) and a Codex rollout under a fresh
// directory.
function sources(t) {
  const dir = scratch(t, 'xsn-import-src-');
  const doc = JSON.parse(fs.readFileSync(path.join(CASES, '109_import_dry_run_writes_nothing.json'), 'utf8'));
  for (const s of doc.steps.filter((step) => step.op === 'write_file')) {
    fs.mkdirSync(path.dirname(path.join(dir, s.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, s.path), s.raw);
  }
  fs.mkdirSync(path.dirname(path.join(dir, ROLLOUT)), { recursive: true });
  fs.writeFileSync(path.join(dir, ROLLOUT), CODEX_ROWS);
  return (rel) => path.join(dir, rel);
}

// Every file under dir with its bytes: a picture to compare before and after.
// (A walk of its own: readdir's `recursive` needs Node 18.17.)
function picture(dir, out = {}, prefix = '') {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const name = prefix + e.name;
    if (e.isDirectory()) picture(path.join(dir, e.name), out, `${name}/`);
    else out[name] = fs.readFileSync(path.join(dir, e.name), 'utf8');
  }
  return out;
}

test('defaultImportOptions is what xs_import_options_init fills in, frozen', () => {
  assert.deepEqual({ ...xs.defaultImportOptions },
                   { dryRun: false, targetCwd: null, fallbackCwd: null, lockWaitMs: 2000, nowMs: 0 });
  assert.ok(Object.isFrozen(xs.defaultImportOptions));
  assert.equal(xs.IMPORT_OPTIONS_VERSION, 2);
});

test('import: the parsed report is the raw text parsed; a re-import imports nothing', async (t) => {
  const src = sources(t);
  const { root, store } = scratchStore(t);
  const first = store.importSync('claude', src(CLAUDE), { raw: true });
  const report = JSON.parse(first);
  assert.equal(report.source, 'claude');
  assert.equal(report.root, src(CLAUDE));
  assert.deepEqual([report.rowsRead, report.imported, report.keptAsCustom, report.alreadyImported, report.skipped],
                   [3, 2, 0, 0, 1]);
  assert.equal(report.sessions.length, 1);
  assert.equal(report.sessions[0].created, true);
  assert.ok(report.sessions[0].sessionFile.startsWith(`${root}/sessions/--tmp-demo--/`));
  // The Promise form, parsed: the same session continued, every row already there.
  const again = await store.import('claude', src(CLAUDE));
  assert.deepEqual([again.rowsRead, again.imported, again.alreadyImported, again.skipped], [3, 0, 2, 1]);
  assert.equal(again.sessions[0].created, false);
  assert.equal(again.sessions[0].sessionFile, report.sessions[0].sessionFile);
});

test('import with dryRun writes nothing, not even the store directory, in both forms', async (t) => {
  const src = sources(t);
  const root = path.join(scratch(t), 'store'); // not there yet
  const store = new xs.Store(root);
  t.after(() => store.close());
  const before = picture(src('source'));
  const dry = store.importSync('myagents', src(MYAGENTS), { dryRun: true });
  assert.equal(dry.dryRun, true);
  // The session is not written (no file); the key record names the document it would go to.
  assert.deepEqual(dry.sessions.map((s) => s.sessionFile), ['', path.join(root, 'sessions.json')]);
  const dryGateway = await store.import('gateway', src(GATEWAY), { dryRun: true });
  assert.equal(dryGateway.dryRun, true);
  assert.equal(fs.existsSync(root), false);
  assert.deepEqual(picture(src('source')), before); // the source only ever read
  // The real run imports what the dry run counted.
  const real = store.importSync('myagents', src(MYAGENTS));
  assert.equal(real.dryRun, false);
  assert.deepEqual([real.rowsRead, real.imported], [dry.rowsRead, dry.imported]);
  assert.ok(fs.existsSync(path.join(root, 'sessions.json')));
  assert.deepEqual(picture(src('source')), before);
});

test('targetCwd gives every Claude session that cwd; fallbackCwd is for the hosts only', async (t) => {
  const src = sources(t);
  const { store } = scratchStore(t);
  const report = store.importSync('claude', src(CLAUDE), { targetCwd: '/work/elsewhere' });
  const s = store.openSync(report.sessions[0].sessionFile, { readOnly: true });
  t.after(() => s.close());
  assert.equal(s.header().cwd, '/work/elsewhere');
  assert.ok(report.sessions[0].sessionFile.includes('/--work-elsewhere--/'));
  assert.throws(() => store.importSync('claude', src(CLAUDE), { fallbackCwd: '/x' }), code('XS_EINVAL'));
  assert.throws(() => store.importSync('myagents', src(MYAGENTS), { targetCwd: '/x' }), code('XS_EINVAL'));
  await assert.rejects(store.import('claude', src(CLAUDE), { targetCwd: 'relative/dir' }), code('XS_EINVAL'));
  assert.throws(() => store.importSync('claude', src(CLAUDE), { targetCwd: '/a/../b' }), code('XS_EINVAL'));
});

test('foreignList: parsed and raw, both forms, and nothing written anywhere', async (t) => {
  const src = sources(t);
  const root = path.join(scratch(t), 'store');
  const store = new xs.Store(root);
  t.after(() => store.close());
  const before = picture(src('source'));
  const raw = store.foreignListSync('claude', src(CLAUDE), { raw: true });
  const listing = await store.foreignList('claude', src(CLAUDE));
  assert.deepEqual(listing, JSON.parse(raw));
  assert.equal(listing.source, 'claude');
  assert.equal(listing.projects.length, 1);
  assert.deepEqual(listing.projects[0].transcripts.map((x) => [x.file, x.kind, x.rows, x.badRows]),
                   [['11111111-2222-4333-8444-555555555555.jsonl', 'session', 3, 1]]);
  const hosts = store.foreignListSync('myagents', src(MYAGENTS), { lockWaitMs: 0, nowMs: 1 });
  assert.equal(hosts.source, 'myagents');
  assert.deepEqual(hosts.sessions.map((x) => x.id), ['3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90']);
  assert.equal(fs.existsSync(root), false);
  assert.deepEqual(picture(src('source')), before);
});

test('codex: a rollout listed, imported (its meta and UI event kept as custom), then found imported', async (t) => {
  const src = sources(t);
  const { root, store } = scratchStore(t);
  const listing = await store.foreignList('codex', src(CODEX));
  assert.equal(listing.source, 'codex');
  assert.deepEqual(listing.sessions.map((x) => [x.file, x.sessionId, x.cwd, x.model, x.firstPrompt, x.rows, x.size]),
                   [[path.relative(CODEX, ROLLOUT), CODEX_ID, '/tmp/demo', 'gpt-5-codex', 'Show the date', 6,
                     Buffer.byteLength(CODEX_ROWS)]]);
  const report = store.importSync('codex', src(CODEX));
  assert.deepEqual([report.rowsRead, report.imported, report.keptAsCustom, report.alreadyImported, report.skipped],
                   [6, 4, 2, 0, 0]);
  assert.deepEqual(report.sessions.map((x) => [x.sessionId, x.created]), [[CODEX_ID, true]]);
  assert.ok(report.sessions[0].sessionFile.startsWith(`${root}/sessions/--tmp-demo--/`));
  const again = await store.import('codex', src(CODEX));
  assert.deepEqual([again.rowsRead, again.imported, again.alreadyImported], [6, 0, 6]);
});

test('argument errors: the library statuses, and TypeErrors for the wrong types', async (t) => {
  const src = sources(t);
  const { root, store } = scratchStore(t);
  // An unknown kind, an empty path, a file: XS_EINVAL; a path that is not there: XS_ENOTFOUND.
  assert.throws(() => store.importSync('opencode', src(CLAUDE)), code('XS_EINVAL'));
  await assert.rejects(store.foreignList('opencode', src(CLAUDE)), code('XS_EINVAL'));
  assert.throws(() => store.importSync('claude', ''), code('XS_EINVAL'));
  assert.throws(() => store.importSync('myagents', src(`${MYAGENTS}/sessions.json`)), code('XS_EINVAL'));
  assert.throws(() => store.importSync('claude', src('source/nowhere')), code('XS_ENOTFOUND'));
  await assert.rejects(store.import('gateway', src('source/nowhere')), code('XS_ENOTFOUND'));
  assert.throws(() => store.foreignListSync('myagents', src('source/nowhere')), code('XS_ENOTFOUND'));
  // myagents wants sessions.json or sessions/: another directory is not such a store.
  assert.throws(() => store.importSync('myagents', src(CLAUDE)), code('XS_ENOTFOUND'));
  assert.throws(() => store.importSync('gateway', src(GATEWAY), { lockWaitMs: -1 }), code('XS_EINVAL'));
  // A struct version other than the header's is the library's XS_EVERSION.
  assert.throws(() => store.importSync('claude', src(CLAUDE), { version: 3 }), code('XS_EVERSION'));
  await assert.rejects(store.foreignList('claude', src(CLAUDE), { version: 0 }), code('XS_EVERSION'));
  // The binding's own checks: nothing reaches the library.
  assert.throws(() => store.importSync('claude'), typeError('Store.import: sourcePath must be a string (got undefined)'));
  await assert.rejects(store.import(undefined, src(CLAUDE)),
                       typeError('Store.import: kind must be a string (got undefined)'));
  assert.throws(() => store.importSync('claude', src(CLAUDE), { dryrun: true }),
                typeError("Store.import: unknown key 'dryrun' in options"));
  assert.throws(() => store.foreignListSync('claude', src(CLAUDE), { dryRun: true }),
                typeError("Store.foreignList: unknown key 'dryRun' in options"));
  assert.throws(() => store.importSync('claude', src(CLAUDE), { targetCwd: 5 }),
                typeError('Store.import: targetCwd must be a string or null (got number)'));
  assert.throws(() => store.importSync('claude', src(CLAUDE), { lockWaitMs: '5' }),
                typeError('Store.import: lockWaitMs must be an integer (number or bigint) (got string)'));
  assert.deepEqual(fs.readdirSync(root), []); // none of the failed calls wrote anything
  store.close();
  assert.throws(() => store.importSync('claude', src(CLAUDE)), { code: 'XS_ECLOSED' });
  await assert.rejects(store.foreignList('claude', src(CLAUDE)), { code: 'XS_ECLOSED' });
});

// docs/import.md#progress: bytes of the source's transcripts, 0 first and the total last, on the
// JS thread before the result, in both forms (the Promise form's come from a worker, queued).
for (const [form, run] of [['sync', (st, ...a) => st.importSync(...a)], ['async', (st, ...a) => st.import(...a)]]) {
  test(`${form} import: progress(done, total) counts the transcripts' bytes, 0 first, the total last`, async (t) => {
    const src = sources(t);
    const transcripts = { claude: [`${CLAUDE}/11111111-2222-4333-8444-555555555555.jsonl`],
                          myagents: [`${MYAGENTS}/sessions/3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90.jsonl`],
                          gateway: [`${GATEWAY}/agents/main/sessions/4ab09157-4770-4cc8-a762-6e86a25cfa13.jsonl`],
                          codex: [ROLLOUT] };
    for (const [kind, dir] of [['claude', CLAUDE], ['myagents', MYAGENTS], ['gateway', GATEWAY], ['codex', CODEX]]) {
      const { store } = scratchStore(t);
      const total = transcripts[kind].reduce((n, f) => n + fs.statSync(src(f)).size, 0);
      const calls = [];
      let settled = false;
      const report = await run(store, kind, src(dir), { progress: (done, all) => {
        assert.equal(settled, false, 'every call comes before the result');
        calls.push([done, all]);
      } });
      settled = true;
      assert.ok(report.imported > 0, kind);
      assert.deepEqual(calls[0], [0, total], kind);
      assert.deepEqual(calls[calls.length - 1], [total, total], kind);
      calls.forEach(([done, all], i) => {
        assert.equal(all, total);
        if (i) assert.ok(done >= calls[i - 1][0], `${kind}: ${JSON.stringify(calls)}`);
      });
    }
  });

  test(`${form} import: a throwing progress is not called again, the import completes, and it throws that`, async (t) => {
    const src = sources(t);
    const { store } = scratchStore(t);
    const boom = new Error('progress failed');
    let calls = 0;
    const attempt = async () => run(store, 'claude', src(CLAUDE), { progress: () => {
      calls++;
      assert.throws(() => store.listSync(), code('XS_EMISUSE')); // the store is busy with the import
      throw boom;
    } });
    await assert.rejects(attempt, (err) => err === boom);
    assert.equal(calls, 1);
    assert.equal(store.importSync('claude', src(CLAUDE)).alreadyImported, 2); // it did import
  });
}

test('import: progress must be a function; foreignList takes none', (t) => {
  const src = sources(t);
  const { store } = scratchStore(t);
  assert.throws(() => store.importSync('claude', src(CLAUDE), { progress: 1 }),
                typeError('Store.import: progress must be a function'));
  assert.throws(() => store.foreignListSync('claude', src(CLAUDE), { progress: () => {} }),
                typeError("Store.foreignList: unknown key 'progress' in options"));
  assert.equal(store.importSync('claude', src(CLAUDE), { progress: null }).imported, 2);
});
