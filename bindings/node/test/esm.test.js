'use strict';
// The ES module entry: `import { Store } from 'xsession'` gives every name index.js exports, the
// same objects, through package.json's "exports" (as an installed package is imported).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { xs, scratch } = require('./helpers');

const DIR = path.join(__dirname, '..');

test('index.mjs exports every name of index.js, as the same objects', async () => {
  const esm = await import(pathToFileURL(path.join(DIR, 'index.mjs')).href);
  assert.deepEqual(Object.keys(esm).filter((n) => n !== 'default').sort(), Object.keys(xs).sort());
  for (const name of Object.keys(xs)) assert.equal(esm[name], xs[name], name);
  assert.equal(esm.default, xs);
});

test("a project's `import { Store, XsError } from 'xsession'` and require('xsession') agree", (t) => {
  const project = scratch(t);
  fs.mkdirSync(path.join(project, 'node_modules'));
  fs.symlinkSync(DIR, path.join(project, 'node_modules', 'xsession'));
  fs.writeFileSync(path.join(project, 'main.mjs'), `
import { createRequire } from 'node:module';
import xs, { Store, XsError, status } from 'xsession';
const cjs = createRequire(import.meta.url)('xsession');
const store = new Store(null, { inMemory: true });
const s = store.create('/w');
let code = null;
try { s.entry('nope'); } catch (err) { code = err instanceof XsError ? err.code : 'not an XsError'; }
s.close();
store.close();
console.log(JSON.stringify({ same: cjs === xs && cjs.Store === Store, code, ok: status.XS_OK }));
`);
  const out = require('node:child_process').execFileSync(process.execPath, [path.join(project, 'main.mjs')],
                                                         { encoding: 'utf8', cwd: project });
  assert.deepEqual(JSON.parse(out), { same: true, code: 'XS_ENOTFOUND', ok: 0 });
});
