//! The integration tests in one test binary, one module per file. Each file used to be a test
//! binary of its own, which cargo compiled and linked against the crate separately: with the
//! sixteen binaries, `rust.msrv` (Debian's rustc building everything afresh) took 177 s in a
//! run of `.ci/run` and the build's `cargo test --no-run` 86 s; with two, 113 s and 63 s.
//! Modules keep their files' names, so `cargo test --test integration api::` runs what
//! `cargo test --test api` did. The conformance replay stays its own binary
//! (`tests/conformance/main.rs`).
mod common;

mod api;
mod bundle;
mod dialect;
mod errors;
mod header_coverage;
mod history;
mod import;
mod index;
mod keys;
mod library;
mod lifecycle;
mod outputs;
mod storage;
mod threads;
mod typed;
