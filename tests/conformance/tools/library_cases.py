"""Conformance cases of what the session library reads out of a transcript for a host: resume
analysis (docs/context.md#resume-analysis) and the first prompt a listing shows
(docs/format.md#finding-sessions), written by hand like the others."""
from casekit import J, entry, header, opts


def add_cases(case):
    sid = "resume-0084"
    calls = [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a"}},
             {"type": "text", "text": "and"},
             {"type": "toolCall", "id": "c2", "name": "bash", "arguments": {"cmd": "ls"}}]
    lines = [header(sid, 0, "/w"),
             entry("message", "u1", None, 1, message={"role": "user", "content": "go"}),
             entry("message", "a1", "u1", 2, message={"role": "assistant", "content": calls}),
             entry("message", "t1", "a1", 3, message={"role": "toolResult", "toolCallId": "c1", "content": []}),
             entry("message", "x1", "gone", 4, message={"role": "user", "content": "cut off"}),
             entry("message", "b1", "a1", 5, message={"role": "user", "content": "other way"})]
    case("84_resume_check_orphans_and_pending_tool_calls",
         "xs_session_resume_check lists every entry whose parent is missing (file order, 1-based line) "
         "and the tool calls on the path to the leaf that no tool result on that path answers "
         "(docs/context.md#resume-analysis).",
         input=lines,
         steps=[
             {"op": "open", "flags": ["read_only"]},
             {"op": "check_resume", "json": J({"leafId": "b1", "orphans": [{"id": "x1", "parentId": "gone", "line": 5}],
                                              "pendingToolCalls": [
                                                  {"entryId": "a1", "toolCallId": "c1", "name": "read"},
                                                  {"entryId": "a1", "toolCallId": "c2", "name": "bash"}]})},
             {"op": "check_resume", "leaf": "t1",
              "json": J({"leafId": "t1", "orphans": [{"id": "x1", "parentId": "gone", "line": 5}],
                         "pendingToolCalls": [{"entryId": "a1", "toolCallId": "c2", "name": "bash"}]})},
             {"op": "check_resume", "leaf": "nope", "expect": "XS_ENOTFOUND"},
         ])

    typed = "  Fix the lexer " + "x" * 250
    case("85_first_prompt_skips_injected_text",
         "A listing's firstPrompt is the first user text an agent did not inject (tag-wrapped command "
         "wrappers, hook output, system reminders; interruption and caveat notes), trimmed and cut to "
         "200 characters with an ellipsis; firstMessage stays pi's first user text "
         "(docs/format.md#finding-sessions).",
         options=opts(85, flags=["no_defer"]),
         steps=[
             {"op": "create", "cwd": "/p", "session_id": "typed-1"},
             {"op": "append_message", "message": J({"role": "user", "content": "<command-name>/clear</command-name>"})},
             {"op": "append_message", "message": J({"role": "user", "content": [
                 {"type": "text", "text": "[Request interrupted by user]"}]})},
             {"op": "append_message", "message": J({"role": "user", "content": typed})},
             {"op": "create", "cwd": "/p", "session_id": "typed-2"},
             {"op": "append_message", "message": J({"role": "user", "content": "<system-reminder>x</system-reminder>"})},
             {"op": "check_list", "cwd": "/p", "expected": [
                 {"id": "typed-1", "firstMessage": "<command-name>/clear</command-name>",
                  "firstPrompt": typed.strip()[:200] + "\u2026"},
                 {"id": "typed-2", "firstMessage": "<system-reminder>x</system-reminder>", "firstPrompt": None}]},
             {"op": "check_list", "cwd": "/p", "full": True, "expected": [
                 {"id": "typed-1", "firstPrompt": typed.strip()[:200] + "\u2026"},
                 {"id": "typed-2", "firstPrompt": None}]},
         ])
