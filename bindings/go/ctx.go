package xsession

import (
	"context"
	"sync"
)

// The context.Context variants; their behaviour is in the package documentation ("Contexts").

// withContext runs call, returning ctx.Err() as soon as ctx is done. A result that arrives after
// that is given to discard (nil: dropped).
func withContext[T any](ctx context.Context, call func() (T, error), discard func(T)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if ctx.Done() == nil { // never cancelled (context.Background): no goroutine needed
		return call()
	}
	// mu decides, once, whether the result is the caller's (sent on done) or discarded: the
	// call may finish at the very moment ctx is done.
	var mu sync.Mutex
	abandoned := false
	done := make(chan ctxResult[T], 1)
	go func() {
		v, err := call()
		mu.Lock()
		defer mu.Unlock()
		if !abandoned {
			done <- ctxResult[T]{v, err}
		} else if err == nil && discard != nil {
			discard(v)
		}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		mu.Lock()
		defer mu.Unlock()
		select {
		case r := <-done: // finished meanwhile: the result is the caller's after all
			return r.v, r.err
		default:
			abandoned = true
			return zero, ctx.Err()
		}
	}
}

// ctxResult is what a call run by withContext returned.
type ctxResult[T any] struct {
	v   T
	err error
}

// discardSession closes a session opened after its caller gave up (a variable for the tests).
var discardSession = func(s *Session) { s.Close() }

// OpenContext is Open with a context (see "Contexts" in the package documentation). A session
// opened after ctx is done is closed.
func (st *Store) OpenContext(ctx context.Context, pathOrID string, opts *SessionOptions) (*Session, error) {
	return withContext(ctx, func() (*Session, error) { return st.Open(pathOrID, opts) }, discardSession)
}

// ListContext is List with a context.
func (st *Store) ListContext(ctx context.Context, opts *ListOptions) ([]SessionListing, error) {
	return withContext(ctx, func() ([]SessionListing, error) { return st.List(opts) }, nil)
}

// BlobGCContext is BlobGC with a context. A collection that goes on after ctx is done deletes
// what it would have deleted.
func (st *Store) BlobGCContext(ctx context.Context, opts *GCOptions) (*GCReport, error) {
	return withContext(ctx, func() (*GCReport, error) { return st.BlobGC(opts) }, nil)
}

// ImportContext is Import with a context. An import that goes on after ctx is done writes what
// it imports; importing again later adds only what is new.
func (st *Store) ImportContext(ctx context.Context, kind ImportKind, sourcePath string, opts *ImportOptions) (*ImportReport, error) {
	return withContext(ctx, func() (*ImportReport, error) { return st.Import(kind, sourcePath, opts) }, nil)
}

// ForeignListContext is ForeignList with a context.
func (st *Store) ForeignListContext(ctx context.Context, kind ImportKind, sourcePath string, opts *ImportOptions) (*ForeignListing, error) {
	return withContext(ctx, func() (*ForeignListing, error) { return st.ForeignList(kind, sourcePath, opts) }, nil)
}

// ExportContext is Export with a context. An export that goes on after ctx is done writes its
// bundle.
func (st *Store) ExportContext(ctx context.Context, sessionIDs []string, outPath string, opts *ExportOptions) (*BundleExportReport, error) {
	return withContext(ctx, func() (*BundleExportReport, error) { return st.Export(sessionIDs, outPath, opts) }, nil)
}

// ImportBundleContext is ImportBundle with a context. An import that goes on after ctx is done
// places what it imports; importing the bundle again later finds it present.
func (st *Store) ImportBundleContext(ctx context.Context, bundlePath string, opts *ImportBundleOptions) (*BundleImportReport, error) {
	return withContext(ctx, func() (*BundleImportReport, error) { return st.ImportBundle(bundlePath, opts) }, nil)
}

// ExportHTMLContext is ExportHTML with a context. An export that goes on after ctx is done writes
// its pages.
func (st *Store) ExportHTMLContext(ctx context.Context, sessionIDs []string, outPath string) (*HTMLReport, error) {
	return withContext(ctx, func() (*HTMLReport, error) { return st.ExportHTML(sessionIDs, outPath) }, nil)
}

// BuildContextContext is BuildContext with a context.
func (s *Session) BuildContextContext(ctx context.Context, leafID string) (*ModelContext, error) {
	return withContext(ctx, func() (*ModelContext, error) { return s.BuildContext(leafID) }, nil)
}

// VerifyContext is Verify with a context.
func (s *Session) VerifyContext(ctx context.Context) (*VerifyReport, error) {
	return withContext(ctx, func() (*VerifyReport, error) { return s.Verify() }, nil)
}
