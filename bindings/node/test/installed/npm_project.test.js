'use strict';
// Run by npm.cmake inside an empty project that installed the packed tarball: 'xsession' is
// found by name in node_modules, its addon is the one node-gyp built there against the installed
// libxsession, and both module systems get the whole API.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

test('require: the addon node-gyp built, linked to the installed library', () => {
  const xs = require('xsession');
  const pkg = path.dirname(require.resolve('xsession/package.json'));
  assert.equal(pkg, fs.realpathSync(path.join(__dirname, 'node_modules', 'xsession')));
  assert.ok(fs.existsSync(path.join(pkg, 'build', 'Release', 'xsession.node')));
  const maps = fs.readFileSync('/proc/self/maps', 'utf8').split('\n').map((l) => l.split(/\s+/).slice(5).join(' '));
  const loaded = (re) => [...new Set(maps.filter((p) => re.test(p)).map((p) => fs.realpathSync(p)))];
  assert.deepEqual(loaded(/\/xsession\.node$/), [fs.realpathSync(path.join(pkg, 'build', 'Release', 'xsession.node'))]);
  const lib = loaded(/\/libxsession\.so/);
  assert.equal(lib.length, 1, lib.join(', '));
  assert.equal(path.dirname(lib[0]), fs.realpathSync(process.env.XS_EXPECT_LIBDIR));
  assert.deepEqual(xs.version(), xs.bindingVersion);
});

test('import: named exports and the default one', async () => {
  const { run } = await import(path.join(__dirname, 'npm_project.mjs'));
  const { context, same, isError } = await run();
  assert.deepEqual(context.messages, [{ role: 'user', content: 'q' }]);
  assert.equal(same, true);
  assert.equal(isError, true);
});

test('the tarball holds every declaration file the types import', () => {
  const pkg = path.dirname(require.resolve('xsession/package.json'));
  const { types } = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8'));
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    assert.ok(fs.existsSync(path.join(pkg, file)), `${file} is not in the package`);
    for (const m of fs.readFileSync(path.join(pkg, file), 'utf8').matchAll(/from '\.\/(\w+)'/g)) visit(`${m[1]}.d.ts`);
  };
  visit(types);
  assert.deepEqual([...seen].sort(), ['bundles.d.ts', 'entries.d.ts', 'history.d.ts', 'index.d.ts', 'library.d.ts', 'outputs.d.ts', 'search.d.ts']);
});
