'use strict';
// Loads the native addon. The whole API is native (Store, Session, XsError, status, ...); see
// index.d.ts. This file adds only the explicit-resource-management hooks (`using`) and isEntry, and
// index.mjs gives ES modules the same names.
// Where the addon is looked for, first match wins:
//   $XSESSION_NODE_ADDON        an explicit path (the CTest runs use the build tree's addon)
//   ./build/xsession.node       a standalone `cmake -S . -B build` in this directory
//   ./xsession.node             a copy placed beside this file
//   ./build/Release/xsession.node  node-gyp's build (binding.gyp: what `npm install` runs)
const fs = require('node:fs');
const path = require('node:path');

function addonPath() {
  if (process.env.XSESSION_NODE_ADDON) return path.resolve(process.env.XSESSION_NODE_ADDON);
  const candidates = [path.join(__dirname, 'build', 'xsession.node'), path.join(__dirname, 'xsession.node'),
                      path.join(__dirname, 'build', 'Release', 'xsession.node')];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(`xsession: native addon not found (looked in ${candidates.join(', ')}); ` +
                    'build it with `cmake -S . -B build && cmake --build build` or set XSESSION_NODE_ADDON');
  }
  return found;
}

const xs = require(addonPath());

// `using s = store.create(...)` closes the session (a History likewise) at the end of the block,
// and throws close()'s error (the final flush's); a Store or an Index just closes. `await using`
// flushes on a worker first, so a durable session's last fdatasync does not block the event loop;
// its close() then has nothing left to write.
async function disposeFlushingAsync() {
  if (this.closed) return;
  try {
    await this.flush();
  } catch (err) {
    try {
      this.close();
    } catch {
      // The flush's error is the one to report; close() would only repeat it.
    }
    throw err;
  }
  this.close();
}
function dispose() {
  this.close();
}
async function disposeAsync() {
  this.close();
}
// Node 18.18+ and 20.4+ define both symbols; on an older Node there is no `using` to serve.
if (typeof Symbol.dispose === 'symbol') {
  for (const cls of [xs.Store, xs.Session, xs.History, xs.Index]) {
    Object.defineProperty(cls.prototype, Symbol.dispose, { value: dispose, writable: true, configurable: true });
  }
}
if (typeof Symbol.asyncDispose === 'symbol') {
  for (const cls of [xs.Store, xs.Index]) {
    Object.defineProperty(cls.prototype, Symbol.asyncDispose, { value: disposeAsync, writable: true, configurable: true });
  }
  for (const cls of [xs.Session, xs.History]) {
    Object.defineProperty(cls.prototype, Symbol.asyncDispose,
                          { value: disposeFlushingAsync, writable: true, configurable: true });
  }
}

// A type guard in index.d.ts (entries of unknown types keep any `type`, so TypeScript needs one).
xs.isEntry = function isEntry(entry, type) {
  return entry !== null && typeof entry === 'object' && entry.type === type;
};

module.exports = xs;
