// Package xsession is the Go binding of libxsession, session storage for coding agents.
//
// A session is an append-only JSONL transcript: a header line, then typed entries (messages,
// model changes, compactions, labels, ...) linked by id and parentId into a tree with a movable
// leaf. A [Store] is a root directory of sessions and blobs; a [Session] is one open transcript.
// A Store also keeps a keyed session document ([Store.KeyGet], [Store.KeyUpdate], ...) that maps a
// host's session keys to records, changed under a lock that other processes respect.
// Around them are the session library's calls: compaction planning ([ShouldCompact],
// [Session.CompactionPlan]), resume analysis ([Session.ResumeCheck]), stats ([Session.Stats]),
// reset policies ([Store.SessionForKey]) and retention ([Store.Archive], [Store.Prune]). A
// [History] ([Store.OpenHistory]) is the store's prompt history: the prompts a user typed, with
// full-text search. An [Index] ([Store.OpenIndex]) is the store's session index: every
// transcript's entries in one database, searched by words ([Index.Search]) and listed
// ([Index.List]) without reading every file; with [IndexOptions].FollowWrites it indexes what the
// store's sessions write as they write it ([Index.Flush] waits for it). Sessions leave a store as a portable bundle that
// another store imports ([Store.Export], [Store.ImportBundle]) or as HTML pages
// ([Store.ExportHTML]).
//
//	store, err := xsession.OpenStore(root, nil)
//	s, err := store.Create(cwd, nil)
//	id, err := s.AppendMessage([]byte(`{"role":"user","content":"hi"}`))
//	mc, err := s.BuildContext("") // what the model sees: mc.Messages[i].Role, .Text()
//	err = s.Close()
//
// # Text in and out
//
// JSON goes in as []byte and is stored token for token, so pass exactly the bytes to keep
// (json.Marshal output, or text read from elsewhere). Names, ids and paths are strings; a
// string the C library needs NUL-terminated must not contain a NUL byte (an [ErrInvalid] error).
// Where the C API takes NULL for "absent" or "current", the Go method takes "" (ids are never
// empty) or nil ([]byte); where an empty string means something different from absent, there
// are two methods (AppendLabel / ClearLabel, SetTitle / RemoveTitle, ...), and so there are for
// moving the leaf: SetLeaf(id) to an entry ("" is an unknown id: ErrNotFound) and ClearLeaf() to
// none.
// Readers return typed values (see [Entry], [ModelContext], [SessionInfo] and the reports),
// ids and paths as strings. Object results keep the library's exact JSON in Raw, and each reader
// of an array has a ...JSON twin returning it; caller-owned JSON (message content, entry data)
// stays [encoding/json.RawMessage], and members a type does not know stay in Extra.
//
// # Contexts
//
// The calls that can take long or wait have context.Context variants, named as database/sql names
// its own: the method's name plus "Context", the context first ([Store.OpenContext],
// [Store.ListContext], [Store.BlobGCContext], [Store.ImportContext], [Store.ForeignListContext],
// [Store.ExportContext], [Store.ImportBundleContext], [Store.ExportHTMLContext],
// [Store.OpenHistoryContext], [Session.BuildContextContext], [Session.VerifyContext],
// [History.FlushContext], [History.SearchContext], [History.RecentContext],
// [Store.OpenIndexContext], [Index.RebuildContext], [Index.RefreshContext],
// [Index.VerifyContext], [Index.SearchContext], [Index.ListContext], [Index.FlushContext]). The C
// library cannot be interrupted: a variant runs the call on its own goroutine and returns
// ctx.Err() as soon as ctx is done, while the call goes on to its end. What it then does stays done (a collection deletes
// what it deletes, an import writes what it imports) and its result is dropped; a session,
// history or index opened after the caller gave up is closed at once, releasing its writer lock,
// thread or database.
// The handle stays consistent: its next call waits for the abandoned one to finish, as for any
// other goroutine's call. A context that is already done runs nothing.
//
// # Errors
//
// Every failure is an [*Error] carrying the status [Code], its macro name and the library's message
// for that very call. Compare with [errors.Is] against the sentinels ([ErrNotFound], [ErrLocked],
// ...). Using a closed Store, Session, History or Index gives [ErrClosed], which also matches [ErrMisuse]
// (the status the C API uses for a dead handle).
//
// # Goroutines
//
// A Store, Session, History or Index may be shared between goroutines. Each handle has a mutex that the
// binding holds across the C call, the copy of its error text and the retry of an output buffer, so
// an error never carries another call's message and a large result is never computed twice.
// Distinct handles run in parallel, including two sessions on different files.
//
// # Lifetime
//
// Close releases a handle; it is idempotent. A handle that is garbage collected unclosed is
// closed by a finalizer, which is only a safety net: a session holds its file's writer lock until
// it is closed, so close sessions explicitly (and histories: each has a writer thread). A store
// may be closed before its sessions, histories and indexes.
package xsession
