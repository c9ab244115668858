//! `xsession-sys/src` against the real `xsession.h` (found through pkg-config by build.rs): every
//! function with the same parameter names and types, every `#define` constant with the same
//! value, every struct with the same fields, and (compiled by the C compiler) the same layout.
//! A function added to the header and not mirrored fails here. `xsession_storage.h` (the storage
//! a host supplies) is held to the same checks: its text is read after `xsession.h`'s.
use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use xsession::sys;

const HEADERS: [&str; 2] = ["xsession.h", "xsession_storage.h"];

fn header() -> String {
    let mut text = String::new();
    for name in HEADERS {
        let path = Path::new(env!("XSESSION_INCLUDEDIR")).join(name);
        text += &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.push('\n');
    }
    strip_comments(&text)
}

fn sys_source() -> String {
    // The -sys crate's declarations, all of its files.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("xsession-sys/src");
    let text: String = ["lib.rs", "options.rs", "functions.rs", "history.rs", "index.rs", "bundle.rs", "storage.rs"]
        .iter()
        .map(|name| std::fs::read_to_string(dir.join(name)).unwrap() + "\n")
        .collect();
    // Drop Rust comments and attributes so that only declarations remain.
    text.lines()
        .map(|l| l.split("//").next().unwrap())
        .filter(|l| !l.trim_start().starts_with("#["))
        .collect::<Vec<_>>()
        .join("\n")
}

fn strip_comments(c: &str) -> String {
    let mut out = String::new();
    let mut rest = c;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("unterminated comment") + start + 2;
        out.push(' ');
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A C type as the Rust type that mirrors it (`const char *` -> `*const c_char`,
/// `const char *const *` -> `*const *const c_char`).
fn rust_type(c: &str) -> String {
    let c = c.replace('*', " * ");
    let words: Vec<&str> = c.split_whitespace().collect();
    // Read left to right: a `const` qualifies what came before it (or, first, the base type), and
    // each `*` points to that, so its Rust pointer is `*const` when the pointee was qualified.
    let mut pointees_const = Vec::new();
    let mut qualified = false;
    let mut base_words = Vec::new();
    for word in &words {
        match *word {
            "const" => qualified = true,
            "*" => {
                pointees_const.push(qualified);
                qualified = false;
            }
            // `const struct xs_reset_policy *` names the same type as `const xs_reset_policy *`.
            "struct" => {}
            other => base_words.push(other),
        }
    }
    assert_eq!(base_words.len(), 1, "unexpected C type {c:?}");
    let base = match base_words[0] {
        "int" => "c_int",
        "char" => "c_char",
        "void" => "c_void",
        "size_t" => "usize",
        "uint32_t" => "u32",
        "uint64_t" => "u64",
        "int32_t" => "i32",
        "int64_t" => "i64",
        other if other.starts_with("xs_") => other,
        other => panic!("no Rust mirror known for C type {other}"),
    };
    let mut rust = base.to_string();
    for pointee_const in pointees_const {
        let qualifier = if pointee_const { "*const " } else { "*mut " };
        rust = format!("{qualifier}{rust}");
    }
    rust
}

#[test]
fn c_types_map_to_their_rust_mirrors() {
    let cases = [
        ("const char *", "*const c_char"),
        ("char *", "*mut c_char"),
        ("const char *const *", "*const *const c_char"),
        ("xs_history **", "*mut *mut xs_history"),
        ("const struct xs_reset_policy *", "*const xs_reset_policy"),
        ("uint32_t", "u32"),
    ];
    for (c, rust) in cases {
        assert_eq!(rust_type(c), rust, "{c}");
    }
}

/// Splits `type name` into (Rust type, name); the name is the last identifier.
fn param(decl: &str) -> (String, String) {
    let decl = decl.trim();
    let split = decl.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).expect("a parameter name");
    (rust_type(&decl[..=split]), decl[split + 1..].to_string())
}

/// Splits at the commas outside parentheses and angle brackets (parameters that are themselves
/// function pointers keep theirs).
fn split_top(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' if !s[..i].ends_with('-') => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().map(str::trim).filter(|p| !p.is_empty()).collect()
}

/// A struct field or parameter as "name: RustType"; a function pointer (`ret (*name)(params)`,
/// the storage table's fields) becomes `Option<unsafe extern "C" fn(…) -> ret>`, as NULL is a
/// value C may hold.
fn field(decl: &str) -> String {
    let decl = decl.trim();
    let star = match decl.find("(*") {
        Some(star) => star,
        None => {
            let (ty, name) = param(decl);
            // Rust cannot name a parameter `self` outside a method: the mirror spells it `self_`.
            let name = if name == "self" { "self_".to_string() } else { name };
            return format!("{name}: {ty}");
        }
    };
    let ret = rust_type(&decl[..star]);
    let name_end = star + decl[star..].find(')').unwrap();
    let name = decl[star + 2..name_end].trim();
    let open = name_end + decl[name_end..].find('(').unwrap();
    let params: Vec<String> = split_top(&decl[open + 1..decl.rfind(')').unwrap()]).into_iter().map(field).collect();
    let ret = if ret == "c_void" { String::new() } else { format!(" -> {ret}") };
    format!("{name}: Option<unsafe extern \"C\" fn({}){ret}>", params.join(", "))
}

/// One field per declarator: `uint64_t dev, ino` is `uint64_t dev` and `uint64_t ino`.
fn declarators(decl: &str) -> Vec<String> {
    if decl.contains("(*") || !decl.contains(',') {
        return vec![decl.to_string()];
    }
    let names: Vec<&str> = decl.split(',').collect();
    let first = names[0].trim();
    let ty = &first[..=first.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap()];
    std::iter::once(first.to_string()).chain(names[1..].iter().map(|n| format!("{ty}{}", n.trim()))).collect()
}

/// Undoes rustfmt's line breaks inside a squashed Rust type: `Option< unsafe … fn( a, ) -> b, >`.
fn tidy(s: &str) -> String {
    let mut s = squash(s);
    for (from, to) in [("( ", "("), (" )", ")"), ("< ", "<"), (" >", ">"), (",)", ")"), (",>", ">")] {
        s = s.replace(from, to);
    }
    s
}

/// name -> "(name: type, …) -> ret" for every function of the header.
fn header_functions() -> BTreeMap<String, String> {
    // Preprocessor lines (the XS_API definitions among them) are not declarations.
    let header: String =
        header().lines().filter(|l| !l.trim_start().starts_with('#')).map(|l| l.to_owned() + "\n").collect();
    let mut out = BTreeMap::new();
    for decl in header.split(';') {
        // match, not let-else: the crate and its tests build with Rust 1.63 (Debian 12).
        let at = match decl.find("XS_API ") {
            Some(at) => at,
            None => continue,
        };
        let decl = squash(&decl[at + 7..].replace("XS_OWN", "").replace("XS_BORROWED", ""));
        let open = decl.find('(').unwrap();
        let (ret, name) = param(&decl[..open]);
        let params = decl[open + 1..decl.rfind(')').unwrap()].trim();
        let params: Vec<String> = if params == "void" {
            Vec::new()
        } else {
            params
                .split(',')
                .map(|p| {
                    let (ty, name) = param(p);
                    format!("{name}: {ty}")
                })
                .collect()
        };
        let ret = if ret == "c_void" { String::new() } else { format!(" -> {ret}") };
        out.insert(name, format!("({}){ret}", params.join(", ")));
    }
    out
}

/// The same map for the `extern "C"` block of xsession-sys/src.
fn sys_functions() -> BTreeMap<String, String> {
    let src = sys_source();
    let block = &src[src.find("extern \"C\" {").expect("extern block")..];
    let mut out = BTreeMap::new();
    for decl in block.split(';') {
        let at = match decl.find("pub fn ") {
            Some(at) => at,
            None => continue,
        };
        let decl = squash(&decl[at + 7..]);
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        // A parameter named like a Rust keyword (`fn`) is a raw identifier there (`r#fn`).
        let params: Vec<String> = decl[open + 1..close]
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| p.trim_start_matches("r#").to_string())
            .collect();
        out.insert(decl[..open].to_string(), format!("({}){}", params.join(", "), &decl[close + 1..]));
    }
    out
}

/// name -> "(name: type, …) -> ret" for every function pointer type of the header
/// (`typedef xs_status (*name)(…);`).
fn header_callbacks() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for decl in squash(&header()).split(';') {
        let rest = match decl.find("typedef ") {
            Some(at) if decl.contains("(*") => &decl[at + 8..],
            _ => continue,
        };
        let star = rest.find("(*").unwrap();
        let ret = rust_type(&rest[..star]);
        let name_end = star + rest[star..].find(')').unwrap();
        let name = rest[star + 2..name_end].trim().to_string();
        let params_start = name_end + rest[name_end..].find('(').unwrap();
        let params: Vec<String> = rest[params_start + 1..rest.rfind(')').unwrap()]
            .split(',')
            .map(|p| {
                let (ty, name) = param(p);
                format!("{name}: {ty}")
            })
            .collect();
        let ret = if ret == "c_void" { String::new() } else { format!(" -> {ret}") };
        out.insert(name, format!("({}){ret}", params.join(", ")));
    }
    out
}

/// The same map for the `pub type NAME = Option<unsafe extern "C" fn(…) -> ret>;` of xsession-sys/src
/// (`Option` because C may pass or take NULL).
fn sys_callbacks() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for decl in squash(&sys_source()).split(';') {
        let at = match decl.find("pub type ") {
            Some(at) if decl.contains("extern \"C\" fn(") => at,
            _ => continue,
        };
        let (name, rest) = decl[at + 9..].split_once('=').unwrap();
        let rest = rest.trim();
        // rustfmt may break the type over lines, leaving "Option< " and trailing commas.
        let sig = rest
            .replace("Option< ", "Option<")
            .strip_prefix("Option<unsafe extern \"C\" fn")
            .and_then(|s| s.trim_end().strip_suffix('>'))
            .unwrap_or_else(|| panic!("{name}: not an Option<unsafe extern \"C\" fn(…)>: {rest}"))
            .to_string();
        let open = sig.find('(').unwrap();
        let close = sig.rfind(')').unwrap();
        let params: Vec<&str> = sig[open + 1..close].split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        let ret = sig[close + 1..].trim().trim_end_matches(',').trim();
        let ret = if ret.is_empty() { String::new() } else { format!(" {ret}") };
        out.insert(name.trim().to_string(), format!("({}){ret}", params.join(", ")));
    }
    out
}

#[test]
fn every_header_callback_type_is_mirrored_with_the_same_signature() {
    let header = header_callbacks();
    assert!(header.contains_key("xs_keys_update_fn"), "parsed {header:?}");
    assert!(header.contains_key("xs_archive_progress_fn"), "parsed {header:?}");
    assert_eq!(sys_callbacks(), header);
}

/// Integer value of a `#define` / `pub const` value (`(-7)`, `0x10u`, `65`).
fn int_value(text: &str) -> Option<i64> {
    let t = text.trim().trim_start_matches('(').trim_end_matches(')').trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let t = t.trim_end_matches(['u', 'U']);
    let v = match t.strip_prefix("0x") {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => t.parse().ok()?,
    };
    Some(if negative { -v } else { v })
}

#[test]
fn every_header_function_is_mirrored_with_the_same_signature() {
    let header = header_functions();
    let mirrored = sys_functions();
    assert!(header.len() >= 85, "parsed only {} functions from the header", header.len());
    assert!(header.contains_key("xs_storage_error"), "xsession_storage.h was not read");
    let missing: Vec<&String> = header.keys().filter(|n| !mirrored.contains_key(*n)).collect();
    let extra: Vec<&String> = mirrored.keys().filter(|n| !header.contains_key(*n)).collect();
    assert!(missing.is_empty(), "functions of xsession.h missing from xsession-sys/src: {missing:?}");
    assert!(extra.is_empty(), "functions in xsession-sys/src that xsession.h does not have: {extra:?}");
    for (name, signature) in &header {
        assert_eq!(&mirrored[name], signature, "signature of {name}");
    }
}

#[test]
fn every_header_constant_is_mirrored_with_the_same_value() {
    let header = header();
    let src = sys_source();
    let mut checked = 0;
    for line in header.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() < 3 || words[0] != "#define" || !words[1].starts_with("XS_") || words[1] == "XS_API" {
            continue;
        }
        let name = words[1];
        let want = int_value(&words[2..].join(" ")).unwrap_or_else(|| panic!("value of {name}"));
        let decl = src
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("pub const {name}:")))
            .unwrap_or_else(|| panic!("{name} of xsession.h is missing from xsession-sys/src"));
        let got = int_value(decl.split('=').nth(1).unwrap().trim_end_matches(';'));
        assert_eq!(got, Some(want), "value of {name}");
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} constants found");
}

/// struct name -> its fields as "name: type" (opaque structs have none). A struct is defined in
/// its typedef (`typedef struct x {…} x;`) or after a typedef that only names it
/// (`typedef struct x x; struct x {…};`, the storage buffer).
fn header_structs() -> BTreeMap<String, Vec<String>> {
    let header = squash(&header());
    let mut out = BTreeMap::new();
    for (at, _) in header.match_indices("struct ") {
        let rest = &header[at + 7..];
        let name = rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap().to_string();
        if rest[name.len()..].trim_start().starts_with('{') {
            let body = &rest[rest.find('{').unwrap() + 1..rest.find('}').unwrap()];
            let fields =
                body.split(';').filter(|f| !f.trim().is_empty()).flat_map(declarators).map(|f| field(&f)).collect();
            out.insert(name, fields);
        } else if header[..at].trim_end().ends_with("typedef") {
            out.entry(name).or_insert_with(Vec::new);
        }
    }
    out
}

fn sys_struct(name: &str) -> Vec<String> {
    let src = squash(&sys_source());
    let start = src.find(&format!("pub struct {name} {{")).unwrap_or_else(|| panic!("struct {name} missing from sys"));
    let body = &src[start..];
    let body = tidy(&body[body.find('{').unwrap() + 1..body.find('}').unwrap()]);
    split_top(&body)
        .into_iter()
        .filter(|f| f.starts_with("pub "))
        .map(|f| f.trim_start_matches("pub ").to_string())
        .collect()
}

#[test]
fn every_header_struct_is_mirrored_with_the_same_fields() {
    let structs = header_structs();
    assert!(structs.len() >= 9, "parsed only {} structs", structs.len());
    assert_eq!(structs["xs_storage"].len(), 19, "the storage table's fields: {:?}", structs["xs_storage"]);
    assert_eq!(structs["xs_storage_buffer"].len(), 2, "{:?}", structs["xs_storage_buffer"]);
    for (name, fields) in &structs {
        assert_eq!(&sys_struct(name), fields, "fields of {name}");
    }
    assert!(squash(&header()).contains("typedef int32_t xs_status"));
    assert!(sys_source().contains("pub type xs_status = i32;"));
}

/// A field's offset without std::mem::offset_of! (Rust 1.77; the crate builds with 1.63): the
/// distance from an uninitialised value's address to the field's, taken without a reference.
macro_rules! offset_of {
    ($ty:path, $field:ident) => {{
        let value = std::mem::MaybeUninit::<$ty>::uninit();
        let base = value.as_ptr();
        // SAFETY: addr_of! computes the field's address without reading or referencing it.
        let field = unsafe { std::ptr::addr_of!((*base).$field) };
        field as usize - base as usize
    }};
}

/// sizeof and offsetof of every field, as the C compiler sees them and as Rust does.
macro_rules! layouts {
    ($($ty:ident { $($field:ident),* })*) => {{
        let mut c = String::from("#include <stddef.h>\n#include <stdio.h>\n#include \"xsession_storage.h\"\nint main(void) {\n");
        let mut rust = String::new();
        $(
            c += &format!("printf(\"{0} %zu\\n\", sizeof({0}));\n", stringify!($ty));
            rust += &format!("{} {}\n", stringify!($ty), std::mem::size_of::<sys::$ty>());
            $(
                c += &format!("printf(\"{0}.{1} %zu\\n\", offsetof({0}, {1}));\n", stringify!($ty), stringify!($field));
                rust += &format!("{}.{} {}\n", stringify!($ty), stringify!($field), offset_of!(sys::$ty, $field));
            )*
        )*
        (c + "return 0;\n}\n", rust)
    }};
}

#[test]
fn struct_layouts_match_the_c_compiler() {
    let (c_source, rust) = layouts! {
        xs_store_options { version, flags, keys_path, reset_policy, storage }
        xs_session_options { version, flags, max_line_bytes, max_depth, dialect, clock_start_ms, clock_step_ms,
                             id_seed, cwd, session_id, title, parent_session, key }
        xs_archive_options { version, flags, older_than_ms, now_ms, progress, progress_user }
        xs_import_options { version, flags, target_cwd, fallback_cwd, lock_wait_ms, now_ms }
        xs_reset_policy { version, daily_hour, idle_minutes, time_zone }
        xs_compaction_settings { version, context_window, reserve_tokens, reserve_floor, keep_recent_tokens,
                                 soft_threshold_tokens }
        xs_gc_options { version, flags, grace_ms, now_ms }
        xs_list_options { version, flags, limit, cwd }
        xs_compaction { version, from_extension, summary, summary_len, short_summary, short_summary_len,
                        first_kept_entry_id, tokens_before, details_json, details_len, preserve_data_json,
                        preserve_data_len }
        xs_custom_message { version, display, custom_type, content_json, content_len, details_json, details_len,
                            attribution }
        xs_session_init_entry { version, reserved, system_prompt, system_prompt_len, task, task_len, tools_json,
                                tools_len, output_schema_json, output_schema_len }
        xs_history_options { version, flags, path, busy_timeout_ms, max_prompt_bytes }
        xs_index_options { version, flags, path, busy_timeout_ms }
        xs_search_options { version, flags, cwd, role, since_ms, session_id, limit }
        xs_export_options { version, flags }
        xs_import_bundle_options { version, flags, cwd_map, cwd_map_len }
        xs_html_options { version, flags }
        xs_storage_info { size, mtime_ms, dev, ino, links, kind }
        xs_storage_buffer { alloc, opaque }
        xs_storage { version, user, read, stat, open, write, sync, fstat, close, rename, remove, make_dirs,
                     sync_dir, touch, list, lock, unlock, release, write_if }
    };
    // Every struct with fields in the header is in the list above (the field test checks names).
    let listed = rust.lines().filter(|l| !l.contains('.')).count();
    let with_fields = header_structs().values().filter(|f| !f.is_empty()).count();
    assert_eq!(listed, with_fields, "a struct of the header is missing from the layout list");

    let dir = common::TempDir::new("layout");
    let src = dir.path().join("layout.c");
    let exe = dir.path().join("layout");
    std::fs::write(&src, c_source).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let built = Command::new(&cc)
        .arg(format!("-I{}", env!("XSESSION_INCLUDEDIR")))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {cc}: {e}"));
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let out = Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), rust);
}

#[test]
fn runtime_version_is_the_mirrored_header_version() {
    assert_eq!(xsession::version(), (sys::XS_VERSION_MAJOR, sys::XS_VERSION_MINOR, sys::XS_VERSION_PATCH));
}
