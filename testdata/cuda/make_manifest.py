#!/usr/bin/env python3
"""Assemble testdata/cuda/manifest.json from the cases_<file>.jsonl files the CUDA programs wrote.

usage: make_manifest.py DIR > manifest.json
DIR holds cases_<name>.jsonl and <name>.ptx. Every case's kernel must be an .entry of its PTX; cases whose two
launches disagreed (deterministic false) are left out, and so are cases whose reference check failed unless
--keep-mismatch is given (the GPU is the truth; a mismatch means the host reference is wrong or the kernel has a
race). Warnings go to stderr.
"""
import json
import os
import re
import sys

ORDER = ["reduce", "scan", "completion", "tma_pipeline", "libcu", "isa_mix"]


def fmt(case):
    head = {k: v for k, v in case.items() if k != "dumps"}
    s = "  {" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items())
    s += ',\n   "dumps": [\n'
    s += ",\n".join("    " + json.dumps(d, separators=(", ", ": ")) for d in case["dumps"])
    return s + "\n  ]}"


def main():
    d = sys.argv[1]
    keep_mismatch = "--keep-mismatch" in sys.argv
    cases = []
    for name in ORDER:
        path = os.path.join(d, f"cases_{name}.jsonl")
        ptx_path = os.path.join(d, f"{name}.ptx")
        if not os.path.exists(path):
            print(f"warning: {name}: no cases", file=sys.stderr)
            continue
        entries = set()
        if os.path.exists(ptx_path):
            entries = set(re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)", open(ptx_path).read()))
        for line in open(path):
            line = line.strip()
            if not line:
                continue
            c = json.loads(line)
            if c["kernel"] not in entries:
                print(f"warning: {c['name']}: kernel {c['kernel']} is not an .entry of {name}.ptx; left out", file=sys.stderr)
                continue
            if not c.get("deterministic", False):
                print(f"warning: {c['name']}: two launches disagreed; left out", file=sys.stderr)
                continue
            if c.get("cpu_reference") == "mismatch" and not keep_mismatch:
                print(f"warning: {c['name']}: host reference mismatch; left out", file=sys.stderr)
                continue
            cases.append(c)
    sys.stdout.write("[\n" + ",\n".join(fmt(c) for c in cases) + "\n]\n")
    print(f"{len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
