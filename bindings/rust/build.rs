//! `xsession-sys` finds libxsession (its build.rs runs pkg-config) and passes the library and
//! header directories on as `DEP_XSESSION_LIBDIR` and `DEP_XSESSION_INCLUDE`. This script turns
//! them into an rpath for this package's own tests, examples and doc tests (`rustc-link-arg`
//! reaches only this package), so `cargo test` runs without LD_LIBRARY_PATH, and into
//! `XSESSION_INCLUDEDIR` for the test that checks `sys` against the real header.
use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for dir in env::var("DEP_XSESSION_LIBDIR").unwrap_or_default().split(':').filter(|d| !d.is_empty()) {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
    if let Ok(include) = env::var("DEP_XSESSION_INCLUDE") {
        println!("cargo:rustc-env=XSESSION_INCLUDEDIR={include}");
    }
}
