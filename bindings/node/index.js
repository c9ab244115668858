'use strict';
// Loads the native addon. The whole API is native (Store, Session, status, ...); see index.d.ts.
// Where the addon is looked for, first match wins:
//   $XSESSION_NODE_ADDON        an explicit path (the CTest runs use the build tree's addon)
//   ./build/xsession.node       a standalone `cmake -S . -B build` in this directory
//   ./xsession.node             a copy placed beside this file (a packaged install)
const fs = require('node:fs');
const path = require('node:path');

function addonPath() {
  if (process.env.XSESSION_NODE_ADDON) return path.resolve(process.env.XSESSION_NODE_ADDON);
  const candidates = [path.join(__dirname, 'build', 'xsession.node'), path.join(__dirname, 'xsession.node')];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error(`xsession: native addon not found (looked in ${candidates.join(', ')}); ` +
                    'build it with `cmake -S . -B build && cmake --build build` or set XSESSION_NODE_ADDON');
  }
  return found;
}

module.exports = require(addonPath());
