#!/usr/bin/env python3
"""bench/audit5/measure.py — audit 5 again: predict every stored point and hold it against its
stored simulation. The models were written in session 10 by auditors who read only the spec, the
issue and --help (REPORT.md in each set). Each set's sims.csv holds the exact simulated time of
every point (`pamc simulate --scenario typ`, point constants), so this only runs predict.

usage: python3 bench/audit5/measure.py PAMC [SET...]      (sets: comm mix shm; default all)

Prints, per set, the rows and models that miss a target (sim outside [lo, hi]: UNSOUND; est off by
more than 5%; hi/sim above 2), the worst point of each missing model, and a total line."""
import csv, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def model_path(set_dir, name):
    for sub in ("models", "models_extra", ""):
        for cand in (name, name + ".pam"):
            p = os.path.join(set_dir, sub, cand)
            if os.path.isfile(p):
                return p
    return None


def predict(pamc, path, param, value):
    out = subprocess.run([pamc, "predict", path, "-D", f"{param}={value}", "-q", "--format", "csv"],
                         capture_output=True, text=True, timeout=300)
    row = out.stdout.strip().split("\n")[-1].split(",")
    return float(row[1]), float(row[2]), float(row[3])


def measure(pamc, name):
    set_dir = os.path.join(HERE, name)
    rows = misses = unsound = 0
    worst = {}
    for r in csv.DictReader(open(os.path.join(set_dir, "sims.csv"))):
        path = model_path(set_dir, r["model"])
        if not path or not r["sim"]:
            continue
        sim = float(r["sim"])
        try:
            lo, est, hi = predict(pamc, path, r["param"], r["value"])
        except (IndexError, ValueError, subprocess.TimeoutExpired):
            print(f"  {r['model']} {r['param']}={r['value']}: predict failed")
            misses += 1
            continue
        rows += 1
        bad = []
        if sim < lo * (1 - 1e-9) or sim > hi * (1 + 1e-9):
            bad.append("UNSOUND")
            unsound += 1
        err = (est - sim) / sim if sim > 0 else 0.0
        if abs(err) > 0.05:
            bad.append("est")
        if sim > 0 and hi / sim > 2 * (1 + 1e-9):
            bad.append("hi")
        if bad:
            misses += 1
            w = worst.setdefault(r["model"], [0.0, 1.0, set()])
            w[0] = err if abs(err) > abs(w[0]) else w[0]
            w[1] = max(w[1], hi / sim if sim > 0 else 1.0)
            w[2].update(bad)
    print(f"{name}: {rows} rows, {misses} missing in {len(worst)} models, {unsound} unsound")
    for m, (err, ratio, what) in sorted(worst.items()):
        print(f"  {m}: worst est {err * 100:+.1f}%, hi/sim {ratio:.2f} ({', '.join(sorted(what))})")
    return rows, misses, unsound


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sets = sys.argv[2:] or ["comm", "mix", "shm"]
    total = [0, 0, 0]
    for name in sets:
        for k, v in enumerate(measure(sys.argv[1], name)):
            total[k] += v
    print(f"total: {total[0]} rows, {total[1]} missing, {total[2]} unsound")
    sys.exit(1 if total[2] else 0)


if __name__ == "__main__":
    main()
