//! The downstream crate of CTest's rust.downstream (check.cmake): the agent loop of
//! examples/c/agent_loop.c, typed, in a crate outside the repository that depends on `xsession`
//! by path and links the installed library found through pkg-config.
use xsession::{BlobRefs, EntryKind, SessionOptions, Store};

fn main() -> xsession::Result<()> {
    let root = std::env::temp_dir().join(format!("xsession-downstream-{}", std::process::id()));
    let store = Store::open(&root)?;
    let session = store.create_session("/home/me/project", &SessionOptions::new())?;
    let question = session.append_message(r#"{"role":"user","content":"Why does the build fail?"}"#)?;
    session.append_message(
        r#"{"role":"assistant","provider":"anthropic","model":"claude-sonnet-4-5","content":[{"type":"text","text":"A missing include."}]}"#,
    )?;
    session.branch_with_summary(Some(&question), "Tried the missing-include theory.", None, None)?;

    let context = session.build_context(None)?;
    for message in &context.messages {
        println!("{}: {}", message.role, message.text());
    }
    let kinds: Vec<String> = session
        .entries(BlobRefs::AsStored)?
        .map(|e| e.map(|e| e.entry_type().to_owned()))
        .collect::<xsession::Result<_>>()?;
    println!("entries: {}", kinds.join(","));
    let summary = session.entries(BlobRefs::AsStored)?.last().unwrap()?;
    assert!(matches!(summary.kind, EntryKind::BranchSummary { .. }));
    session.close()?;
    // Which libxsession the process mapped (Linux): check.cmake wants the installed copy.
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    if let Some(line) = maps.lines().find(|l| l.contains("libxsession")) {
        println!("libxsession: {}", line.split_whitespace().last().unwrap_or(""));
    }
    drop(store);
    std::fs::remove_dir_all(root).ok();
    Ok(())
}
