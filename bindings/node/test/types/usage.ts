// Compiled by node.tsc (never run): every method and export of the package with the arguments a
// user passes, each result held to the exact type the declarations promise (`any` would fail
// `exact`), and calls that must not compile marked @ts-expect-error.
import {
  Store, Session, Keys, History, Index, XsError, status, bindingVersion, version, statusString, isEntry, shouldCompact,
  shouldFlushMemory, defaultCompactionSettings, defaultImportOptions, IMPORT_OPTIONS_VERSION,
} from 'xsession';
import type {
  Context, Entry, TreeNode, Label, Diagnostic, SessionInfo, Usage, Header, SessionListing, BlobListing, GcReport,
  VerifyReport, RepairReport, SessionStats, ResumeCheck, CompactionPlan, KeyRecord, KeyEntry, FixStatsReport,
  KeySession, ArchiveReport, PruneReport, ImportReport, ForeignListing, Version, Dialect, StatusName, XsErrorCode,
  MessageEntry, AgentMessage, JsonValue, ResetReason, HistoryHit, HistoryItem, HistoryInfo, HistoryDamaged,
  IndexReport, IndexVerifyReport, IndexedSession, IndexInfo, IndexDamaged, SearchHit, SearchRole, BundleExportReport,
  BundleImportReport, HtmlReport, CwdMap,
} from 'xsession';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** exact<T>()(value): compiles only when value's type is exactly T. */
function exact<T>() {
  return <V>(value: V, ...notExact: Equal<V, T> extends true ? [] : [never]): V => (notExact.length, value);
}

export async function store(root: string): Promise<void> {
  const st = new Store(root, { dialect: 'pi', keysPath: null, resetPolicy: { dailyHour: 4, timeZone: 'UTC' } });
  new Store(null, { inMemory: true }).close();
  exact<boolean>()(st.closed);
  exact<number>()(st.lastStatus());
  exact<Keys>()(st.keys);
  exact<string>()(st.sessionDir('/w'));
  exact<string>()(st.resolve('abc', '/w'));
  exact<void>()(st.writeBreadcrumb('tty1', '/w', '/w/s.jsonl'));
  const hash = exact<string>()(await st.blobPut(new Uint8Array(3)));
  exact<string>()(st.blobPutSync('text'));
  exact<Uint8Array>()(await st.blobGet(hash));
  exact<Uint8Array>()(st.blobGetSync(hash));
  exact<SessionListing[]>()(await st.list({ cwd: '/w', full: true, limit: 5 }));
  exact<string>()(await st.list({ raw: true }));
  exact<SessionListing[]>()(st.listSync());
  exact<string>()(st.listSync({ raw: true }));
  exact<BlobListing>()(await st.blobList({ verify: true }));
  exact<string>()(st.blobListSync({ raw: true }));
  exact<GcReport>()(await st.blobGc({ dryRun: true, graceMs: 0, nowMs: 5n }));
  exact<string>()(st.blobGcSync({ raw: true }));
  exact<Session>()(st.create('/w', { noDefer: true, sync: true, title: 't', idSeed: 7 }));
  exact<Session>()(await st.open('abc', { readOnly: true }));
  exact<Session>()(st.openSync('/w/s.jsonl', { create: true, cwd: '/w', dialect: 'omp' }));
  exact<Session>()(await st.continueRecent('/w', 'tty1'));
  exact<Session>()(st.continueRecentSync('/w'));
  exact<Session>()(await st.forkFrom('/w/s.jsonl', '/v'));
  exact<Session>()(st.forkFromSync('/w/s.jsonl', '/v', { title: 'copy' }));
  const keyed = exact<KeySession>()(
    await st.sessionForKey('agent:a', { nowMs: 1, force: true, session: { title: 'x' } }));
  exact<ResetReason>()(keyed.reason);
  exact<KeySession>()(st.sessionForKeySync('agent:a', { policy: { idleMinutes: 30 } }));
  exact<ArchiveReport>()(await st.archive({ olderThanMs: 1000, progress: (done: number, all: number) => done + all }));
  exact<string>()(st.archiveSync({ olderThanMs: 0, dryRun: true, raw: true }));
  exact<PruneReport>()(await st.prune({ olderThanMs: 0 }));
  exact<string>()(st.pruneSync({ olderThanMs: 0, raw: true }));
  const progress = (done: number, total: number): void => void (done / total);
  const report = exact<ImportReport>()(await st.import('claude', '/c', { dryRun: true, targetCwd: '/w', progress }));
  exact<number>()(report.sessions[0].imported);
  exact<string>()(st.importSync('gateway', '/g', { raw: true, fallbackCwd: '/w', lockWaitMs: 0 }));
  const listing = exact<ForeignListing>()(await st.foreignList('myagents', '/m'));
  if (listing.source === 'myagents') exact<'free' | 'released' | 'stale' | 'held'>()(listing.indexLock);
  if (listing.source === 'gateway') exact<string[]>()(listing.agents[0].notes);
  if (listing.source === 'claude') exact<string>()(listing.projects[0].transcripts[0].sessionId);
  if (listing.source === 'codex') exact<string>()(listing.sessions[0].firstPrompt);
  exact<ImportReport>()(await st.import('codex', '/x', { fallbackCwd: '/w' }));
  exact<string>()(st.foreignListSync('claude', '/c', { raw: true }));
  st[Symbol.dispose]();
  exact<Promise<void>>()(st[Symbol.asyncDispose]());
  exact<void>()(st.close());
  // @ts-expect-error: the root is a string or null
  new Store(42);
  // @ts-expect-error: an unknown import kind
  await st.import('other', '/x');
}

export async function bundles(st: Store): Promise<void> {
  const exported = exact<BundleExportReport>()(await st.export(['a', 'b'], '/o.xsb', { lineage: false, gzip: true }));
  exact<'zstd' | 'gzip'>()(exported.compression);
  exact<string | null>()(exported.sessions[0].parentSession);
  exact<string>()(await st.export('a', '/o.xsb', { raw: true }));
  exact<BundleExportReport>()(st.exportSync('a', '/o.xsb'));
  exact<string>()(st.exportSync(['a'], '/o.xsb', { raw: true }));
  const map: CwdMap = new Map([['/a', '/b']]);
  const imported = exact<BundleImportReport>()(await st.importBundle('/o.xsb', { cwdMap: map, rename: true }));
  exact<'imported' | 'renamed' | 'present'>()(imported.sessions[0].action);
  exact<string | null>()(imported.sessions[0].oldCwd);
  exact<BundleImportReport>()(st.importBundleSync('/o.xsb', { cwdMap: [['/a', '/b']], dryRun: true }));
  exact<BundleImportReport>()(st.importBundleSync('/o.xsb', { cwdMap: { '/a': '/b' } }));
  exact<string>()(await st.importBundle('/o.xsb', { raw: true, cwdMap: null }));
  const html = exact<HtmlReport>()(await st.exportHtml('a', '/a.html'));
  exact<{ path: string; bytes: number } | null>()(html.index);
  exact<string>()(await st.exportHtml(['a'], '/a.html', { raw: true }));
  exact<HtmlReport>()(st.exportHtmlSync(['a', 'b'], '/pages'));
  exact<string>()(st.exportHtmlSync(['a', 'b'], '/pages', { raw: true }));
  // @ts-expect-error: gzip is a boolean
  st.exportSync('a', '/o.xsb', { gzip: 'yes' });
  // @ts-expect-error: the paths of a cwd map are strings
  st.importBundleSync('/o.xsb', { cwdMap: [['/a', 1]] });
  // @ts-expect-error: exportHtml has no lineage
  st.exportHtmlSync('a', '/a.html', { lineage: false });
}

export async function history(st: Store): Promise<void> {
  const h = exact<History>()(await st.openHistory({ path: null, sync: true, busyTimeoutMs: 100, maxPromptBytes: 4096 }));
  exact<History>()(st.openHistorySync());
  exact<boolean>()(h.closed);
  exact<number>()(h.lastStatus());
  exact<void>()(h.add('deploy', '/w', 1000n));
  exact<void>()(h.add(new Uint8Array([0x61])));
  exact<Promise<void>>()(h.addAsync('deploy', null, 5));
  exact<void>()(await h.flush());
  exact<void>()(h.flushSync());
  const hits = exact<HistoryHit[]>()(await h.search('dep*', { cwd: '/w', literal: false, limit: 5 }));
  exact<number>()(hits[0].score);
  exact<string | null>()(hits[0].cwd);
  exact<string>()(await h.search('dep', { raw: true }));
  exact<HistoryHit[]>()(h.searchSync('"a b"'));
  exact<string>()(h.searchSync('a', { literal: true, raw: true }));
  exact<HistoryItem[]>()(await h.recent({ limit: 1 }));
  exact<string>()(await h.recent({ raw: true }));
  exact<HistoryItem[]>()(h.recentSync());
  exact<string>()(h.recentSync({ cwd: '/w', raw: true }));
  const info = exact<HistoryInfo>()(await h.info());
  exact<HistoryDamaged | null>()(info.damaged);
  exact<'normal' | 'full'>()(info.synchronous);
  exact<string>()(await h.info({ raw: true }));
  exact<HistoryInfo>()(h.infoSync());
  exact<string>()(h.infoSync({ raw: true }));
  h[Symbol.dispose]();
  exact<Promise<void>>()(h[Symbol.asyncDispose]());
  exact<void>()(h.close());
  // @ts-expect-error: add is synchronous; its Promise form is addAsync
  exact<Promise<void>>()(h.add('x'));
  // @ts-expect-error: search takes its cwd in the options
  h.searchSync('x', '/w');
}

export async function index(st: Store): Promise<void> {
  const ix = exact<Index>()(await st.openIndex({ path: null, busyTimeoutMs: 100 }));
  exact<Index>()(st.openIndexSync());
  const following = exact<Index>()(st.openIndexSync({ followWrites: true, busyTimeoutMs: 50 }));
  exact<void>()(await following.flush());
  exact<void>()(following.flushSync());
  exact<boolean>()(ix.closed);
  exact<number>()(ix.lastStatus());
  const report = exact<IndexReport>()(await ix.rebuild());
  exact<number>()(report.raced);
  exact<string>()(await ix.rebuild({ raw: true }));
  exact<IndexReport>()(ix.rebuildSync());
  exact<string>()(ix.rebuildSync({ raw: true }));
  exact<IndexReport>()(await ix.refresh());
  exact<string>()(await ix.refresh({ raw: true }));
  exact<IndexReport>()(ix.refreshSync());
  exact<string>()(ix.refreshSync({ raw: true }));
  const verify = exact<IndexVerifyReport>()(await ix.verify());
  exact<string[]>()(verify.missing);
  exact<string>()(await ix.verify({ raw: true }));
  exact<IndexVerifyReport>()(ix.verifySync());
  exact<string>()(ix.verifySync({ raw: true }));
  const sessions = exact<IndexedSession[]>()(await ix.list({ cwd: '/w', limit: 5 }));
  exact<number | null>()(sessions[0].created);
  exact<Dialect | null>()(sessions[0].dialect);
  exact<'claude' | 'myagents' | 'codex' | null>()(sessions[0].sourceAgent);
  exact<string>()(await ix.list({ raw: true }));
  exact<IndexedSession[]>()(ix.listSync());
  exact<string>()(ix.listSync({ cwd: null, raw: true }));
  const info = exact<IndexInfo>()(await ix.info());
  exact<IndexDamaged | null>()(info.damaged);
  exact<string>()(await ix.info({ raw: true }));
  exact<IndexInfo>()(ix.infoSync());
  exact<string>()(ix.infoSync({ raw: true }));
  const role: SearchRole = 'summary';
  const hits = exact<SearchHit[]>()(
    await ix.search('dep*', { cwd: '/w', role, sinceMs: 1000n, sessionId: 's1', limit: 5, literal: false }));
  exact<SearchRole | null>()(hits[0].role);
  exact<number | null>()(hits[0].timestamp);
  exact<string>()(await ix.search('dep', { raw: true }));
  exact<SearchHit[]>()(ix.searchSync('"a b"', { role: null, sinceMs: 5 }));
  exact<string>()(ix.searchSync('a', { literal: true, raw: true }));
  ix[Symbol.dispose]();
  exact<Promise<void>>()(ix[Symbol.asyncDispose]());
  exact<void>()(ix.close());
  // @ts-expect-error: followWrites is a boolean
  st.openIndexSync({ followWrites: 1 });
  // @ts-expect-error: a role is one of the five
  ix.searchSync('x', { role: 'robot' });
  // @ts-expect-error: list takes its cwd in the options
  ix.listSync('/w');
}

export async function keys(k: Keys): Promise<void> {
  exact<Store>()(k.store);
  exact<KeyRecord | null>()(await k.get('agent:a'));
  exact<string | null>()(await k.get('agent:a', { raw: true }));
  exact<KeyRecord | null>()(k.getSync('agent:a'));
  exact<string | null>()(k.getSync('agent:a', { raw: true }));
  const all = exact<KeyEntry[]>()(await k.list('agent:'));
  exact<string>()(all[0].record.sessionId);
  exact<string>()(await k.list({ raw: true }));
  exact<KeyEntry[]>()(k.listSync());
  exact<string>()(k.listSync('agent:', { raw: true }));
  exact<void>()(await k.put('agent:a', { sessionId: 'x', title: 't', hostField: [1] }));
  exact<void>()(k.putSync('agent:a', '{"sessionId":"x"}'));
  exact<void>()(await k.patch('agent:a', { title: null }));
  exact<void>()(k.patchSync('agent:a', { updatedAt: 5 }));
  exact<boolean>()(await k.delete('agent:a'));
  exact<boolean>()(k.deleteSync('agent:a'));
  const retitle = (current: KeyRecord | null) => (current ? { ...current, title: 'u' } : undefined);
  exact<void>()(await k.update('agent:a', retitle));
  exact<void>()(k.updateSync('agent:a', (current: string | null) => current, { raw: true }));
  exact<boolean>()(await k.claimMemoryFlush('agent:a', { contextWindow: 200000 }, 150000, 1n));
  exact<boolean>()(k.claimMemoryFlushSync('agent:a', defaultCompactionSettings, 10));
  exact<FixStatsReport>()(await k.fixStats('agent:'));
  exact<string>()(await k.fixStats({ raw: true }));
  exact<FixStatsReport>()(k.fixStatsSync());
  exact<string>()(k.fixStatsSync(null, { raw: true }));
  // @ts-expect-error: a key is a string
  await k.put(5, { sessionId: 'x' });
}

export async function session(s: Session): Promise<void> {
  exact<boolean>()(s.closed);
  exact<number>()(s.lastStatus());
  const first = exact<string>()(s.appendMessage({ role: 'user', content: 'q' }));
  exact<Promise<string>>()(s.appendMessageAsync('{"role":"assistant","content":[]}'));
  exact<string>()(s.append({ type: 'custom', customType: 'x' }));
  exact<string>()(await s.appendAsync(new Uint8Array(2)));
  exact<string>()(s.appendThinkingLevel(null));
  exact<string>()(await s.appendThinkingLevelAsync('high'));
  exact<string>()(s.appendModelChange('a/b', 'smol'));
  exact<string>()(await s.appendModelChangeAsync('a/b'));
  const compaction = { summary: 's', firstKeptEntryId: first, tokensBefore: 5n, details: { a: 1 },
                       fromExtension: true };
  exact<string>()(s.appendCompaction(compaction));
  exact<string>()(await s.appendCompactionAsync({ ...compaction, shortSummary: null, preserveData: null }));
  exact<string>()(s.appendCustom('ext', { state: 1 }));
  exact<string>()(await s.appendCustomAsync('ext'));
  exact<string>()(s.appendCustomMessage({ customType: 'n', content: [{ type: 'text', text: 'hi' }], display: false }));
  exact<string>()(await s.appendCustomMessageAsync({ customType: 'n', content: '"x"', attribution: 'user' }));
  exact<string>()(s.appendLabel(first, 'start'));
  exact<string>()(await s.appendLabelAsync(first, null));
  exact<string>()(s.appendTtsrInjection(['rule']));
  exact<string>()(await s.appendTtsrInjectionAsync(['rule']));
  exact<string>()(s.appendSessionInit({ systemPrompt: 'p', task: 't', tools: ['read'], outputSchema: null }));
  exact<string>()(await s.appendSessionInitAsync({ systemPrompt: 'p', task: 't', tools: '["read"]' }));
  exact<string>()(s.appendModeChange('plan', { step: 1 }));
  exact<string>()(await s.appendModeChangeAsync('plan'));
  exact<string>()(s.appendSessionInfo('title'));
  exact<string>()(await s.appendSessionInfoAsync('title'));
  exact<string>()(s.branchWithSummary(first, 'back', { details: null, fromExtension: false }));
  exact<string>()(await s.branchWithSummaryAsync(null, 'back'));
  exact<void>()(s.setLeaf(null));
  exact<void>()(await s.flush());
  exact<void>()(s.flushSync());
  exact<void>()(await s.persist());
  exact<void>()(s.persistSync());
  exact<void>()(await s.setTitle(null));
  exact<void>()(s.setTitleSync('t'));
  exact<void>()(await s.moveTo('/v'));
  exact<void>()(s.moveToSync('/w'));
  exact<number>()(await s.reload());
  exact<number>()(s.reloadSync());
  exact<Session>()(await s.fork({ sessionId: 'f' }));
  exact<Session>()(s.forkSync());
  exact<Session>()(await s.createBranched(first, { title: 'b' }));
  exact<Session>()(await s.createBranched({ title: 'b' }));
  exact<Session>()(s.createBranchedSync());
  exact<Session>()(s.createBranchedSync(first));
  exact<Session>()(s.createBranchedSync({}));

  const context = exact<Context>()(await s.buildContext());
  exact<AgentMessage[]>()(context.messages);
  exact<string>()(context.messages[0].role);
  exact<string>()(await s.buildContext(first, { raw: true }));
  exact<string>()(await s.buildContext({ raw: true }));
  exact<Context>()(s.buildContextSync(null));
  exact<string>()(s.buildContextSync({ raw: true }));
  const entries = exact<Entry[]>()(await s.entries({ resolveBlobs: true }));
  for (const e of entries) {
    if (isEntry(e, 'message')) exact<MessageEntry>()(e);
    if (isEntry(e, 'compaction')) exact<number>()(e.tokensBefore);
    exact<string | null>()(e.parentId);
  }
  exact<string>()(await s.entries({ raw: true }));
  exact<Entry[]>()(s.entriesSync());
  exact<string>()(s.entriesSync({ raw: true }));
  exact<Entry[]>()(await s.path(first));
  exact<string>()(await s.path({ raw: true }));
  exact<Entry[]>()(s.pathSync());
  exact<string>()(s.pathSync(null, { raw: true }));
  const tree = exact<TreeNode[]>()(await s.tree());
  exact<Entry>()(tree[0].entry);
  exact<string>()(await s.tree({ raw: true }));
  exact<TreeNode[]>()(s.treeSync());
  exact<string>()(s.treeSync({ raw: true }));
  exact<Header>()(s.header());
  exact<string>()(s.header({ raw: true }));
  exact<Entry>()(s.entry(first));
  exact<string>()(s.entry(first, { raw: true, resolveBlobs: true }));
  exact<Entry[]>()(s.children(first));
  exact<string>()(s.children(first, { raw: true }));
  exact<Label[]>()(s.labels());
  exact<string>()(s.labels({ raw: true }));
  exact<Diagnostic[]>()(s.diagnostics());
  exact<string>()(s.diagnostics({ raw: true }));
  const info = exact<SessionInfo>()(s.info());
  exact<Dialect>()(info.dialect);
  exact<Record<string, number>>()(info.entryTypes);
  exact<string>()(s.info({ raw: true }));
  exact<Usage>()(s.usage());
  exact<string>()(s.usage({ raw: true }));
  exact<SessionStats>()(s.stats());
  exact<string>()(s.stats({ raw: true }));
  exact<ResumeCheck>()(await s.resumeCheck());
  exact<string>()(await s.resumeCheck(first, { raw: true }));
  exact<ResumeCheck>()(s.resumeCheckSync(null));
  exact<string>()(s.resumeCheckSync({ raw: true }));
  exact<CompactionPlan>()(await s.compactionPlan({ contextWindow: 200000, keepRecentTokens: 100 }));
  exact<string>()(await s.compactionPlan(first, { raw: true }));
  exact<CompactionPlan>()(s.compactionPlanSync());
  exact<string>()(s.compactionPlanSync({ raw: true }));
  exact<string | null>()(s.leaf());
  exact<Dialect>()(s.dialect());
  exact<VerifyReport>()(await s.verify());
  exact<string>()(await s.verify({ raw: true }));
  exact<VerifyReport>()(s.verifySync());
  exact<string>()(s.verifySync({ raw: true }));
  exact<RepairReport>()(await s.repair({ quarantine: true }));
  exact<string>()(await s.repair({ raw: true }));
  exact<RepairReport>()(s.repairSync());
  exact<string>()(s.repairSync({ raw: true }));
  s[Symbol.dispose]();
  exact<Promise<void>>()(s[Symbol.asyncDispose]());
  exact<void>()(s.close());
  // @ts-expect-error: appends are synchronous; their Promise forms are ...Async
  exact<Promise<string>>()(s.appendMessage({ role: 'user', content: 'q' }));
  // @ts-expect-error: a compaction needs its firstKeptEntryId
  s.appendCompaction({ summary: 's', tokensBefore: 1 });
}

export function module(e: unknown): JsonValue {
  exact<Version>()(version());
  exact<Readonly<Version>>()(bindingVersion);
  exact<string>()(statusString(status.XS_ENOTFOUND));
  exact<-5>()(status.XS_ENOTFOUND);
  exact<boolean>()(shouldCompact({ contextWindow: 1000 }, 900));
  exact<boolean>()(shouldFlushMemory(defaultCompactionSettings, 900n, 1, null));
  exact<number>()(defaultImportOptions.lockWaitMs as number);
  exact<number>()(IMPORT_OPTIONS_VERSION);
  if (e instanceof XsError) {
    exact<XsErrorCode>()(e.code);
    exact<number>()(e.status);
    const name: StatusName | 'XS_ECLOSED' = e.code;
    return name;
  }
  return new XsError('m', 'XS_EIO', status.XS_EIO).message;
}
