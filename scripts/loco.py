#!/usr/bin/env python3
"""Leave-one-conversation-out decisions on `setree eval --json` results (docs/adr/0010-calibration.md).

A lever is a reference setting and candidate settings, each `LABEL:SYSTEM` where LABEL names one eval JSON
(`--run LABEL=FILE`, runs with different builds, e.g. summary designs) and SYSTEM a system of that run
(`setree`, `setree[second_hop=0]`, ...). For each of the five conversations: pick the candidate with the
best objective on the other four (macro mean over conversations, both variants, budgets 512 and 1024),
then report its gain over the reference on the held-out conversation, per variant and metric.

Objective J = 0.5 x headline recall (categories 1-4) + 0.25 x overview event_rouge1 + 0.25 x overview recall
(category 6), so fact and overview prompts weigh the same. `--objective fact|overview` uses one half only.

Usage: loco.py --run base=bench-out/base.json [--run terms=...] --ref base:setree --cand base:'setree[...]' ...
"""
import argparse, json, statistics, sys

p = argparse.ArgumentParser()
p.add_argument("--run", action="append", required=True)
p.add_argument("--ref", required=True)
p.add_argument("--cand", action="append", required=True)
p.add_argument("--budgets", default="512,1024")
p.add_argument("--objective", default="both", choices=["both", "fact", "overview"])
a = p.parse_args()
budgets = [int(b) for b in a.budgets.split(",")]
runs = {}
for r in a.run:
    label, path = r.split("=", 1)
    runs[label] = json.load(open(path))["per_kb"]

def table(setting):
    label, system = setting.split(":", 1)
    t = {}
    for row in runs[label]:
        if row["system"] != system or row["budget"] not in budgets:
            continue
        conv, variant = row["kb"].split(".")[0], row["kb"].split(".")[-1]
        key = (conv, variant, row["budget"])
        d = t.setdefault(key, {})
        if row["categories"] == "1-4":
            d["head"] = row["recall"]
            d["multi"] = row.get("multi_hop_recall")
        elif row["categories"] == "6":
            d["rouge"] = row["event_rouge1"]
            d["orec"] = row["recall"]
    if not t:
        sys.exit(f"no rows for {setting}")
    return t

def J(d):
    if a.objective == "fact":
        return d["head"]
    if a.objective == "overview":
        return 0.5 * d["rouge"] + 0.5 * d["orec"]
    return 0.5 * d["head"] + 0.25 * d["rouge"] + 0.25 * d["orec"]

settings = [a.ref] + [c for c in a.cand if c != a.ref]
tabs = {s: table(s) for s in settings}
convs = sorted({k[0] for k in tabs[a.ref]})
variants = sorted({k[1] for k in tabs[a.ref]}, reverse=True)

def score(s, keep):
    vals = [J(d) for (c, v, b), d in tabs[s].items() if c in keep]
    return sum(vals) / len(vals)

metrics = ["J", "head", "multi", "rouge", "orec"]
gains = {(v, m, b): [] for v in variants for m in metrics for b in budgets}
print(f"objective: {a.objective}; reference {a.ref}")
for held in convs:
    train = [c for c in convs if c != held]
    best = max(settings, key=lambda s: (round(score(s, train), 6), -settings.index(s)))
    cells = []
    for v in variants:
        for b in budgets:
            d, r = tabs[best][(held, v, b)], tabs[a.ref][(held, v, b)]
            for m in metrics:
                x = J(d) - J(r) if m == "J" else (d[m] or 0) - (r[m] or 0)
                gains[(v, m, b)].append(x)
            cells.append(f"{v}@{b} dJ {J(d) - J(r):+.3f} head {d['head'] - r['head']:+.3f} "
                         f"rouge {d['rouge'] - r['rouge']:+.3f} orec {d['orec'] - r['orec']:+.3f}")
    print(f"fold {held}: chose {best} (train J {score(best, train):.4f} vs ref {score(a.ref, train):.4f})")
    for c in cells:
        print("    " + c)
print("held-out gain over the reference: mean [min, max] (sd) over the five folds")
for v in variants:
    for m in metrics:
        for b in budgets:
            xs = gains[(v, m, b)]
            print(f"  {v:5s} {m:5s} @{b}: {statistics.mean(xs):+.4f} [{min(xs):+.4f}, {max(xs):+.4f}] "
                  f"(sd {statistics.pstdev(xs):.4f})")
