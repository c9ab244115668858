// The ES module side of npm_project.test.js: `import { Store } from 'xsession'` as a user writes it.
import xs, { Store, XsError } from 'xsession';

export async function run() {
  const store = new Store(null, { inMemory: true });
  const s = store.create('/w', { clockStartMs: 0, idSeed: 1 });
  s.appendMessage({ role: 'user', content: 'q' });
  const context = await s.buildContext();
  let isError = false;
  try {
    s.entry('nope');
  } catch (err) {
    isError = err instanceof XsError && err.code === 'XS_ENOTFOUND';
  }
  s.close();
  store.close();
  return { context, same: xs.Store === Store, isError };
}
