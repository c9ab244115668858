'use strict';
// The package around the addon: package.json, index.d.ts and the README describe exactly the
// methods the addon has, and the README's agent-loop example runs.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { xs, scratch } = require('./helpers');

const DIR = path.join(__dirname, '..');
const dts = fs.readFileSync(path.join(DIR, 'index.d.ts'), 'utf8');
const historyDts = fs.readFileSync(path.join(DIR, 'history.d.ts'), 'utf8');
const searchDts = fs.readFileSync(path.join(DIR, 'search.d.ts'), 'utf8');
const readme = fs.readFileSync(path.join(DIR, 'README.md'), 'utf8');

// The method and accessor names declared in one `declare class` block of index.d.ts (or `text`).
function declared(cls, text = dts) {
  const block = text.split(`export declare class ${cls} {`)[1].split('\n}')[0];
  const names = new Set();
  for (const m of block.matchAll(/^ {2}(?:readonly )?(\w+)(?:\(|:)/gm)) {
    if (m[1] !== 'constructor') names.add(m[1]);
  }
  return [...names].sort();
}

const own = (cls) => Object.getOwnPropertyNames(cls.prototype).filter((n) => n !== 'constructor').sort();

test('package.json names the package, its entry point and its types', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(DIR, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'xsession');
  assert.equal(pkg.main, 'index.js');
  assert.equal(pkg.types, 'index.d.ts');
  const { major, minor, patch } = xs.bindingVersion;  // the header the addon was compiled with
  assert.equal(pkg.version, `${major}.${minor}.${patch}`);
  assert.equal(require(path.join(DIR, pkg.main)), xs);
  assert.ok(fs.existsSync(path.join(DIR, pkg.types)));
});

test('index.d.ts (history.d.ts, search.d.ts) declare exactly the methods of Store, Session, Keys, History and Index', () => {
  assert.deepEqual(declared('Store'), own(xs.Store));
  assert.deepEqual(declared('Session'), own(xs.Session));
  assert.deepEqual(declared('Keys'), [...own(xs.Keys), 'store'].sort()); // `store`: each object's own
  assert.deepEqual(declared('History', historyDts), own(xs.History));
  assert.deepEqual(declared('Index', searchDts), own(xs.Index));
  // index.d.ts re-exports the others.
  const both = [dts, ...['library.d.ts', 'entries.d.ts', 'history.d.ts', 'search.d.ts'].map((f) => fs.readFileSync(path.join(DIR, f), 'utf8'))].join('\n');
  const exported = [...both.matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(exported, Object.keys(xs).sort());
});

test('test/types/usage.ts (node.tsc) uses every method, accessor and export', () => {
  const usage = fs.readFileSync(path.join(DIR, 'test', 'types', 'usage.ts'), 'utf8');
  for (const [cls, names] of [['Store', own(xs.Store)], ['Session', own(xs.Session)], ['Keys', [...own(xs.Keys), 'store']],
                               ['History', own(xs.History)], ['Index', own(xs.Index)]]) {
    for (const name of names) assert.match(usage, new RegExp(`\\.${name}\\b`), `${cls}.${name}`);
  }
  for (const name of Object.keys(xs)) assert.match(usage, new RegExp(`\\b${name}\\b`), name);
});

test('the README documents every method', () => {
  for (const [cls, names] of [['Store', own(xs.Store)], ['Session', own(xs.Session)], ['Keys', own(xs.Keys)],
                               ['History', own(xs.History)], ['Index', own(xs.Index)]]) {
    for (const name of names) assert.ok(readme.includes(`${name}(`) || readme.includes(`\`${name}\``), `${cls}.${name}`);
  }
});

test("the README's agent loop runs and prints the branched context", (t) => {
  const root = scratch(t);
  // `require('xsession')` as an installed package: NODE_PATH holds a link named xsession.
  const modules = scratch(t);
  fs.symlinkSync(DIR, path.join(modules, 'xsession'));
  const out = execFileSync(process.execPath, [path.join(DIR, 'example', 'agent-loop.js'), root],
                           { encoding: 'utf8', env: { ...process.env, NODE_PATH: modules } });
  assert.equal(out, [
    'user: "Why does the build fail?"',
    'branchSummary: "Tried the missing-include theory."',
    'user: "Check the linker flags instead."',
    '',
  ].join('\n'));
  const dir = path.join(root, 'sessions');
  const [sub] = fs.readdirSync(dir);
  const [file] = fs.readdirSync(path.join(dir, sub));
  const types = fs.readFileSync(path.join(dir, sub, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l).type);
  assert.deepEqual(types, ['session', 'message', 'message', 'branch_summary', 'message']);
  // The example in the README is this file.
  assert.ok(readme.includes(fs.readFileSync(path.join(DIR, 'example', 'agent-loop.js'), 'utf8').trim()));
});

test("the README's typed agent loop (example/agent-loop.ts) compiles with tsc and runs", (t) => {
  const work = scratch(t);
  const out = path.join(work, 'out');
  fs.mkdirSync(path.join(work, 'node_modules'));
  fs.symlinkSync(DIR, path.join(work, 'node_modules', 'xsession'));
  fs.writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, outDir: out, rootDir: path.join(DIR, 'example'), target: 'es2020',
                       module: 'commonjs', lib: ['es2020'], types: [], baseUrl: work,
                       paths: { xsession: [path.join(DIR, 'index.d.ts')] } },
    files: [path.join(DIR, 'example', 'agent-loop.ts')],
  }));
  execFileSync(process.env.XS_TSC || 'tsc', ['-p', work], { encoding: 'utf8' });
  const main = `require(${JSON.stringify(path.join(out, 'agent-loop.js'))}).agentLoop(process.argv[1], '/home/dev/project')
    .then((lines) => console.log(JSON.stringify(lines)))`;
  const lines = JSON.parse(execFileSync(process.execPath, ['-e', main, path.join(work, 'store')], { encoding: 'utf8' }));
  assert.deepEqual(lines, [
    'user: "Why does the build fail?"',
    'branchSummary: "Tried the missing-include theory."',
    'label diagnosis on the answer',
    'the question is a root: true',
  ]);
  assert.ok(readme.includes(fs.readFileSync(path.join(DIR, 'example', 'agent-loop.ts'), 'utf8').trim()));
});
