//! Finds libxsession with the `pkg-config` program (no pkg-config crate: the crate has no
//! dependencies), the way git2-rs and zstd-sys probe for a system library.
//!
//! - `PKG_CONFIG_PATH=<build>/pkgconfig` points it at an uninstalled build tree; without it the
//!   installed `xsession.pc` is used.
//! - Every `-L` directory becomes a link search path, and is passed on to dependent build scripts
//!   as `DEP_XSESSION_LIBDIR` (`:`-separated): the `xsession` crate adds them as an rpath for its
//!   own tests (`rustc-link-arg` of this package would not reach them).
//! - The header's directory is passed on as `DEP_XSESSION_INCLUDE`.
use std::env;
use std::process::Command;

const MODULE: &str = "xsession";
/// The header version `src/` mirrors; an older library lacks functions it declares.
const MIN_VERSION: &str = "0.2.0";

fn pkg_config(args: &[&str]) -> Result<String, String> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let out = Command::new(&program)
        .args(args)
        .arg(MODULE)
        .output()
        .map_err(|e| format!("cannot run `{program}` ({e}); install pkg-config (Debian: pkgconf)"))?;
    if !out.status.success() {
        return Err(format!(
            "`{program} {} {MODULE}` failed: {}\nSet PKG_CONFIG_PATH to the directory holding xsession.pc \
             (an uninstalled CMake build tree has it in <build>/pkgconfig).",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map(|s| s.trim().to_string()).map_err(|e| e.to_string())
}

fn main() {
    for var in ["PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rerun-if-changed=build.rs");

    let probe = || -> Result<(), String> {
        pkg_config(&["--atleast-version", MIN_VERSION])
            .map_err(|e| format!("{MODULE} >= {MIN_VERSION} not found: {e}"))?;
        if let Ok(pc_file) = pkg_config(&["--path"]) {
            println!("cargo:rerun-if-changed={pc_file}");
        }
        let mut libdirs = Vec::new();
        for flag in pkg_config(&["--libs"])?.split_whitespace() {
            if let Some(dir) = flag.strip_prefix("-L") {
                println!("cargo:rustc-link-search=native={dir}");
                libdirs.push(dir.to_owned());
            } else if let Some(lib) = flag.strip_prefix("-l") {
                println!("cargo:rustc-link-lib=dylib={lib}");
            }
        }
        println!("cargo:libdir={}", libdirs.join(":"));
        let include = pkg_config(&["--variable=includedir"])?;
        println!("cargo:include={include}");
        Ok(())
    };
    if let Err(message) = probe() {
        // A build script reports a fatal problem by failing; the message is what cargo shows.
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}
