package xsession

/*
#include <xsession.h>
*/
import "C"

// Portable bundles (docs/bundles.md) and the HTML view (docs/html-view.md): sessions written out
// of a store, as one file another store imports, or as pages a browser opens offline.

// ExportOptions configures Store.Export; nil (or the zero value) is the library's default: the
// named sessions with their lineage, compressed with zstd.
type ExportOptions struct {
	NoLineage bool // only the named sessions, not the sessions they descend from
	Gzip      bool // gzip instead of zstd

	version uint32 // the C struct's version; 0 = the header's (tests set others)
}

func (o *ExportOptions) toC(op string) (C.xs_export_options, error) {
	var c C.xs_export_options
	if rc := C.xs_export_options_init(&c, C.XS_EXPORT_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: op, Message: "xs_export_options_init failed"}
	}
	if o == nil {
		return c, nil
	}
	if o.version != 0 {
		c.version = C.uint32_t(o.version)
	}
	if o.NoLineage {
		c.flags |= C.XS_EXPORT_NO_LINEAGE
	}
	if o.Gzip {
		c.flags |= C.XS_EXPORT_GZIP
	}
	return c, nil
}

// CwdMapping is one pair of ImportBundleOptions.CwdMap: a session whose cwd is Old or lies below
// it gets New instead (plus the rest of its cwd below Old).
type CwdMapping struct {
	Old string // absolute, without "." or ".." components or a trailing "/"
	New string // as Old
}

// ImportBundleOptions configures Store.ImportBundle; nil (or the zero value) is the library's
// default: no cwd map, a clashing session id refused, a real import.
type ImportBundleOptions struct {
	// CwdMap moves sessions (and their key records) to other working directories; the first
	// pair that applies wins. The header keeps the cwd the bundle carried as "originalCwd"; the
	// report's OldCwd says it.
	CwdMap []CwdMapping
	// Rename imports a session whose id the store holds with other content under a new id
	// (docs/bundles.md#renaming) instead of refusing the whole bundle with ErrExists.
	Rename bool
	// DryRun checks the whole bundle and reports what an import would do, writing nothing.
	DryRun bool

	version uint32 // the C struct's version; 0 = the header's (tests set others)
}

// toC fills the C options; the cwd map's strings and array are copied into a's C memory (a
// struct in Go memory may not point at Go memory), which lives until the call returns.
func (o *ImportBundleOptions) toC(a *cargs) (C.xs_import_bundle_options, error) {
	var c C.xs_import_bundle_options
	if rc := C.xs_import_bundle_options_init(&c, C.XS_IMPORT_BUNDLE_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: a.op, Message: "xs_import_bundle_options_init failed"}
	}
	if o == nil {
		return c, nil
	}
	if o.version != 0 {
		c.version = C.uint32_t(o.version)
	}
	if o.Rename {
		c.flags |= C.XS_IMPORT_BUNDLE_RENAME
	}
	if o.DryRun {
		c.flags |= C.XS_IMPORT_BUNDLE_DRY_RUN
	}
	if len(o.CwdMap) > 0 {
		pairs := make([]string, 0, 2*len(o.CwdMap))
		for _, m := range o.CwdMap {
			pairs = append(pairs, m.Old, m.New)
		}
		c.cwd_map, c.cwd_map_len = a.strs("CwdMap", pairs)
	}
	return c, a.err
}

// Export writes a bundle of the sessions sessionIDs names (ids, unambiguous id prefixes or
// session files of this store) to outPath, replacing a file there whole (xs_export): the
// sessions byte for byte, unless opts.NoLineage the sessions they descend from, every blob they
// reference and the key records that point at them. A session named twice travels once. The
// report lists what travelled (docs/bundles.md#export).
//
// ErrInvalid: no session named, an empty name or outPath, a session whose id cannot travel.
// ErrNotFound: a name no session matches; ErrAmbiguous: a prefix of several. ErrCorrupt: a
// damaged blob or archived session. ErrConflict: a session file changed during the export
// (export again).
func (st *Store) Export(sessionIDs []string, outPath string, opts *ExportOptions) (*BundleExportReport, error) {
	const op = "Store.Export"
	o, err := opts.toC(op)
	if err != nil {
		return nil, err
	}
	raw, err := st.writeSessions(op, sessionIDs, outPath, func(p *C.xs_store, ids **C.char, n C.size_t, out *C.char,
		b *C.char, c C.size_t, l *C.size_t) C.xs_status {
		return C.xs_export(p, ids, n, out, &o, b, c, l)
	})
	return decodeObject[BundleExportReport](op, raw, err)
}

// writeSessions runs call, one of the calls that write the sessions sessionIDs names to outPath,
// with C copies of both.
func (st *Store) writeSessions(op string, sessionIDs []string, outPath string, call func(p *C.xs_store,
	ids **C.char, n C.size_t, out *C.char, b *C.char, c C.size_t, l *C.size_t) C.xs_status) ([]byte, error) {
	a := newArgs(op)
	defer a.free()
	ids, n := a.strs("sessionIDs", sessionIDs)
	cout := a.str("outPath", outPath)
	if a.err != nil {
		return nil, a.err
	}
	return st.h.read(op, func(p *C.xs_store, b *C.char, c C.size_t, l *C.size_t) C.xs_status {
		return call(p, ids, n, cout, b, c, l)
	})
}

// ImportBundle imports the bundle at bundlePath into st (xs_import_bundle). Every member is
// checked against the bundle's manifest before anything is placed: a damaged or hostile bundle
// is ErrCorrupt and leaves the store as it was. Sessions go to the directory of their cwd (after
// opts.CwdMap); a session, blob or key record the store already holds is "present", so importing
// the same bundle twice changes nothing the second time (docs/bundles.md#import).
//
// ErrNotFound: no file at bundlePath. ErrInvalid: an empty bundlePath, a cwd map path that is
// not absolute. ErrExists: a session id the store holds with other content, without opts.Rename
// (nothing was written). ErrVersion: a bundle of a newer format. ErrLocked: the keyed store.
func (st *Store) ImportBundle(bundlePath string, opts *ImportBundleOptions) (*BundleImportReport, error) {
	const op = "Store.ImportBundle"
	a := newArgs(op)
	defer a.free()
	// "" is passed as such (not NULL): the library refuses an empty path with its own message.
	cpath := a.str("bundlePath", bundlePath)
	if a.err != nil {
		return nil, a.err
	}
	o, err := opts.toC(a)
	if err != nil {
		return nil, err
	}
	raw, err := st.h.read(op, func(p *C.xs_store, b *C.char, c C.size_t, l *C.size_t) C.xs_status {
		return C.xs_import_bundle(p, cpath, &o, b, c, l)
	})
	return decodeObject[BundleImportReport](op, raw, err)
}

// ExportHTML writes the sessions sessionIDs names (paths, ids or unambiguous id prefixes, as
// Open takes them) as self-contained HTML pages on the local disk (xs_export_html). One
// session: outPath is the page, in a directory that exists. Several: outPath is a directory
// (made when missing) that gets "<session id>.html" for each and an "index.html" linking them.
// Every name is resolved before anything is written; each page replaces its file whole. The
// sessions are only read (docs/html-view.md#export).
//
// ErrInvalid: no session named, an empty name or outPath, one session and outPath a directory,
// several and outPath a file, a session named twice, an id that cannot name a page. ErrNotFound:
// a name no session matches, or the page's directory missing; ErrAmbiguous: a prefix of several.
func (st *Store) ExportHTML(sessionIDs []string, outPath string) (*HTMLReport, error) {
	const op = "Store.ExportHTML"
	var o C.xs_html_options
	if rc := C.xs_html_options_init(&o, C.XS_HTML_OPTIONS_VERSION); rc != C.XS_OK {
		return nil, &Error{Code: Code(rc), Op: op, Message: "xs_html_options_init failed"}
	}
	raw, err := st.writeSessions(op, sessionIDs, outPath, func(p *C.xs_store, ids **C.char, n C.size_t, out *C.char,
		b *C.char, c C.size_t, l *C.size_t) C.xs_status {
		return C.xs_export_html(p, ids, n, out, &o, b, c, l)
	})
	return decodeObject[HTMLReport](op, raw, err)
}
