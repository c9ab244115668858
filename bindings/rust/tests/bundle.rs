//! Bundles and the HTML view through the safe API (`Store::export`, `Store::import_bundle`,
//! `Store::export_html`), on sessions written through the binding: lineage in the export's
//! report, an import into an empty store that places every session file byte for byte, a second
//! import that finds everything present, a dry run that writes nothing, the cwd map, an id clash
//! refused then renamed, a truncated bundle refused with the store unchanged, one page and a
//! directory of pages, the refusals of empty and bad inputs, and every typed report against the
//! library's JSON.
use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::json::round_trip;
use common::{fixed, TempDir, ASSISTANT, USER};
use xsession::types::{
    from_json, BundleAction, BundleExportReport, BundleImportReport, Compression, ExportedSession, HtmlReport,
};
use xsession::{ErrorCode, ExportOptions, ImportBundleOptions, SessionOptions, Store};

const CWD: &str = "/work/demo";
const FOLLOW_UP: &str = r#"{"role":"user","content":"And the linker?"}"#;

/// A store with two sessions: `parent` (a question and its answer) and `child`, forked from it
/// and continued.
struct Source {
    dir: TempDir,
    root: PathBuf,
    store: Store,
    parent: (String, PathBuf),
    child: (String, PathBuf),
}

impl Source {
    fn new() -> Source {
        let dir = TempDir::new("bundle");
        let root = dir.path().join("src");
        let store = Store::open(&root).unwrap();
        let parent = store.create_session(CWD, &fixed()).unwrap();
        parent.append_message(USER).unwrap();
        parent.append_message(ASSISTANT).unwrap();
        let parent_info = parent.info().unwrap();
        parent.close().unwrap();
        let child = store.fork_from(&parent_info.path, CWD, &fixed().id_seed(2)).unwrap();
        child.append_message(FOLLOW_UP).unwrap();
        child.append_message(ASSISTANT).unwrap();
        let child_info = child.info().unwrap();
        child.close().unwrap();
        assert_eq!(child_info.parent_session.as_deref(), Some(parent_info.id.as_str()));
        Source {
            dir,
            root,
            store,
            parent: (parent_info.id, parent_info.path.into()),
            child: (child_info.id, child_info.path.into()),
        }
    }

    /// A path in the test's directory.
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The bundle of the child and (lineage) its parent, at `<dir>/<name>`; its report's JSON.
    fn export(&self, name: &str) -> (PathBuf, String) {
        let bundle = self.path(name);
        let report = self.store.export_json([&self.child.0], &bundle, &ExportOptions::new()).unwrap();
        (bundle, report)
    }

    /// An empty store at `<dir>/<name>` (nothing on the disk yet).
    fn empty_store(&self, name: &str) -> (PathBuf, Store) {
        let root = self.path(name);
        let store = Store::open(&root).unwrap();
        (root, store)
    }
}

/// Every file below `dir`, by path relative to it, with its bytes (nothing when `dir` is missing).
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(_) => return,
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                out.insert(path.strip_prefix(base).unwrap().to_path_buf(), std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The session files (`*.jsonl`) of the store at `root`, as [`files`] gives them.
fn session_files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    files(root)
        .into_iter()
        .filter(|(path, _)| path.starts_with("sessions") && path.extension() == Some("jsonl".as_ref()))
        .collect()
}

fn size(path: impl AsRef<Path>) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn an_export_carries_the_lineage_and_an_import_places_every_session_byte_for_byte() {
    let src = Source::new();
    let (bundle, raw) = src.export("b.xsb");
    round_trip::<BundleExportReport>("xs_export", &raw).unwrap();
    let report: BundleExportReport = from_json(&raw).unwrap();
    let session = |(id, path): &(String, PathBuf), lineage: bool, parent: Option<&str>| ExportedSession {
        id: id.clone(),
        path: text(path).to_string(),
        cwd: CWD.to_string(),
        archived: false,
        lineage,
        bytes: size(path),
        parent_session: parent.map(str::to_string),
        parent_in_bundle: parent.is_some(),
    };
    assert_eq!(
        report,
        BundleExportReport {
            path: text(&bundle).to_string(),
            bytes: size(&bundle),
            compression: Compression::Zstd,
            sessions: vec![session(&src.child, false, Some(&src.parent.0)), session(&src.parent, true, None)],
            blobs: vec![],
            missing_blobs: vec![],
            keys: vec![],
        }
    );

    let (root, dst) = src.empty_store("dst");
    let raw = dst.import_bundle_json(&bundle, &ImportBundleOptions::new()).unwrap();
    round_trip::<BundleImportReport>("xs_import_bundle", &raw).unwrap();
    let imported: BundleImportReport = from_json(&raw).unwrap();
    assert!(!imported.dry_run);
    assert_eq!((imported.bundle.as_str(), imported.source_root.as_str()), (text(&bundle), text(&src.root)));
    let placed = |path: &Path| text(&root.join(path.strip_prefix(&src.root).unwrap())).to_string();
    let want: Vec<_> = [&src.child, &src.parent]
        .iter()
        .map(|(id, path)| (id.clone(), placed(path), None, None, BundleAction::Imported))
        .collect();
    let sessions: Vec<_> = imported
        .sessions
        .iter()
        .map(|s| (s.id.clone(), s.path.clone(), s.new_id.clone(), s.old_cwd.clone(), s.action))
        .collect();
    assert_eq!(sessions, want);
    assert!(imported.blobs.is_empty() && imported.keys.is_empty());
    // Every session file is there with the source's bytes, and nothing else (the source also
    // has the writers' lock files beside its sessions).
    let source_sessions = session_files(&src.root);
    assert_eq!(source_sessions.len(), 2);
    assert_eq!(files(&root), source_sessions);

    // Again: everything is present, nothing changes.
    let again = dst.import_bundle(&bundle, &ImportBundleOptions::new()).unwrap();
    assert_eq!(again.sessions.iter().map(|s| s.action).collect::<Vec<_>>(), [BundleAction::Present; 2]);
    assert_eq!(
        again.sessions.iter().map(|s| s.path.as_str()).collect::<Vec<_>>(),
        imported.sessions.iter().map(|s| s.path.as_str()).collect::<Vec<_>>()
    );
    assert_eq!(files(&root), source_sessions);
}

#[test]
fn without_lineage_only_the_named_session_travels_and_gzip_is_gzip() {
    let src = Source::new();
    let bundle = src.path("only.xsb");
    let report = src.store.export([&src.child.1], &bundle, &ExportOptions::new().lineage(false).gzip(true)).unwrap();
    assert_eq!(report.compression, Compression::Gzip);
    let carried: Vec<_> = report.sessions.iter().map(|s| (s.id.as_str(), s.lineage, s.parent_in_bundle)).collect();
    assert_eq!(carried, [(src.child.0.as_str(), false, false)]);
    assert_eq!(report.sessions[0].parent_session.as_deref(), Some(src.parent.0.as_str()));
    assert_eq!(&std::fs::read(&bundle).unwrap()[..2], b"\x1f\x8b");
    // Both named: neither travels as lineage, and the child's parent is in the bundle.
    let both = src.store.export([&src.child.0, &src.parent.0], &bundle, &ExportOptions::new().lineage(false)).unwrap();
    let carried: Vec<_> = both.sessions.iter().map(|s| (s.id.as_str(), s.lineage, s.parent_in_bundle)).collect();
    assert_eq!(carried, [(src.child.0.as_str(), false, true), (src.parent.0.as_str(), false, false)]);
    assert_eq!(both.compression, Compression::Zstd);
    // A session named twice (by id and by path) travels once.
    let twice = src.store.export([Path::new(&src.parent.0), &src.parent.1], &bundle, &ExportOptions::new()).unwrap();
    assert_eq!(twice.sessions.len(), 1);
}

#[test]
fn a_dry_run_reports_the_import_and_writes_nothing() {
    let src = Source::new();
    let (bundle, _) = src.export("b.xsb");
    let (root, dst) = src.empty_store("dst");
    let dry = dst.import_bundle_json(&bundle, &ImportBundleOptions::new().dry_run(true)).unwrap();
    round_trip::<BundleImportReport>("xs_import_bundle", &dry).unwrap();
    let dry: BundleImportReport = from_json(&dry).unwrap();
    assert!(dry.dry_run);
    assert_eq!(dry.sessions.iter().map(|s| s.action).collect::<Vec<_>>(), [BundleAction::Imported; 2]);
    assert!(!root.exists(), "a dry run wrote {:?}", files(&root).keys().collect::<Vec<_>>());
    // What it reported is what the import then does.
    let real = dst.import_bundle(&bundle, &ImportBundleOptions::new()).unwrap();
    assert_eq!(real.sessions, dry.sessions);
}

#[test]
fn the_cwd_map_gives_the_new_cwd_and_keeps_the_old_one() {
    let src = Source::new();
    let (bundle, _) = src.export("b.xsb");
    let (root, dst) = src.empty_store("dst");
    let opts = ImportBundleOptions::new().cwd_map([("/elsewhere", "/nowhere"), ("/work", "/srv/me")]);
    let raw = dst.import_bundle_json(&bundle, &opts).unwrap();
    round_trip::<BundleImportReport>("xs_import_bundle", &raw).unwrap();
    let report: BundleImportReport = from_json(&raw).unwrap();
    for session in &report.sessions {
        assert_eq!((session.cwd.as_str(), session.old_cwd.as_deref()), ("/srv/me/demo", Some("/work/demo")));
        assert_eq!(session.action, BundleAction::Imported);
        let dir = root.join("sessions/--srv-me-demo--");
        assert_eq!(Path::new(&session.path).parent(), Some(dir.as_path()));
        let placed = dst.open_session(&session.path, &SessionOptions::new().read_only(true)).unwrap();
        assert_eq!(placed.info().unwrap().cwd, "/srv/me/demo");
        let header = std::fs::read_to_string(&session.path).unwrap();
        let header = header.lines().next().unwrap();
        assert!(header.contains(r#","cwd":"/srv/me/demo","#), "{header}");
        assert!(header.ends_with(r#","originalCwd":"/work/demo"}"#), "{header}");
    }
}

#[test]
fn an_id_clash_is_refused_then_renamed() {
    let src = Source::new();
    let (bundle, _) = src.export("b.xsb");
    let (root, dst) = src.empty_store("dst");
    // The parent's id in the other store, with other messages.
    let theirs = dst.create_session(CWD, &fixed().session_id(&src.parent.0)).unwrap();
    theirs.append_message(FOLLOW_UP).unwrap();
    theirs.append_message(ASSISTANT).unwrap();
    let theirs = theirs.info().unwrap().path;
    let before = files(&root);

    let err = dst.import_bundle(&bundle, &ImportBundleOptions::new()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Exists, "{err}");
    assert_eq!(
        err.message(),
        format!(
            "session {} is already in the store with other content ({theirs}); import with rename to give the \
             bundle's copy a new id",
            src.parent.0
        )
    );
    assert_eq!(files(&root), before);

    let raw = dst.import_bundle_json(&bundle, &ImportBundleOptions::new().rename(true)).unwrap();
    round_trip::<BundleImportReport>("xs_import_bundle", &raw).unwrap();
    let report: BundleImportReport = from_json(&raw).unwrap();
    let (child, parent) = (&report.sessions[0], &report.sessions[1]);
    assert_eq!(
        (child.id.as_str(), child.action, child.new_id.as_deref()),
        (src.child.0.as_str(), BundleAction::Imported, None)
    );
    assert_eq!((parent.id.as_str(), parent.action), (src.parent.0.as_str(), BundleAction::Renamed));
    let new_id = parent.new_id.clone().unwrap();
    assert!(new_id.len() == 16 && new_id.bytes().all(|b| b.is_ascii_hexdigit()), "{new_id}");
    assert_eq!(std::fs::read(&theirs).unwrap(), before[Path::new(&theirs).strip_prefix(&root).unwrap()]);
    // The renamed copy has its new id, and the child's parentSession follows it.
    let read_only = SessionOptions::new().read_only(true);
    assert_eq!(dst.open_session(&parent.path, &read_only).unwrap().info().unwrap().id, new_id);
    let child_info = dst.open_session(&child.path, &read_only).unwrap().info().unwrap();
    assert_eq!(child_info.parent_session.as_deref(), Some(new_id.as_str()));

    // The same import again finds the renamed copy.
    let again = dst.import_bundle(&bundle, &ImportBundleOptions::new().rename(true)).unwrap();
    assert_eq!(again.sessions.iter().map(|s| s.action).collect::<Vec<_>>(), [BundleAction::Present; 2]);
}

#[test]
fn a_truncated_bundle_is_corrupt_and_leaves_the_store_as_it_was() {
    let src = Source::new();
    let (bundle, _) = src.export("b.xsb");
    let whole = std::fs::read(&bundle).unwrap();
    let cut = src.path("cut.xsb");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let (root, dst) = src.empty_store("dst");
    let own = dst.create_session(CWD, &fixed().id_seed(3)).unwrap();
    own.append_message(USER).unwrap();
    own.append_message(ASSISTANT).unwrap();
    own.close().unwrap();
    let before = files(&root);

    let err = dst.import_bundle(&cut, &ImportBundleOptions::new()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Corrupt, "{err}");
    assert_eq!(err.message(), "not a bundle, or a damaged one (Truncated zstd input)");
    assert_eq!(files(&root), before);
    // The dry run checks as much.
    let err = dst.import_bundle(&cut, &ImportBundleOptions::new().dry_run(true)).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Corrupt, "{err}");
    assert_eq!(files(&root), before);
}

#[test]
fn one_session_is_a_page_and_two_are_a_directory_with_an_index() {
    let src = Source::new();
    let page = src.path("page.html");
    let raw = src.store.export_html_json([&src.parent.0], &page).unwrap();
    round_trip::<HtmlReport>("xs_export_html", &raw).unwrap();
    let report: HtmlReport = from_json(&raw).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..40]);
    assert_eq!(report.pages.len(), 1);
    let first = &report.pages[0];
    assert_eq!((first.path.as_str(), first.session_id.as_str()), (text(&page), src.parent.0.as_str()));
    assert_eq!((first.entries, first.messages, first.branch_points, first.branches), (2, 2, 0, 0));
    assert_eq!(first.bytes, html.len() as u64);
    assert_eq!(report.index, None);

    let dir = src.path("pages");
    let raw = src.store.export_html_json([&src.child.1, &src.parent.1], &dir).unwrap();
    round_trip::<HtmlReport>("xs_export_html", &raw).unwrap();
    let report: HtmlReport = from_json(&raw).unwrap();
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    let mut want = vec![format!("{}.html", src.child.0), format!("{}.html", src.parent.0), "index.html".to_string()];
    want.sort();
    assert_eq!(names, want);
    let pages: Vec<_> = report.pages.iter().map(|p| (p.session_id.as_str(), p.path.clone(), p.messages)).collect();
    let at = |id: &str| dir.join(format!("{id}.html")).to_str().unwrap().to_string();
    assert_eq!(pages, [(src.child.0.as_str(), at(&src.child.0), 4), (src.parent.0.as_str(), at(&src.parent.0), 2)]);
    let index = report.index.unwrap();
    assert_eq!((index.path.as_str(), index.bytes), (text(&dir.join("index.html")), size(dir.join("index.html"))));
    assert!(std::fs::read_to_string(dir.join("index.html")).unwrap().starts_with("<!DOCTYPE html>"));
}

#[test]
fn empty_and_bad_inputs_are_refused_and_write_nothing() {
    let src = Source::new();
    let out = src.path("out");
    let none: [&str; 0] = [];
    let defaults = ExportOptions::new();
    let refusals: Vec<(&str, xsession::Error)> = vec![
        ("export of nothing", src.store.export(none, &out, &defaults).unwrap_err()),
        ("export to no path", src.store.export([&src.child.0], "", &defaults).unwrap_err()),
        ("export of a NUL", src.store.export(["a\0b"], &out, &defaults).unwrap_err()),
        ("pages of nothing", src.store.export_html(none, &out).unwrap_err()),
        ("pages to no path", src.store.export_html([&src.child.0], "").unwrap_err()),
        ("pages of a NUL", src.store.export_html(["a\0b"], &out).unwrap_err()),
        ("session named twice", src.store.export_html([&src.child.0, &src.child.0], &out).unwrap_err()),
        ("import of no path", src.store.import_bundle("", &ImportBundleOptions::new()).unwrap_err()),
    ];
    for (what, err) in &refusals {
        assert_eq!(err.code(), ErrorCode::Invalid, "{what}: {err}");
    }
    let messages: Vec<&str> = refusals.iter().map(|(_, e)| e.message()).collect();
    assert_eq!(
        messages,
        [
            "n_ids is 0: name at least one session",
            "out_path is empty",
            "session id contains a NUL byte",
            "n_ids is 0: name at least one session",
            "no output path",
            "session id contains a NUL byte",
            format!("{0}: session {0} is named twice", src.child.0).as_str(),
            "bundle_path is empty",
        ]
    );

    let (bundle, _) = src.export("b.xsb");
    let (root, dst) = src.empty_store("dst");
    let relative = dst.import_bundle(&bundle, &ImportBundleOptions::new().cwd_map([("work", "/srv")])).unwrap_err();
    assert_eq!((relative.code(), relative.message()), (ErrorCode::Invalid, "cwd map path \"work\" is not absolute"));
    let nope = src.path("nope.xsb");
    let missing = dst.import_bundle(&nope, &ImportBundleOptions::new()).unwrap_err();
    assert_eq!(missing.code(), ErrorCode::NotFound, "{missing}");
    assert_eq!(missing.message(), format!("bundle {} does not exist", nope.display()));
    let unknown = src.store.export(["nope"], &out, &defaults).unwrap_err();
    assert_eq!((unknown.code(), unknown.message()), (ErrorCode::NotFound, "no session matches \"nope\""));
    let unknown = src.store.export_html(["nope"], &out).unwrap_err();
    assert_eq!((unknown.code(), unknown.message()), (ErrorCode::NotFound, "nope: no session matches \"nope\""));
    assert!(!out.exists() && !root.exists());
}
