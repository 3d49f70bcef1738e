#!/usr/bin/env python3
"""bench/audit5/measure.py — audit 5 again: predict every stored point and hold it against its
stored simulation. The models were written in session 10 by auditors who read only the spec, the
issue and --help (REPORT.md in each set). Each set's sims.csv holds the exact simulated time of
every point (`pamc simulate --scenario typ`, point constants), so this only runs predict.

usage: python3 bench/audit5/measure.py PAMC [SET...] [--rows OUT.csv] [--than OLD.csv]
       (sets: comm mix shm, or a directory holding sims.csv; default audit 5's three and audit 6's
       two, bench/audit6/dist and bench/audit6/talk, written the same way in session 11)
--rows writes every row (set, model, param, value, sim, lo, est, hi); --than prints the rows whose
lo fell or hi rose against an earlier --rows file, and exits 1 when there is one.

Prints, per set, the rows and models that miss a target (sim outside [lo, hi]: UNSOUND; est off by
more than 5%; hi/sim above 2; a predict slower than 10 s, a timing), the worst point of each
missing model, and a total line."""
import csv, os, subprocess, sys, time

SLOW = 10.0   # seconds: a predict of one point slower than this misses too (reduction time)

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


def set_dir_of(name):
    """A set of audit 5 by name (comm, mix, shm), or any directory holding sims.csv (audit 6's sets:
    bench/audit6/dist, bench/audit6/talk)."""
    return name if os.path.isdir(name) else os.path.join(HERE, name)


def measure(pamc, name, out_rows):
    set_dir = set_dir_of(name)
    rows = misses = unsound = 0
    worst = {}
    for r in csv.DictReader(open(os.path.join(set_dir, "sims.csv"))):
        path = model_path(set_dir, r["model"])
        if not path or not r["sim"]:
            continue
        sim = float(r["sim"])
        try:
            start = time.monotonic()
            lo, est, hi = predict(pamc, path, r["param"], r["value"])
            seconds = time.monotonic() - start
        except (IndexError, ValueError, subprocess.TimeoutExpired):
            print(f"  {r['model']} {r['param']}={r['value']}: predict failed")
            misses += 1
            continue
        rows += 1
        out_rows.append({"set": name, "model": r["model"], "param": r["param"], "value": r["value"],
                         "sim": sim, "lo": lo, "est": est, "hi": hi})
        bad = []
        if sim < lo * (1 - 1e-9) or sim > hi * (1 + 1e-9):
            bad.append("UNSOUND")
            unsound += 1
        err = (est - sim) / sim if sim > 0 else 0.0
        if abs(err) > 0.05:
            bad.append("est")
        if sim > 0 and hi / sim > 2 * (1 + 1e-9):
            bad.append("hi")
        if seconds > SLOW:
            bad.append(f"slow {seconds:.0f} s")
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


def looser(old_csv, rows):
    """Rows whose lo fell or hi rose against an earlier --rows file (beyond rounding)."""
    old = {(r["set"], r["model"], r["value"]): r for r in csv.DictReader(open(old_csv))}
    n = 0
    for r in rows:
        o = old.get((r["set"], r["model"], r["value"]))
        if not o:
            continue
        lo0, hi0 = float(o["lo"]), float(o["hi"])
        if r["lo"] < lo0 * (1 - 1e-9) or r["hi"] > hi0 * (1 + 1e-9):
            n += 1
            print(f"  looser: {r['set']}/{r['model']} {r['param']}={r['value']}: "
                  f"lo {lo0:.6g} -> {r['lo']:.6g}, hi {hi0:.6g} -> {r['hi']:.6g}")
    print(f"{n} rows looser than {old_csv}")
    return n


def main():
    args, sets, rows_out, than = sys.argv[1:], [], None, None
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    pamc = args.pop(0)
    while args:
        a = args.pop(0)
        if a == "--rows" and args:
            rows_out = args.pop(0)
        elif a == "--than" and args:
            than = args.pop(0)
        else:
            sets.append(a)
    total, rows = [0, 0, 0], []
    audit6 = os.path.join(os.path.dirname(HERE), "audit6")
    every = ["comm", "mix", "shm"] + [os.path.relpath(os.path.join(audit6, s)) for s in ("dist", "talk")
                                      if os.path.isdir(os.path.join(audit6, s))]
    for name in sets or every:
        for k, v in enumerate(measure(pamc, name, rows)):
            total[k] += v
    print(f"total: {total[0]} rows, {total[1]} missing, {total[2]} unsound")
    if rows_out:
        with open(rows_out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["set"])
            w.writeheader()
            w.writerows(rows)
    worse = looser(than, rows) if than else 0
    sys.exit(1 if total[2] or worse else 0)


if __name__ == "__main__":
    main()
