"""The agent loop of examples/c/agent_loop.c in Python: open, append user + assistant, label,
branch with a summary, build the context and read its messages as typed values.

    python agent_loop.py STORE_DIR
"""

from __future__ import annotations

import sys

import xsession


def main(root: str) -> int:
    with xsession.Store(root) as st:
        with st.create("/home/dev/project") as s:
            question = s.append_message({"role": "user", "content": "Why does the build fail?", "timestamp": 1})
            answer = s.append_message({
                "role": "assistant", "provider": "anthropic", "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "A missing include."}], "timestamp": 2,
            })  # fmt: skip
            s.append_label(answer, "diagnosis")
            # Go back to the question and leave a durable note about the path we abandon.
            s.branch_with_summary(question, "Tried the missing-include theory.")
            s.flush()

            context = s.build_context()
            for message in context.messages:
                print(f"{message.role}: {message.text}")
            print(f"leaf {context.leaf_id}, thinking level {context.thinking_level}")
            assert [m.role for m in context.messages] == ["user", "branchSummary"]
            assert context.messages[0].text == "Why does the build fail?"
            assert context.messages[1].text == "Tried the missing-include theory."
            assert s.labels()[0].label == "diagnosis" and s.labels()[0].target_id == answer
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} STORE_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
