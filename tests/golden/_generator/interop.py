#!/usr/bin/env python3
"""Record the interop vectors (1xx): operations on which vaultspec once
diverged from the reference, found by tests/differential/. Same layout as
gen.py's vectors; run by tests/e2e/golden_cli.rs.

usage: interop.py GOLDEN_DIR [NAME...]   (needs vaultspec-core-ref on PATH)

Each vector starts from files of existing vectors' before/ trees plus
inline files, runs its commands with the reference in a scratch copy
under $VAULTSPEC_SCRATCH (default: a temp folder), and records after/,
stdout.json, exit.txt and today.txt. The run's date is written as the
vectors' generation day (2026-11-30) so the harness's date swap applies.
"""
import datetime
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GOLDEN = Path(sys.argv[1]).resolve()
ONLY = sys.argv[2:]
TOOL = os.environ.get("VAULTSPEC_REF", "vaultspec-core-ref")
TODAY = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
GEN_DAY = "2026-11-30"
ENV = dict(os.environ, VAULTSPEC_NO_HINTS="1", VAULTSPEC_STDIO_WATCHDOG="0", TZ="UTC")
ENV.pop("VAULTSPEC_TARGET_DIR", None)

RESEARCH = ".vault/research/2026-03-01-cache-layer-eviction-research.md"
PLAN_L1 = ".vault/plan/2026-03-10-tiny-fix-plan.md"
PLAN_L2 = ".vault/plan/2026-03-11-mid-work-plan.md"
PLAN_L4 = ".vault/plan/2026-03-12-wide-work-plan.md"

PLAN_ODD = """---
tags:
  - "#plan"
  - "#odd-keys"
date: 2026-03-13
tier: L1
related: []
---

# `odd-keys` plan

## Description

A plan written by hand before the stamps existed.

## Steps

- [ ] `S01` - write the parser; `src/parse.rs`.

## Parallelization

None.

## Verification

The tests pass.
"""

PLAN_DASH = """---
tags:
  - '#plan'
  - '#dash-prose'
date: '2026-03-14'
tier: L1
modified: '2026-03-20'
body_schema: body-v2
body_hash: 'sha256:0000000000000000000000000000000000000000000000000000000000000000'
---

# `dash-prose` plan

## Description

Keep the cache small \u2014 the hosts are tight on memory.

## Steps

- [ ] `S01` - cap the cache; `src/cache.rs`.
- [ ] `S02` - test the cap; `tests/cap.rs`.

## Parallelization

None.

## Verification

The tests pass.
"""

PLAN_L4_ONE_WAVE = """---
tags:
  - '#plan'
  - '#one-wave'
date: '2026-03-15'
tier: L4
modified: '2026-03-20'
body_schema: body-v2
body_hash: 'sha256:0000000000000000000000000000000000000000000000000000000000000000'
---

# `one-wave` plan

## Description

One stage only.

## Steps

## Epic intent

Ship the store; tracked on the board as STORE-1.

## Wave `W01` - stage one

The only stage.

### Phase `W01.P01` - part one

Build part one.

- [ ] `W01.P01.S01` - write part one; `src/one.rs`.

## Parallelization

None.

## Verification

The tests pass.
"""

AUDIT = """---
tags:
  - '#audit'
  - '#cache-layer'
date: '2026-03-06'
modified: '2026-03-06'
body_schema: 'body-v2'
body_hash: 'sha256:0000000000000000000000000000000000000000000000000000000000000000'
related:
  - "[[2026-03-01-cache-layer-eviction-research]]"
---

# `cache-layer` audit: `first pass`

## Scope

The store.

## Findings

- Writes are not atomic.

## Recommendations

Write through a temporary file.
"""

RECORD = """---
tags:
  - '#exec'
  - '#cache-layer'
date: '2026-03-06'
modified: '2026-03-06'
related:
  - "[[2026-03-05-cache-layer-plan]]"
---

# `cache-layer` exec: an early record

## Changes

- `M` `src/cache.rs`
"""

# name -> (copy before/ trees of these vectors, inline files, commands, note)
VECTORS = {
    "100-plan-step-check-closed-restamps": (
        ["46-plan-l1-step-check-uncheck-toggle"], {},
        ["vault plan step check tiny-fix S01 --json"],
        "Checking a Step that is already closed still re-stamps `modified:` (the plan writer compares the stamped text with the file).",
    ),
    "101-set-frontmatter-same-date-restamps": (
        ["20-set-frontmatter-date"], {},
        ["vault set-frontmatter 2026-03-01-cache-layer-eviction-research --date 2026-03-01 --json"],
        "`set-frontmatter` with the value the document already has: `modified:` re-stamped, status `updated`.",
    ),
    "102-set-frontmatter-plan-in-place": (
        [], {".vault/plan/2026-03-13-odd-keys-plan.md": PLAN_ODD},
        ["vault set-frontmatter 2026-03-13-odd-keys-plan --date 2026-03-14 --json"],
        "`set-frontmatter` on a hand-written plan edits the key in place: key order, quoting and `related: []` kept.",
    ),
    "103-plan-em-dash-proceeds": (
        [], {".vault/plan/2026-03-14-dash-prose-plan.md": PLAN_DASH},
        ["vault plan step check dash-prose S02 --json"],
        "An em dash in a plan's prose (PLAN060) does not stop the plan verbs.",
    ),
    "104-plan-step-move-anchor-other-phase": (
        ["50-plan-l2-step-add-to-phase"], {},
        ["vault plan step move mid-work S01 --before S03 --json"],
        "`step move --before` an anchor in another Phase, without `--to-phase`: refused, exit 1.",
    ),
    "105-rule-promote": (
        ["05-add-audit-two-related"], {".vault/audit/2026-03-06-cache-layer-first-pass-audit.md": AUDIT,
                                       ".vaultspec/rules/.gitkeep": ""},
        ["vault rule promote --from 2026-03-06-cache-layer-first-pass-audit --as atomic-writes --json"],
        "`rule promote` writes the rule template with `derived_from`, and adds `promoted_to` to the audit (frontmatter re-rendered).",
    ),
    "106-rename-own-stem": (
        ["30-rename"], {},
        ["vault rename 2026-03-01-cache-layer-eviction-research --to 2026-03-01-cache-layer-eviction-research --json"],
        "`rename --to` the stem the document has: `unchanged`, nothing written.",
    ),
    "107-feature-rename-onto-existing": (
        ["31-feature-rename"], {".vault/research/2026-03-01-entry-store-eviction-research.md":
                                None},
        ["vault feature rename cache-layer entry-store --json",
         "vault feature rename cache-layer entry-store --force --dry-run --json"],
        "`feature rename` onto a feature that has documents: refused without `--force`; with `--force --dry-run` the file collision refuses too (exit 1).",
    ),
    "108-exec-log-nothing-creates-scaffold": (
        ["85-exec-log-create"], {},
        ["vault exec log --feature cache-layer --related 2026-03-05-cache-layer-plan --step S01 --json"],
        "`exec log` with no rows, verify, by or note and no ledger yet: the ledger scaffold is written.",
    ),
    "109-set-frontmatter-bad-date": (
        ["20-set-frontmatter-date"], {},
        ["vault set-frontmatter 2026-03-01-cache-layer-eviction-research --date 2026/11/30 --json",
         "vault set-frontmatter 2026-03-01-cache-layer-eviction-research --date 2026-3-9 --json"],
        "A date that is not `yyyy-mm-dd` is refused by the pre-write validation: status `failed`, exit 1.",
    ),
    "110-plan-l4-remove-only-wave": (
        [], {".vault/plan/2026-03-15-one-wave-plan.md": PLAN_L4_ONE_WAVE},
        ["vault plan wave remove one-wave W01 --json"],
        "Removing an L4 plan's only Wave retires it (and its Phase and Step) with a `RETIRED:` comment.",
    ),
    "111-exec-relink-inserts-step-id": (
        ["86-exec-log-verify-by-note"], {".vault/exec/2026-03-05-cache-layer/2026-03-06-cache-layer-early-exec.md": RECORD},
        ["vault exec relink --record .vault/exec/2026-03-05-cache-layer/2026-03-06-cache-layer-early-exec.md --step S02 --json"],
        "`exec relink` on a record without `step_id:` inserts it quoted on the line after `modified:`.",
    ),
    "112-fix-without-fixer-and-fold-without-records": (
        ["05-add-audit-two-related"], {},
        ["vault check orphans --fix --json",
         "vault check features --fix --json",
         "vault exec fold --feature cache-layer --force --json"],
        "`check orphans --fix` and `check features --fix` (no fixer) and `exec fold` with no exec folder: exit 1.",
    ),
}


def tool(ws, cmd):
    argv = [TOOL] + shlex.split(cmd)
    return subprocess.run(argv, cwd=ws, capture_output=True, text=True, env=ENV)


def parse(stdout, ws):
    text = stdout.replace(str(ws), "<ROOT>").replace(TODAY, GEN_DAY)
    if not text.strip():
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return {"_text": text}


def copy(src, dst):
    for p in src.rglob("*"):
        if p.is_file():
            t = dst / p.relative_to(src)
            t.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, t)


def snapshot_after(ws, out, with_vaultspec):
    dated = []
    for top in [".vault"] + ([".vaultspec"] if with_vaultspec else []):
        for p in sorted((ws / top).rglob("*")):
            rel = p.relative_to(ws)
            if not p.is_file() or p.name.endswith(".lock") or p.name == ".gitkeep":
                continue
            if rel.parts[:2] in ((".vault", "data"), (".vault", "logs")):
                continue
            text = p.read_bytes()
            if TODAY.encode() in text:
                text = text.replace(TODAY.encode(), GEN_DAY.encode())
                dated.append(f"after/{rel}")
            t = out / "after" / rel
            t.parent.mkdir(parents=True, exist_ok=True)
            t.write_bytes(text)
    return dated


def record(name, spec, scratch):
    sources, files, commands, note = spec
    out = GOLDEN / name
    if out.exists():
        shutil.rmtree(out)
    before = out / "before"
    before.mkdir(parents=True)
    for src in sources:
        copy(GOLDEN / src / "before", before)
    for rel, text in files.items():
        t = before / rel
        t.parent.mkdir(parents=True, exist_ok=True)
        if text is None:  # a copy of the cache-layer research under another feature
            text = (before / RESEARCH).read_text().replace("cache-layer", "entry-store")
        t.write_text(text)
    if not (before / ".vaultspec").is_dir():  # a workspace needs the folder
        (before / ".vaultspec").mkdir()
        (before / ".vaultspec" / ".gitkeep").write_text("")
    ws = scratch / "ws"
    ws.mkdir(exist_ok=True)
    for p in list(ws.iterdir()):
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    copy(before, ws)
    outputs, exits = [], []
    for cmd in commands:
        p = tool(ws, cmd)
        outputs.append(parse(p.stdout, ws))
        exits.append(str(p.returncode))
    dated = snapshot_after(ws, out, name == "105-rule-promote")
    (out / "command.txt").write_text("".join(f"vaultspec-core {c}\n" for c in commands))
    (out / "exit.txt").write_text("".join(f"{e}\n" for e in exits))
    (out / "stdout.json").write_text(json.dumps(outputs, indent=2, ensure_ascii=False) + "\n")
    (out / "note.txt").write_text(note + "\n")
    if dated:
        (out / "today.txt").write_text("".join(f"{d}\n" for d in dated))
    print(name, exits, flush=True)


def main():
    base = os.environ.get("VAULTSPEC_SCRATCH")
    scratch = Path(base) if base else Path(tempfile.mkdtemp())
    scratch.mkdir(parents=True, exist_ok=True)
    for name, spec in VECTORS.items():
        if ONLY and name not in ONLY:
            continue
        record(name, spec, scratch)


main()
