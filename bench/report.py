#!/usr/bin/env python3
"""Runs xs_bench and prints the ratios the targets are stated in (bench/README.md).

    bench/report.py [path/to/xs_bench] [extra benchmark flags...]

Every ratio compares two benchmarks of the same run. With --benchmark_repetitions the medians
are used. Targets are reported, never asserted: on a shared machine even ratios move a little.
"""
import json
import subprocess
import sys

SIZES = (1000, 10000, 100000)


def run(binary, extra):
    cmd = [binary, "--benchmark_format=json", *extra]
    if any(a.startswith("--benchmark_repetitions") for a in extra):
        cmd.append("--benchmark_report_aggregates_only=true")
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    results = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        results[b["run_name"]] = b
    return results


def seconds(b):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
    return b["real_time"] * scale


def main():
    args = sys.argv[1:]
    binary = args.pop(0) if args and not args[0].startswith("-") else "build/bin/xs_bench"
    r = run(binary, args)

    def t(name):
        return seconds(r[name]) if name in r else None

    rows = []

    def ratio(label, num, den, target=None, invert=False):
        a, b = t(num), t(den)
        if a is None or b is None:
            return
        value = b / a if invert else a / b
        verdict = ""
        if target:
            op, limit = target
            ok = value <= limit if op == "<=" else value >= limit
            verdict = f"target {op} {limit}: {'met' if ok else 'MISSED'}"
        rows.append((label, f"{value:.3f}x", f"{a * 1e3:.3f} ms / {b * 1e3:.3f} ms", verdict))

    for n in SIZES:
        ratio(f"open {n} / simdjson DOM parse", f"BM_Open/{n}", f"BM_Baseline_SimdjsonParse/{n}", ("<=", 1.5))
        ratio(f"open {n} / read+memchr", f"BM_Open/{n}", f"BM_Baseline_ReadMemchr/{n}")
        ratio(f"open {n} / RapidJSON validate", f"BM_Open/{n}", f"BM_Baseline_RapidjsonValidate/{n}")
        ratio(f"build_context {n} / memcpy", f"BM_BuildContext/{n}", f"BM_Baseline_MemcpyContext/{n}", ("<=", 2.0))
        ratio(f"append {n} / validate+write", f"BM_AppendBuffered/{n}", "BM_Baseline_ValidateAndWrite", ("<=", 1.5))
        ratio(f"append {n} / validate+stat+write", f"BM_AppendBuffered/{n}", "BM_Baseline_ValidateStatAndWrite")
        ratio(f"sync append {n} rate / write+fdatasync rate", f"BM_AppendSync/{n}", f"BM_Baseline_WriteFdatasync/{n}",
              (">=", 0.9), invert=True)
        rss = r.get(f"BM_OpenPeakRss/{n}/iterations:1")
        if rss and "rss_growth_over_file_size" in rss:
            v = rss["rss_growth_over_file_size"]
            rows.append((f"open {n} peak RSS growth / file size", f"{v:.3f}x", "",
                         f"target <= 1.3: {'met' if v <= 1.3 else 'MISSED'}"))
        if t(f"BM_ListStore/{n}") is not None:
            rows.append((f"list 100 sessions of {n} entries", f"{t(f'BM_ListStore/{n}') * 1e3:.2f} ms", "", ""))

    for keys in (100, 1000):
        ratio(f"key patch, {keys} keys / write+fsync+rename", f"BM_KeyPatch/{keys}",
              f"BM_Baseline_WriteFsyncRename/{keys}", ("<=", 1.5))
    ratio("archive 100 MB session / gzip -1", "BM_Archive100MB/real_time", "BM_Baseline_Gzip1_100MB/real_time",
          ("<=", 1.2))
    ratio("bundle export 100 MB + 100 blobs / tar --zstd -c", "BM_BundleExport100MB/real_time",
          "BM_Baseline_TarZstdCreate100MB/real_time", ("<=", 1.5))
    ratio("bundle import 100 MB + 100 blobs / tar --zstd -x", "BM_BundleImport100MB/real_time",
          "BM_Baseline_TarZstdExtract100MB/real_time", ("<=", 1.5))
    ratio("import Claude transcript ~100 MB / simdjson parse_many", "BM_ImportClaude100MB/real_time",
          "BM_Baseline_SimdjsonParseMany100MB/real_time", ("<=", 3.0))
    ratio("import floor: read, parse, keep, write ~100 MB / simdjson parse_many",
          "BM_Floor_ReadParseKeepWrite100MB/real_time", "BM_Baseline_SimdjsonParseMany100MB/real_time")

    # The PostgreSQL backend (bench/postgres_bench.cc): appends as rates, opens as times.
    ratio("pg append rate / bare libpq INSERT loop rate", "BM_PgAppend/real_time",
          "BM_Baseline_LibpqInsertLoop/real_time", (">=", 0.8), invert=True)
    ratio("pg append rate / file append rate", "BM_PgAppend/real_time", "BM_FileAppend/real_time", invert=True)
    ratio("pg open 100k / bare libpq SELECT of its lines", "BM_PgOpen100k/real_time",
          "BM_Baseline_LibpqSelectLines100k/real_time")
    ratio("pg open 100k / file open 100k", "BM_PgOpen100k/real_time", "BM_FileOpen100k/real_time")

    ratio("index rebuild / read every session file", "BM_SearchIndex_Rebuild/iterations:1",
          "BM_Baseline_ReadEverySession/iterations:3", ("<=", 3.0))
    ratio("index rebuild / bare FTS5 insert loop of its rows", "BM_SearchIndex_Rebuild/iterations:1",
          "BM_Baseline_Fts5InsertLoop/iterations:1")
    ratio("store listing with the index / without (Finder scan)", "BM_StoreList_WithIndex/iterations:5",
          "BM_Baseline_FinderList/iterations:5", (">=", 50.0), invert=True)
    ratio("append rate with the index following / without an index", "BM_Append_IndexFollowing/real_time",
          "BM_Baseline_AppendNoIndex/real_time", (">=", 0.95), invert=True)
    ratio("append+index rate (flush timed) / without an index", "BM_Append_IndexFollowingFlushed/real_time",
          "BM_Baseline_AppendNoIndex/real_time", invert=True)
    ratio("stats of 1,000 sessions: prefix-read listing / keyed store read (new handle)", "BM_StatsFromKeyStore",
          "BM_Baseline_ListByPrefixReads", (">=", 20.0), invert=True)
    ratio("stats of 1,000 sessions: prefix-read listing / keyed store read (open handle)",
          "BM_StatsFromKeyStore_OpenHandle", "BM_Baseline_ListByPrefixReads", (">=", 20.0), invert=True)

    width = max(len(row[0]) for row in rows) if rows else 0
    for label, value, detail, verdict in rows:
        print(f"{label:<{width}}  {value:>9}  {detail:<28}  {verdict}")


if __name__ == "__main__":
    main()
