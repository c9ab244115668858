'use strict';
// The bundle ops of the conformance cases (tests/conformance/README.md: "Bundles"), replayed
// through Store.export and Store.importBundle as tests/conformance/bundle_steps.cc replays them
// through the C API: a case may name more than one store (CaseStores), and its bundles live in a
// directory of their own. bundleStep(runner, step, expect) answers whether it knew the op.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { xs } = require('./helpers');

// The case's own store ("main") and each one a use_store step names: opened on first use in a
// fresh empty directory, all with the case's store options; and the bundle directory, made on
// first use. All live until dispose().
class CaseStores {
  constructor(options) {
    this.options = options;
    this.byName = new Map();
    this.bundleDir = '';
  }

  get(name) {
    if (!this.byName.has(name)) {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xsn-conformance-'));
      this.byName.set(name, { root, store: new xs.Store(root, this.options) });
    }
    return this.byName.get(name);
  }

  bundles() {
    if (!this.bundleDir) this.bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xsn-conformance-bundles-'));
    return this.bundleDir;
  }

  dispose() {
    for (const { root, store } of this.byName.values()) {
      store.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
    if (this.bundleDir) fs.rmSync(this.bundleDir, { recursive: true, force: true });
  }
}

// An expected value's JSON text with its placeholders replaced: "{bundles}" by the bundle
// directory, "{root:NAME}" by the root of the store NAME, "{root}" by the current store's root.
function placed(runner, text) {
  const out = text.replaceAll('{bundles}', runner.stores.bundles()).replace(/\{root:([^}]*)\}/g,
                                                                            (_, name) => runner.stores.get(name).root);
  assert.ok(!/\{root:/.test(out), `unclosed {root: in ${text}`);
  return out.replaceAll('{root}', runner.root);
}

// Each member `want` lists equals the report's, compared as minified JSON text; a list has as
// many items as the report's, each a string equal to the report's item or an object each of whose
// members equals the item's (its other members are not compared).
function expectReport(runner, report, want, text) {
  for (const [member, value] of Object.entries(want)) {
    assert.ok(member in report, `no member ${member} in ${text}`);
    const have = report[member];
    if (!Array.isArray(value)) {
      assert.equal(JSON.stringify(have), placed(runner, JSON.stringify(value)), `${member} of ${text}`);
      continue;
    }
    assert.ok(Array.isArray(have), `${member} is not a list in ${text}`);
    assert.equal(have.length, value.length, `${member} of ${text}`);
    value.forEach((w, i) => {
      if (w === null || typeof w !== 'object' || Array.isArray(w)) {
        assert.equal(JSON.stringify(have[i]), placed(runner, JSON.stringify(w)), `${member} ${i} of ${text}`);
        return;
      }
      for (const [key, item] of Object.entries(w)) {
        const got = key in have[i] ? JSON.stringify(have[i][key]) : '(none)';
        assert.equal(got, placed(runner, JSON.stringify(item)), `${member} ${i} ${key} of ${text}`);
      }
    });
  }
}

// A bundle cut short (`truncate`: its first N bytes kept) or with the byte at offset `flip`
// inverted, written to `to` (a name in the bundle directory; absent: in place).
function damageBundle(runner, s) {
  const from = path.join(runner.stores.bundles(), s.bundle);
  let bytes = fs.readFileSync(from);
  if ('truncate' in s) {
    assert.ok(s.truncate < bytes.length, 'the bundle is shorter than the cut');
    bytes = bytes.subarray(0, s.truncate);
  }
  if ('flip' in s) {
    assert.ok(s.flip < bytes.length, "the bundle is shorter than the flipped byte's offset");
    bytes[s.flip] ^= 0xff;
  }
  fs.writeFileSync('to' in s ? path.join(runner.stores.bundles(), s.to) : from, bytes);
}

// The step's call on the current store: the report's JSON text (raw), so that it is compared as
// the library wrote it and its declared type is checked by tsc with the other outputs.
function bundleCall(runner, s, bundle) {
  if (s.op === 'export_bundle') {
    return runner.call(runner.store, 'export', s.sessions, bundle,
                       { lineage: s.no_lineage !== true, gzip: s.gzip === true, raw: true });
  }
  // The pairs in order, as an array of [old, new]: the C runner's flattened cwd_map.
  const o = { rename: s.rename === true, dryRun: s.dry_run === true, raw: true };
  if ('cwd_map' in s) o.cwdMap = s.cwd_map;
  return runner.call(runner.store, 'importBundle', bundle, o);
}

async function bundleStep(runner, s, expect) {
  switch (s.op) {
    case 'use_store':
      runner.useStore(s.store);
      return true;
    case 'damage_bundle':
      damageBundle(runner, s);
      return true;
    case 'export_bundle':
    case 'import_bundle':
      break;
    default:
      return false;
  }
  const bundle = path.join(runner.stores.bundles(), s.bundle);
  if (expect !== 'XS_OK') {
    await assert.rejects(async () => bundleCall(runner, s, bundle), (err) => {
      assert.ok(err instanceof xs.XsError, `${err}`);
      assert.equal(err.code, expect, `expected ${expect}, got ${err.code}: ${err.message}`);
      if ('message_prefix' in s) {
        const prefix = placed(runner, s.message_prefix);
        assert.ok(err.message.startsWith(prefix), `${err.message}\ndoes not start with\n${prefix}`);
      }
      return true;
    });
    return true;
  }
  const text = await bundleCall(runner, s, bundle);
  assert.equal(typeof text, 'string');
  runner.typed(s.op === 'export_bundle' ? 'BundleExportReport' : 'BundleImportReport', text, s);
  expectReport(runner, JSON.parse(text), s.report, text);
  return true;
}

module.exports = { bundleStep, CaseStores };
