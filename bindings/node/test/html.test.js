'use strict';
// Store.exportHtml (docs/html-view.md): one session is one page, several a directory of pages with
// an index; the report against the files written, both forms, the refusals with their exact
// statuses, and the report held to its declared type.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scratch, scratchStore, FIXED, user, assistant, xsError } = require('./helpers');
const { record, checkRecordedTypes } = require('./typed_outputs');

const typeError = (message) => ({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message });

// A session `id` in /w: a question, an answer, and (branched) a second answer to the question.
function make(store, id, branched = false) {
  const s = store.create('/w', { ...FIXED, sessionId: id, noDefer: true });
  const q = s.appendMessage(user(`What is in ${id}?`));
  s.appendMessage(assistant('Two files.'));
  if (branched) {
    s.setLeaf(q);
    s.appendMessage(assistant('Three files.'));
  }
  const info = s.info();
  s.close();
  return info;
}

test('one session is one page: the report says what the file holds', async (t) => {
  const { store } = scratchStore(t);
  make(store, 'aaaa1111', true);
  const out = path.join(scratch(t), 'page.html');
  const raw = store.exportHtmlSync('aaaa1111', out, { raw: true });
  const report = JSON.parse(raw);
  assert.equal(JSON.stringify(report), raw);
  record('HtmlReport', report, 'one page');
  const page = fs.readFileSync(out, 'utf8');
  assert.ok(page.startsWith('<!DOCTYPE html>'), page.slice(0, 40));
  assert.deepEqual(report, {
    pages: [{ path: out, sessionId: 'aaaa1111', entries: 3, messages: 3, branchPoints: 1, branches: 1,
              bytes: Buffer.byteLength(page) }],
    index: null,
  });
  // The Promise form, parsed, by an id prefix: the same page again.
  assert.deepEqual(await store.exportHtml(['aaaa'], out), report);
  assert.equal(fs.readFileSync(out, 'utf8'), page);
});

test('several sessions are a directory of pages with an index, in the order named', async (t) => {
  const { store } = scratchStore(t);
  make(store, 'aaaa1111');
  make(store, 'bbbb2222');
  const dir = path.join(scratch(t), 'pages'); // made by the call
  const report = await store.exportHtml(['bbbb2222', 'aaaa1111'], dir);
  record('HtmlReport', report, 'pages and index');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['aaaa1111.html', 'bbbb2222.html', 'index.html']);
  const size = (name) => fs.statSync(path.join(dir, name)).size;
  const page = (id) => ({ path: path.join(dir, `${id}.html`), sessionId: id, entries: 2, messages: 2, branchPoints: 0,
                          branches: 0, bytes: size(`${id}.html`) });
  assert.deepEqual(report, { pages: [page('bbbb2222'), page('aaaa1111')],
                             index: { path: path.join(dir, 'index.html'), bytes: size('index.html') } });
  const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  assert.ok(index.startsWith('<!DOCTYPE html>'));
  assert.ok(index.indexOf('bbbb2222.html') >= 0 && index.indexOf('aaaa1111.html') >= 0, index);
  assert.deepEqual(store.exportHtmlSync(['bbbb2222', 'aaaa1111'], dir), report);
});

test('exportHtml: the refusals, with the library statuses and the binding TypeErrors', async (t) => {
  const { store } = scratchStore(t);
  make(store, 'aaaa1111');
  make(store, 'aaaa2222');
  const dir = scratch(t);
  const out = path.join(dir, 'p.html');
  assert.throws(() => store.exportHtmlSync([], out), xsError('XS_EINVAL'));
  assert.throws(() => store.exportHtmlSync('', out), xsError('XS_EINVAL'));
  assert.throws(() => store.exportHtmlSync('aaaa1111', ''), xsError('XS_EINVAL'));
  assert.throws(() => store.exportHtmlSync('aaaa1111', dir), xsError('XS_EINVAL')); // one session, a directory
  assert.throws(() => store.exportHtmlSync(['aaaa1111', 'aaaa1111'], path.join(dir, 'x')), xsError('XS_EINVAL'));
  await assert.rejects(store.exportHtml('zzzz', out), xsError('XS_ENOTFOUND'));
  assert.throws(() => store.exportHtmlSync('aaaa', out), xsError('XS_EAMBIGUOUS'));
  assert.throws(() => store.exportHtmlSync('aaaa1111', path.join(dir, 'missing', 'p.html')), xsError('XS_ENOTFOUND'));
  assert.deepEqual(fs.readdirSync(dir), []);
  assert.throws(() => store.exportHtmlSync(null, out),
                typeError('Store.exportHtml: ids must be a string or an array of strings (got null)'));
  await assert.rejects(store.exportHtml(['aaaa1111', {}], out),
                       typeError('Store.exportHtml: ids[1] must be a string (got object)'));
  assert.throws(() => store.exportHtmlSync('aaaa1111', 7), typeError('Store.exportHtml: outPath must be a string (got number)'));
  assert.throws(() => store.exportHtmlSync('aaaa1111', out, { lineage: false }),
                typeError("Store.exportHtml: unknown key 'lineage' in options"));
  store.close();
  assert.throws(() => store.exportHtmlSync('aaaa1111', out), { code: 'XS_ECLOSED' });
});

test('the HTML reports are the type bundles.d.ts declares', () => {
  assert.ok(checkRecordedTypes(2) >= 2);
});
