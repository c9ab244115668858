'use strict';
// Replays every tests/conformance/cases/*.json through the JS API and compares exact bytes, the
// way tests/conformance/conformance_runner.cc does through the C API (README.md there specifies
// the format). Each case runs twice: with the synchronous methods, and with the Promise forms
// wherever a method has one, so both paths are held to the same bytes.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { xs } = require('./helpers');
const { libraryStep, storeOptions, textOf } = require('./conformance_library');
const { importStep } = require('./conformance_import');
const { searchStep } = require('./conformance_search');
const { bundleStep, CaseStores } = require('./conformance_bundle');
const { recordOutput, checkRecordedTypes } = require('./typed_outputs');

const CASES = process.env.XS_CONFORMANCE_DIR || path.join(__dirname, '..', '..', '..', 'tests', 'conformance', 'cases');
const caseFiles = fs.readdirSync(CASES).filter((n) => n.endsWith('.json')).sort();

const str = (s, key) => (typeof s[key] === 'string' ? s[key] : undefined);
const fromHex = (hex) => Buffer.from(hex, 'hex');

const FLAGS = { read_only: 'readOnly', create: 'create', no_defer: 'noDefer', sync: 'sync' };

class CaseRunner {
  constructor(name, doc, mode) {
    this.name = name;
    this.doc = doc;
    this.async = mode === 'async';
    // "store_dialect" and "store_reset_policy": the stores' defaults for new sessions.
    this.stores = new CaseStores(storeOptions(doc));
    this.session = null;
    this.useStore('main');
  }

  dispose() {
    if (this.session) this.session.close();
    this.stores.dispose();
  }

  // The store `name` becomes the current one (a use_store step; "main" is the case's own): every
  // later step acts on it and its root.
  useStore(name) {
    if (this.session) this.session.close();
    this.session = null;
    this.path = '';
    ({ root: this.root, store: this.store } = this.stores.get(name));
  }

  // The Promise form in async mode (when the method has one), else the synchronous one.
  async call(obj, method, ...args) {
    const sync = obj[`${method}Sync`];
    if (this.async && sync) return await obj[method](...args);
    return (sync || obj[method]).apply(obj, args);
  }

  // The case's options; a step's own `flags` and `dialect` replace the case's.
  options(step) {
    const opts = this.doc.options || {};
    const o = {};
    const dialect = 'dialect' in step ? step.dialect : opts.dialect;
    if (dialect !== undefined && dialect !== 'auto') o.dialect = dialect; // absent = auto
    if ('clock_start_ms' in opts) {
      o.clockStartMs = opts.clock_start_ms;
      if ('clock_step_ms' in opts) o.clockStepMs = opts.clock_step_ms;
    }
    if ('id_seed' in opts) o.idSeed = opts.id_seed;
    if ('max_line_bytes' in opts) o.maxLineBytes = opts.max_line_bytes;
    if ('max_depth' in opts) o.maxDepth = opts.max_depth;
    if ('cwd' in opts) o.cwd = opts.cwd; // a fresh header's cwd
    if ('key' in step) o.key = step.key; // a session bound to a key (stats)
    for (const f of step.flags || opts.flags || []) {
      assert.ok(FLAGS[f], `unknown flag ${f}`);
      o[FLAGS[f]] = true;
    }
    return o;
  }

  sessionPath() {
    return this.session.info().path;
  }
  relative(p) {
    return p.startsWith(`${this.root}/`) ? p.slice(this.root.length + 1) : p;
  }
  adopt(fresh) {
    if (this.session) this.session.close();
    this.session = fresh;
    this.path = this.sessionPath();
  }
  async openPath(p, step, expect) {
    const o = this.options(step);
    if ('cwd' in step) o.cwd = step.cwd; // an open's own cwd replaces the case's
    const s = await this.attempt(expect, () => this.call(this.store, 'open', p, o));
    if (s) {
      this.session = s;
      this.path = p;
    }
  }

  // Runs `fn`; with an expected error, checks its code and returns undefined.
  async attempt(expect, fn) {
    if (expect === 'XS_OK') return await fn();
    await assert.rejects(async () => fn(), (err) => {
      assert.equal(err.code, expect, `expected ${expect}, got ${err.code}: ${err.message}`);
      assert.equal(typeof err.message, 'string');
      assert.ok(err.message.length > 0, 'an error carries the library message');
      return true;
    });
    return undefined;
  }

  async run() {
    const d = this.doc;
    if (d.input) fs.writeFileSync(path.join(this.root, 'input.jsonl'), d.input.map((l) => `${l}\n`).join(''));
    else if (d.input_raw !== undefined) fs.writeFileSync(path.join(this.root, 'input.jsonl'), d.input_raw);
    else if (d.input_hex !== undefined) fs.writeFileSync(path.join(this.root, 'input.jsonl'), fromHex(d.input_hex));
    for (const [i, s] of d.steps.entries()) {
      try {
        await this.step(s);
      } catch (err) {
        err.message = `${this.name} step ${i} (${s.op}): ${err.message}`;
        throw err;
      }
    }
  }

  // A raw output against the step's text; `type` (index.d.ts) is what the parsed output is
  // declared as, checked by tsc after the replay (typed_outputs.js).
  async checkText(s, expect, key, fn, type) {
    const got = await this.attempt(expect, fn);
    if (expect === 'XS_OK') {
      assert.equal(got, textOf(s[key]));
      this.typed(type, got, s);
    }
    return got;
  }

  typed(type, text, s) {
    recordOutput(type, text, `${this.name} ${s.op}`);
  }

  async step(s) {
    const op = s.op;
    const expect = s.expect || 'XS_OK';
    assert.ok(xs.status[expect] !== undefined, `unknown status ${expect}`);
    const session = this.session;
    const readOpts = { raw: true, resolveBlobs: s.resolve_blobs === true };
    const appendOp = (fn) => this.appended(s, expect, fn);

    if ((op === 'create' || op === 'open') && this.session) {
      this.session.close(); // one session at a time: a new one replaces the last
      this.session = null;
    }
    switch (op) {
      case 'create': {
        const o = { ...this.options(s), sessionId: str(s, 'session_id'), title: str(s, 'title'),
                    parentSession: str(s, 'parent_session') };
        const fresh = await this.attempt(expect, () => this.store.create(s.cwd, o));
        if (fresh) {
          this.session = fresh;
          this.path = this.sessionPath();
        }
        return;
      }
      case 'open': return this.openPath(path.join(this.root, s.path || 'input.jsonl'), s, expect);
      case 'close':
      case 'reopen':
        if (this.session) this.session.close(); // like xs_session_close(NULL): nothing open, nothing to do
        this.session = null;
        return op === 'reopen' ? this.openPath(this.path, s, expect) : undefined;
      case 'append': return appendOp(() => session.append(textOf(s.entry)));
      case 'append_message': return appendOp(() => session.appendMessage(textOf(s.message)));
      case 'append_thinking_level': return appendOp(() => session.appendThinkingLevel(s.level));
      case 'append_model_change': return appendOp(() => session.appendModelChange(s.model, str(s, 'role')));
      case 'append_compaction':
        return appendOp(() => session.appendCompaction({
          summary: textOf(s.summary),
          shortSummary: s.short_summary === undefined ? undefined : textOf(s.short_summary),
          firstKeptEntryId: s.first_kept_entry_id,
          tokensBefore: s.tokens_before,
          details: s.details === undefined ? undefined : textOf(s.details),
          fromExtension: s.from_extension,
          preserveData: s.preserve_data === undefined ? undefined : textOf(s.preserve_data),
        }));
      case 'append_custom':
        return appendOp(() => session.appendCustom(s.custom_type, s.data === undefined ? undefined : textOf(s.data)));
      case 'append_custom_message':
        return appendOp(() => session.appendCustomMessage({
          customType: s.custom_type,
          content: textOf(s.content),
          display: s.display,
          details: s.details === undefined ? undefined : textOf(s.details),
          attribution: str(s, 'attribution'),
        }));
      case 'append_label': return appendOp(() => session.appendLabel(s.target_id, str(s, 'label')));
      case 'append_ttsr_injection': return appendOp(() => session.appendTtsrInjection(textOf(s.rules)));
      case 'append_session_init':
        return appendOp(() => session.appendSessionInit({
          systemPrompt: textOf(s.system_prompt),
          task: textOf(s.task),
          tools: textOf(s.tools),
          outputSchema: s.output_schema === undefined ? undefined : textOf(s.output_schema),
        }));
      case 'append_mode_change':
        return appendOp(() => session.appendModeChange(s.mode, s.data === undefined ? undefined : textOf(s.data)));
      case 'append_session_info': return appendOp(() => session.appendSessionInfo(textOf(s.name)));
      case 'branch_with_summary':
        return appendOp(() => session.branchWithSummary(s.from_id, textOf(s.summary), {
          details: s.details === undefined ? undefined : textOf(s.details),
          fromExtension: s.from_extension,
        }));
      case 'set_leaf': return this.attempt(expect, () => session.setLeaf(s.id));
      case 'set_title': return this.attempt(expect, () => this.call(session, 'setTitle', s.title));
      case 'flush': return this.attempt(expect, () => this.call(session, 'flush'));
      case 'persist': return this.attempt(expect, () => this.call(session, 'persist'));
      case 'check_file': return this.checkFile(s);
      case 'check_context':
        return this.checkText(s, expect, 'context', () => this.call(session, 'buildContext', str(s, 'leaf'), { raw: true }), 'Context');
      case 'check_leaf':
        assert.equal(session.leaf(), s.id === null ? null : textOf(s.id));
        return;
      case 'check_dialect': {
        const got = await this.attempt(expect, () => session.dialect());
        if (expect === 'XS_OK') assert.equal(got, s.dialect);
        return;
      }
      case 'check_header': return this.checkText(s, expect, 'json', () => session.header({ raw: true }), 'Header');
      case 'check_entries':
        return this.checkText(s, expect, 'json', () => this.call(session, 'entries', readOpts), 'Entry[]');
      case 'check_entry': return this.checkText(s, expect, 'json', () => session.entry(s.id, readOpts), 'Entry');
      case 'check_path':
        return this.checkText(s, expect, 'json', () => this.call(session, 'path', str(s, 'id'), readOpts), 'Entry[]');
      case 'check_children':
        return this.checkText(s, expect, 'json', () => session.children(s.id, readOpts), 'Entry[]');
      case 'check_tree':
        return this.checkText(s, expect, 'json', () => this.call(session, 'tree', readOpts), 'TreeNode[]');
      case 'check_labels': return this.checkText(s, expect, 'json', () => session.labels({ raw: true }), 'Label[]');
      case 'check_usage': return this.checkText(s, expect, 'json', () => session.usage({ raw: true }), 'Usage');
      case 'check_info': {
        const info = session.info();
        this.typed('SessionInfo', session.info({ raw: true }), s);
        for (const [k, v] of Object.entries(s.fields)) {
          assert.ok(k in info, `info has no field ${k}`);
          assert.deepEqual(info[k], v, `info field ${k}`);
        }
        return;
      }
      case 'check_diagnostics': {
        const diags = session.diagnostics();
        this.typed('Diagnostic[]', session.diagnostics({ raw: true }), s);
        assert.equal(diags.length, s.expected.length, JSON.stringify(diags));
        s.expected.forEach((want, i) => {
          for (const [k, v] of Object.entries(want)) assert.deepEqual(diags[i][k], v, JSON.stringify(diags));
        });
        return;
      }
      case 'check_preserved': {
        const dir = path.dirname(this.path);
        const prefix = `${path.basename(this.path)}.corrupt-`;
        const found = fs.readdirSync(dir).filter((n) => n.startsWith(prefix));
        assert.equal(found.length, 1);
        assert.deepEqual(fs.readFileSync(path.join(dir, found[0])), Buffer.from(textOf(s.raw)));
        return;
      }
      case 'write_file': {
        const target = path.join(this.root, s.path);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, s.raw !== undefined ? textOf(s.raw) : s.lines.map((l) => `${textOf(l)}\n`).join(''));
        return;
      }
      case 'append_to_file':
        fs.appendFileSync(this.path, textOf(s.raw));
        return;
      case 'reload': {
        const added = await this.attempt(expect, () => this.call(session, 'reload'));
        if (expect === 'XS_OK' && s.expect_added !== undefined) assert.equal(added, s.expect_added);
        return;
      }
      case 'fork':
      case 'create_branched': {
        const o = { ...this.options(s), sessionId: str(s, 'session_id') };
        const fresh = await this.attempt(expect, () =>
          op === 'fork' ? this.call(session, 'fork', o) : this.call(session, 'createBranched', str(s, 'leaf'), o));
        if (fresh) this.adopt(fresh);
        return;
      }
      case 'fork_from':
      case 'continue_recent': {
        const o = this.options(s);
        const fresh = await this.attempt(expect, () =>
          op === 'fork_from'
            ? this.call(this.store, 'forkFrom', path.join(this.root, s.source), s.cwd, o)
            : this.call(this.store, 'continueRecent', s.cwd, str(s, 'terminal_id'), o));
        if (fresh) this.adopt(fresh);
        return;
      }
      case 'move_to':
        await this.attempt(expect, () => this.call(session, 'moveTo', s.cwd));
        if (expect === 'XS_OK') this.path = this.sessionPath();
        return;
      case 'write_breadcrumb':
        return this.attempt(expect, () =>
          this.store.writeBreadcrumb(s.terminal_id, s.cwd, path.join(this.root, s.path)));
      case 'blob_put': {
        const hash = await this.call(this.store, 'blobPut', textOf(s.data));
        if (s.expect_hash !== undefined) assert.equal(hash, s.expect_hash);
        return;
      }
      case 'check_blob': {
        const got = await this.attempt(expect, () => this.call(this.store, 'blobGet', s.hash));
        if (expect === 'XS_OK') assert.deepEqual(got, Buffer.from(textOf(s.data)));
        return;
      }
      case 'check_resolve': {
        const got = await this.attempt(expect, () => this.store.resolve(s.query, str(s, 'cwd')));
        if (expect === 'XS_OK') assert.equal(this.relative(got), s.path);
        return;
      }
      case 'check_list': return this.checkList(s);
      default:
        for (const known of [libraryStep, importStep, searchStep, bundleStep]) {
          if (await known(this, s, expect)) return undefined;
        }
        if (!op.startsWith('keys_') && !op.startsWith('check_keys_')) assert.fail(`unknown op ${op}`);
        return this.keysStep(s, expect);
    }
  }

  // The keyed store (README "Keyed store"; tests/conformance/keys_steps.cc). Where the C API
  // says XS_ENOTFOUND, store.keys answers null (get) or false (delete) instead of throwing.
  async keysStep(s, expect) {
    const keys = this.store.keys;
    const doc = path.join(this.root, 'sessions.json');
    const absentAs = async (value, fn) => {
      if (expect !== 'XS_ENOTFOUND') return this.attempt(expect, fn);
      assert.equal(await fn(), value);
      return undefined;
    };
    switch (s.op) {
      case 'keys_put': return this.attempt(expect, () => this.call(keys, 'put', s.key, textOf(s.record)));
      case 'keys_patch': return this.attempt(expect, () => this.call(keys, 'patch', s.key, textOf(s.patch)));
      case 'keys_delete': {
        const removed = await absentAs(false, () => this.call(keys, 'delete', s.key));
        if (expect === 'XS_OK') assert.equal(removed, true);
        return;
      }
      case 'keys_update': return this.keysUpdate(s, expect);
      case 'check_keys_get': {
        const got = await absentAs(null, () => this.call(keys, 'get', s.key, { raw: true }));
        if (expect === 'XS_OK') assert.equal(got, textOf(s.json));
        if (expect === 'XS_OK') this.typed('KeyRecord', got, s);
        return;
      }
      case 'check_keys_list':
        return this.checkText(s, expect, 'json', () => this.call(keys, 'list', str(s, 'prefix'), { raw: true }),
                              'KeyEntry[]');
      case 'check_keys_file':
        if (s.exists === false) assert.equal(fs.existsSync(doc), false, 'sessions.json should not exist');
        else assert.deepEqual(fs.readFileSync(doc), Buffer.from(textOf(s.raw)));
        return;
      case 'check_keys_preserved': {
        const found = fs.readdirSync(this.root).filter((n) => n.startsWith('sessions.json.corrupt-'));
        assert.equal(found.length, 1, found.join(', '));
        assert.deepEqual(fs.readFileSync(path.join(this.root, found[0])), Buffer.from(textOf(s.raw)));
        return;
      }
      default:
        assert.fail(`unknown op ${s.op}`);
    }
  }

  // The callback answers `result` (JSON text; null or absent: remove), or cancels by throwing an
  // error that names the status `cancel`: that very error is what the update rejects with.
  async keysUpdate(s, expect) {
    const calls = [];
    const cancel = s.cancel === undefined ? null
      : Object.assign(new Error(`cancelled with ${s.cancel}`), { code: s.cancel, status: xs.status[s.cancel] });
    const fn = (current) => {
      calls.push(current);
      if (cancel) throw cancel;
      return s.result === undefined || s.result === null ? null : textOf(s.result);
    };
    const run = () => this.call(this.store.keys, 'update', s.key, fn, { raw: true });
    if (cancel) {
      assert.equal(expect, s.cancel, 'a cancelled update returns the callback\'s status');
      await assert.rejects(async () => run(), (err) => err === cancel);
    } else {
      await this.attempt(expect, run);
    }
    if ('expect_current' in s) {
      assert.equal(calls.length, 1, 'the callback ran once');
      assert.equal(calls[0], s.expect_current === null ? null : textOf(s.expect_current));
    }
  }

  async appended(s, expect, fn) {
    const id = await this.attempt(expect, fn);
    if (expect === 'XS_OK') {
      assert.equal(typeof id, 'string');
      if (s.expect_id !== undefined) assert.equal(id, s.expect_id);
    }
  }

  checkFile(s) {
    const file = this.path || this.sessionPath();
    const exists = fs.existsSync(file);
    if (s.exists === false) {
      assert.equal(exists, false, 'the session file should not exist yet');
      return;
    }
    assert.ok(exists, `${file} should exist`);
    const bytes = fs.readFileSync(file);
    if (s.raw !== undefined) assert.deepEqual(bytes, Buffer.from(textOf(s.raw)));
    else if (s.raw_hex !== undefined) assert.deepEqual(bytes, fromHex(s.raw_hex));
    else {
      // "{root}" stands for the store's directory (paths the library writes into files).
      const want = s.lines.map((l) => `${textOf(l)}\n`).join('').replaceAll('{root}', this.root);
      assert.equal(bytes.toString('utf8'), want);
      assert.deepEqual(bytes, Buffer.from(want)); // and byte for byte, not just as decoded text
    }
  }

  async checkList(s) {
    const options = { cwd: str(s, 'cwd'), full: s.full, limit: s.limit };
    const got = await this.call(this.store, 'list', options);
    this.typed('SessionListing[]', await this.call(this.store, 'list', { ...options, raw: true }), s);
    assert.equal(got.length, s.expected.length, JSON.stringify(got));
    // Listed newest first by file time, which ties within a test: compare in path order.
    got.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    s.expected.forEach((want, i) => {
      for (const [k, v] of Object.entries(want)) {
        if (k === 'path') assert.equal(this.relative(got[i].path), v);
        else assert.deepEqual(got[i][k], v, `list field ${k} of ${JSON.stringify(got)}`);
      }
    });
  }
}

test('the conformance suite has at least thirty cases', () => {
  assert.ok(caseFiles.length >= 30, `${caseFiles.length} cases in ${CASES}`);
});

for (const mode of ['sync', 'async']) {
  for (const name of caseFiles) {
    test(`${mode}: ${name}`, async () => {
      const doc = JSON.parse(fs.readFileSync(path.join(CASES, name), 'utf8'));
      assert.ok(doc.description && doc.steps, `${name} has a description and steps`);
      const runner = new CaseRunner(name, doc, mode);
      try {
        await runner.run();
      } finally {
        runner.dispose();
      }
    });
  }
}

// Outputs no case reaches (the C runner checks them in tests/capi): made here so that tsc checks
// their types with the rest.
test('typed outputs the cases do not reach: verify, repair, blob listing and GC', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xsn-typed-'));
  const store = new xs.Store(root);
  try {
    const s = store.create('/w', { noDefer: true, idSeed: 3, clockStartMs: 1767225600000, clockStepMs: 1000 });
    const image = Buffer.alloc(3000, 1).toString('base64');
    const q = s.appendMessage({ role: 'user', content: [{ type: 'image', data: image, mimeType: 'image/png' }] });
    s.appendLabel(q, 'start');
    const file = s.info().path;
    s.close();
    fs.appendFileSync(file, 'not json\n{"torn":');
    const w = await store.open(file);
    const where = (op) => `typed outputs ${op}`;
    recordOutput('VerifyReport', await w.verify({ raw: true }), where('verify'));
    recordOutput('RepairReport', await w.repair({ quarantine: true, raw: true }), where('repair'));
    recordOutput('VerifyReport', w.verifySync({ raw: true }), where('verify after repair'));
    recordOutput('SessionInfo', w.info({ raw: true }), where('info'));
    w.close();
    recordOutput('BlobListing', await store.blobList({ verify: true, raw: true }), where('blobList'));
    fs.writeFileSync(path.join(root, 'blobs', 'stray.tmp'), 'x');
    recordOutput('GcReport', await store.blobGc({ dryRun: true, graceMs: 0, raw: true }), where('blobGc'));
    recordOutput('SessionListing[]', await store.list({ full: true, raw: true }), where('list full'));
  } finally {
    store.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('every JSON output of the replay is the type index.d.ts declares (tsc)', () => {
  checkRecordedTypes(200);
});
