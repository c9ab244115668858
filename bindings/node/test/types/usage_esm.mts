// ES module side of node.tsc: the named imports `import { Store } from 'xsession'` gives.
import xs, { Store, XsError, isEntry, type Context, type Entry } from 'xsession';

export async function esm(root: string): Promise<string[]> {
  const store: Store = new Store(root);
  const s = store.create('/w');
  await s.appendMessageAsync({ role: 'user', content: 'q' });
  const context: Context = await s.buildContext();
  const entries: Entry[] = s.entriesSync();
  const texts = entries.filter((e) => isEntry(e, 'message')).map((e) => e.type);
  try {
    s.entry('nope');
  } catch (err) {
    if (err instanceof XsError) texts.push(err.code);
  }
  s.close();
  store.close();
  return [...texts, String(context.messages.length), String(xs.status.XS_OK)];
}
