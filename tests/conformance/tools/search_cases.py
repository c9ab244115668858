"""Conformance cases of the session index and search (docs/search.md): sessions written by hand
(write_file) under the store's sessions directory, indexed by a refresh, then searched with each
filter, listed and verified. Scores are bm25's and not compared; the order of the hits is."""
from casekit import entry, file_name, header, ms

CWD_APP, CWD_LIB = "/w/app", "/w/lib"
APP = "sessions/--w-app--/" + file_name(0, "srch-app")
LIB = "sessions/--w-lib--/" + file_name(0, "srch-lib")


def user(id_, parent, tick, text):
    return entry("message", id_, parent, tick, message={"role": "user", "content": text})


def assistant(id_, parent, tick, text):
    return entry("message", id_, parent, tick, message={"role": "assistant", "content": [{"type": "text", "text": text}]})


APP_LINES = [header("srch-app", 0, CWD_APP, title="Staging"),
             user("a1", None, 1, "deploy the staging server"),
             assistant("a2", "a1", 2, "staging is deployed"),
             user("a3", "a2", 3, "now the zeppelin"),
             user("a4", "a2", 4, "no, the dirigible")]  # a branch: a3 is off the current path
LIB_LINES = [header("srch-lib", 5, CWD_LIB),
             user("b1", None, 5, "write a unit test for the staging config")]


def write(path, lines):
    return {"op": "write_file", "path": path, "lines": lines}


def hit(sid, eid, role, on_path, snippet):
    return {"sessionId": sid, "entryId": eid, "role": role, "onPath": on_path, "snippet": snippet}


def mark(word):
    return "\u0002" + word + "\u0003"


def add_cases(case):
    case("111_index_refresh_then_search_with_filters",
         "A refresh indexes both sessions; a search ranks by bm25 (the shorter entry first) and "
         "each filter (role, cwd, session id, time, limit) and the literal mode narrows it; a hit "
         "off the current branch says onPath false; a query FTS5 cannot parse is XS_EINVAL "
         "(docs/search.md#searching).",
         steps=[
             write(APP, APP_LINES), write(LIB, LIB_LINES),
             {"op": "index_refresh", "report": {"files": 2, "added": 2, "unchanged": 0, "entries": 5}},
             {"op": "search", "query": "staging",
              "hits": [hit("srch-app", "a2", "assistant", True, mark("staging") + " is deployed"),
                       hit("srch-app", "a1", "user", True, "deploy the " + mark("staging") + " server"),
                       hit("srch-lib", "b1", "user", True,
                           "write a unit test for the " + mark("staging") + " config")]},
             {"op": "search", "query": "staging", "role": "user", "limit": 1,
              "hits": [hit("srch-app", "a1", "user", True, "deploy the " + mark("staging") + " server")]},
             {"op": "search", "query": "staging", "cwd": CWD_LIB, "hits": [{"entryId": "b1", "cwd": CWD_LIB}]},
             {"op": "search", "query": "staging", "session_id": "srch-lib", "hits": [{"entryId": "b1"}]},
             {"op": "search", "query": "staging", "since_ms": ms(5), "hits": [{"entryId": "b1"}]},
             {"op": "search", "query": "zeppelin", "hits": [hit("srch-app", "a3", "user", False,
                                                               "now the " + mark("zeppelin"))]},
             {"op": "search", "query": "unit te", "literal": True, "hits": [{"entryId": "b1"}]},
             {"op": "search", "query": "(", "expect": "XS_EINVAL", "message_prefix": "bad search query: "},
             {"op": "search", "query": "x", "role": "robot", "expect": "XS_EINVAL"},
         ])
    case("112_index_verify_list_and_refresh_after_changes",
         "verify names a file not yet indexed as missing; after a refresh it is in step; a session "
         "that grew is indexed again with its new entries; the list is newest first with its counts; "
         "a rebuild reads everything again (docs/search.md#keeping-it-current).",
         steps=[
             write(APP, APP_LINES[:3]),
             {"op": "index_verify", "report": {"ok": False, "files": 1, "indexed": 0, "missing": [APP],
                                               "extra": [], "stale": []}},
             {"op": "index_refresh", "report": {"added": 1, "entries": 2}},
             {"op": "index_verify", "report": {"ok": True, "files": 1, "indexed": 1}},
             write(APP, APP_LINES), write(LIB, LIB_LINES),
             # Grown in place on a disk (appended), rewritten by a storage table's write_file
             # (reindexed): the runner's way of writing decides, so only the totals are compared.
             {"op": "index_refresh", "report": {"files": 2, "added": 1, "unchanged": 0, "removed": 0}},
             {"op": "search", "query": "dirigible", "hits": [hit("srch-app", "a4", "user", True,
                                                                "no, the " + mark("dirigible"))]},
             {"op": "index_list", "sessions": [
                 {"path": LIB, "id": "srch-lib", "cwd": CWD_LIB, "title": None,
                  "firstPrompt": "write a unit test for the staging config", "entries": 1, "messages": 1,
                  "archived": False, "leafId": "b1"},
                 {"path": APP, "id": "srch-app", "title": "Staging", "firstPrompt": "deploy the staging server",
                  "entries": 4, "messages": 4, "leafId": "a4"}]},
             {"op": "index_list", "cwd": CWD_APP, "limit": 5, "sessions": [{"id": "srch-app"}]},
             {"op": "index_rebuild", "report": {"files": 2, "added": 2, "unchanged": 0, "entries": 5}},
         ])
