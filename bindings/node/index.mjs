// The ES module entry (package.json "exports"): the names of index.js as named exports, so that
// `import { Store } from 'xsession'` works as well as the default import of the whole module.
// Node cannot find the names of a native addon's exports statically, hence the list; a test
// (test/esm.test.js) checks that it names every export of index.js.
import xs from './index.js';

export const {
  Store, Session, Keys, History, Index, XsError, status, bindingVersion, version, statusString, isEntry,
  shouldCompact, shouldFlushMemory, defaultCompactionSettings, defaultImportOptions, IMPORT_OPTIONS_VERSION,
} = xs;
export default xs;
