'use strict';
// Run by check.cmake with an addon built standalone against an installed libxsession: the
// process must have loaded that library (not the build tree's), and the binding must work.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const xs = require('../..');

test('the addon uses the installed libxsession', () => {
  const expected = fs.realpathSync(process.env.XS_EXPECT_LIBDIR);
  const mapped = new Set(fs.readFileSync('/proc/self/maps', 'utf8').split('\n')
    .map((l) => l.split(/\s+/).slice(5).join(' ')).filter((p) => /\/libxsession\.so/.test(p)));
  assert.equal(mapped.size, 1, [...mapped].join(', '));
  assert.equal(path.dirname(fs.realpathSync([...mapped][0])), expected);
  assert.equal(fs.realpathSync(process.env.XSESSION_NODE_ADDON).endsWith(path.join('build', 'xsession.node')), true);
});

test('and works', async () => {
  const store = new xs.Store(null, { inMemory: true });
  const s = store.create('/w', { clockStartMs: 0, idSeed: 1 });
  const q = s.appendMessage({ role: 'user', content: 'q' });
  const context = await s.buildContext();
  assert.equal(context.leafId, q);
  assert.deepEqual(context.messages, [{ role: 'user', content: 'q' }]);
  assert.deepEqual(xs.version(), xs.bindingVersion);
  s.close();
  store.close();
});
