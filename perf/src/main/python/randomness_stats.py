"""NIST SP 800-22 and dieharder on the group's random output (scripts/bench-randomness).

    randomness_stats.py nist DIR OUTDIR [--sources A,B] [--sequences S] [--workers W] [--nist-until EPOCH]
    randomness_stats.py dieharder DIR OUTDIR [--sources A,B]
    randomness_stats.py summary DIR OUTDIR

The two suites run as separate steps (scripts/bench-randomness runs them side by side, one core each), then
the summary step merges their files.

For each DIR/SOURCE.bin (of the sources named, or all):
- SP 800-22 rev. 1a as its section 4.2 prescribes: every test (sp800_22.py) on S sequences of 10^6 bits (default:
  as many as the file holds, 100 for 12.5 MB); per test, the proportion of sequences with p >= 0.01 must reach
  0.99 - 3 sqrt(0.99 x 0.01 / m) of the m sequences tested (4.2.1), and the p-values must be uniform: the
  chi-square of their counts in ten bins gives P-value_T = igamc(9/2, chi^2/2) >= 0.0001 (4.2.2, m >= 55).
- dieharder on the whole file (file_input_raw), every test whose reliability dieharder rates Good, with as many
  p-samples (at most its default 100) as the file holds without rewinding: each test's need per p-sample is
  measured first on a 100 kB cut of the file; a test that needs more than the file for one p-sample is listed
  as not run, one that fits fewer than 10 runs one p-sample, and a run that rewound the file anyway is marked so. dieharder's "rate" output flag is left off:
  with it, dieharder draws about 4 MB to time the generator before each test, and a 12.5 MB file rewinds.
The sources' sequences are tested in turn (sequence 0 of every source, then sequence 1, ...), so that with
--nist-until (no sequence is started after that time, on a machine too loaded for the whole run) every source
is tested on the same number of sequences m, which the results state.
Leaves OUTDIR/randomness-stats.csv (every p-value: source,suite,test,sample,p_value,result,bytes),
OUTDIR/randomness-stats-nist.csv (per source and test: the two SP 800-22 criteria) and
OUTDIR/randomness-stats-summary.csv (per source and suite: tests passed, weak, failed, not run).
"""
import csv
import math
import os
import re
import subprocess
import sys
import time
from multiprocessing import Pool

import numpy
from scipy.special import gammaincc

import sp800_22

SEQUENCE_BITS = 1_000_000
# dieharder's tests rated Good (dieharder -l) as (test, ntuple or None for its default); OPSO, OQSO, DNA (Suspect)
# and Sums (Do Not Use) are left out. RGB bit distribution and minimum distance take the ntuples dieharder -a
# runs (1..12, 2..5): with their default ntuple 0 the first prints nothing and the second fails on any input
# (p = 0 on 12.5 MB of /dev/urandom as well).
DIEHARDER_TESTS = [(t, None) for t in (0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 15, 16, 17, 100, 101, 102)] \
    + [(200, n) for n in range(1, 13)] + [(201, n) for n in range(2, 6)] \
    + [(t, None) for t in (202, 203, 204, 205, 206, 207, 208, 209)]
# Below this many p-samples dieharder's final Kolmogorov-Smirnov p-value is degenerate (2 p-samples of craps
# give p = 1.0 on /dev/urandom's output): a test that fits fewer runs one p-sample, whose p-value it reports.
MIN_KS_PSAMPLES = 10
# test_name, ntuple, tsamples, psamples, pvalues, assessment: no "rate" (see above)
DIEHARDER_FLAGS = str(8 | 16 | 32 | 64 | 128 | 256)
PROBE_BYTES = 100_000


def nist_sequence(task):
    path, s = task
    raw = numpy.fromfile(path, dtype=numpy.uint8, count=SEQUENCE_BITS // 8, offset=s * SEQUENCE_BITS // 8)
    bits = numpy.unpackbits(raw).astype(numpy.int8)
    return s, sp800_22.tests(bits)


def nist(paths, sequences, workers, until):
    """{source: rows} for sequences 0..m-1 of every source, m <= sequences, the same m for all."""
    rows = {source: [] for source in paths}
    tasks = [(source, path, s) for s in range(sequences) for source, path in paths.items()]
    done = {source: 0 for source in paths}
    with Pool(workers) as pool:
        pending = []
        it = iter(tasks)
        for task in it:
            if until is not None and time.time() > until:
                break
            pending.append((task[0], pool.apply_async(nist_sequence, ((task[1], task[2]),))))
            while len(pending) >= 2 * workers:
                source, result = pending.pop(0)
                collect(rows, done, source, result.get())
        for source, result in pending:
            collect(rows, done, source, result.get())
    m = min(done.values())
    return {source: [r for r in rows[source] if r[2] < m] for source in paths}, m


def collect(rows, done, source, result):
    s, results = result
    for name, p in results:
        outcome = "NOT-APPLICABLE" if p is None else "PASSED" if p >= sp800_22.ALPHA else "FAILED"
        rows[source].append(("nist-sp800-22", name, s, "" if p is None else p, outcome))
    done[source] = max(done[source], s + 1)
    print(f"  nist {source} sequence {s}: {sum(1 for _, p in results if p is not None and p < 0.01)} of"
          f" {len(results)} p-values below 0.01", flush=True)


def nist_criteria(rows):
    """Per test: (test, m, passed, proportion, minimum proportion, uniformity P-value_T, both criteria met)."""
    by_test = {}
    for _, test, _, p, result in rows:
        if result != "NOT-APPLICABLE":
            by_test.setdefault(test, []).append(float(p))
    out = []
    for test, ps in by_test.items():
        m = len(ps)
        passed = sum(1 for p in ps if p >= sp800_22.ALPHA)
        minimum = 0.99 - 3 * math.sqrt(0.99 * 0.01 / m)
        counts = numpy.histogram(ps, bins=10, range=(0.0, 1.0))[0]
        chi2 = float(((counts - m / 10) ** 2 / (m / 10)).sum())
        uniformity = float(gammaincc(9 / 2, chi2 / 2)) if m >= 55 else None
        ok = passed / m >= minimum and (uniformity is None or uniformity >= 0.0001)
        out.append((test, m, passed, passed / m, minimum, uniformity, ok))
    return out


def dieharder_run(path, test, psamples):
    number, ntuple = test
    args = ["dieharder", "-g", "201", "-f", path, "-d", str(number), "-p", str(psamples), "-D", DIEHARDER_FLAGS]
    if ntuple is not None:
        args += ["-n", str(ntuple)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    rewound = re.search(r"was rewound (\d+) times", done.stdout + done.stderr)
    lines = []
    for line in done.stdout.splitlines():
        f = [x.strip() for x in line.split("|")]
        if len(f) == 6 and re.fullmatch(r"[0-9.e+-]+", f[4] or "x"):
            lines.append((f[0], f[1], float(f[4]), f[5]))
    return lines, int(rewound.group(1)) if rewound else 0


def dieharder(path, size, probe):
    rows = []
    for test in DIEHARDER_TESTS:
        _, rewinds = dieharder_run(probe, test, 1)
        need = (rewinds + 1) * PROBE_BYTES  # bytes one p-sample reads, at most
        psamples = min(100, size // need)
        if psamples < 1:
            name = f"-d {test[0]}" + ("" if test[1] is None else f" -n {test[1]}")
            rows.append(("dieharder", name, 0, "", f"NOT-RUN(one p-sample reads ~{need // 1_000_000} MB)"))
            print(f"  dieharder {name}: not run, one p-sample reads ~{need / 1e6:.1f} MB", flush=True)
            continue
        if psamples < MIN_KS_PSAMPLES:
            psamples = 1
        lines, rewinds = dieharder_run(path, test, psamples)
        if rewinds and psamples // (rewinds + 1) >= MIN_KS_PSAMPLES:  # the probe's bound was short
            psamples //= rewinds + 1
            lines, rewinds = dieharder_run(path, test, psamples)
        for name, ntuple, p, result in lines:
            marked = result if rewinds == 0 else result + "-REWOUND"
            rows.append(("dieharder", f"{name}(ntup={ntuple})", psamples, p, marked))
            print(f"  dieharder {name} ntup {ntuple}, {psamples} p-samples: p={p} {marked}", flush=True)
    return rows


def write_nist(paths, sizes, outdir, sequences, workers, until):
    """SP 800-22 on every source: OUTDIR/randomness-stats-nist-pvalues.csv and randomness-stats-nist.csv."""
    most = min(sizes.values()) * 8 // SEQUENCE_BITS
    nist_rows, m = nist(paths, most if sequences is None else min(sequences, most), workers, until)
    print(f"SP 800-22: {m} sequences of 10^6 bits per source", flush=True)
    with open(os.path.join(outdir, "randomness-stats-nist-pvalues.csv"), "w", newline="") as f, \
            open(os.path.join(outdir, "randomness-stats-nist.csv"), "w", newline="") as g:
        w, wn = csv.writer(f), csv.writer(g)
        wn.writerow(["source", "test", "sequences", "passed", "proportion", "minimum_proportion",
                     "uniformity_p", "passed_both"])
        for source in paths:
            for c in nist_criteria(nist_rows[source]):
                wn.writerow((source, c[0], c[1], c[2], f"{c[3]:.4f}", f"{c[4]:.4f}",
                             "" if c[5] is None else f"{c[5]:.6f}", c[6]))
            for row in nist_rows[source]:
                w.writerow((source,) + row + (sizes[source],))


def write_dieharder(paths, sizes, directory, outdir):
    """dieharder on every source: OUTDIR/randomness-stats-dieharder.csv, a source's rows once it is done."""
    with open(os.path.join(outdir, "randomness-stats-dieharder.csv"), "w", newline="") as f:
        w = csv.writer(f)
        for source, path in paths.items():
            print(f"{source}: dieharder on {sizes[source]} bytes", flush=True)
            probe = os.path.join(directory, "probe-" + os.path.basename(path))
            with open(path, "rb") as src, open(probe, "wb") as dst:
                dst.write(src.read(PROBE_BYTES))
            rows = dieharder(path, sizes[source], probe)
            os.remove(probe)
            for row in rows:
                w.writerow((source,) + row + (sizes[source],))
            f.flush()


def write_summary(outdir):
    """randomness-stats.csv (every p-value) and randomness-stats-summary.csv from the two suites' files."""
    rows = []
    for part in ("randomness-stats-nist-pvalues.csv", "randomness-stats-dieharder.csv"):
        with open(os.path.join(outdir, part), newline="") as f:
            rows += list(csv.reader(f))
        os.remove(os.path.join(outdir, part))
    with open(os.path.join(outdir, "randomness-stats.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["source", "suite", "test", "sample", "p_value", "result", "bytes"])
        w.writerows(rows)
    with open(os.path.join(outdir, "randomness-stats-nist.csv"), newline="") as f:
        criteria = list(csv.DictReader(f))
    summary = []
    for source in sorted({r[0] for r in rows}):
        size = next(r[6] for r in rows if r[0] == source)
        mine = [c for c in criteria if c["source"] == source]
        met = sum(1 for c in mine if c["passed_both"] == "True")
        summary.append((source, size, "nist-sp800-22", len(mine), met, 0, len(mine) - met, 0))
        die = [r for r in rows if r[0] == source and r[1] == "dieharder"]
        ran = [r for r in die if not r[5].startswith("NOT-RUN") and not r[5].endswith("-REWOUND")]
        summary.append((source, size, "dieharder", len(ran), sum(1 for r in ran if r[5] == "PASSED"),
                        sum(1 for r in ran if r[5] == "WEAK"), sum(1 for r in ran if r[5] == "FAILED"),
                        len(die) - len(ran)))
    with open(os.path.join(outdir, "randomness-stats-summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["source", "bytes", "suite", "tests", "passed", "weak", "failed", "not_run"])
        w.writerows(summary)


def main():
    args = sys.argv[1:]
    step, directory, outdir = args[0], args[1], args[2]
    sequences = int(args[args.index("--sequences") + 1]) if "--sequences" in args else None
    workers = int(args[args.index("--workers") + 1]) if "--workers" in args else 1
    until = float(args[args.index("--nist-until") + 1]) if "--nist-until" in args else None
    only = args[args.index("--sources") + 1].split(",") if "--sources" in args else None
    paths = {name[:-4]: os.path.join(directory, name) for name in sorted(os.listdir(directory))
             if name.endswith(".bin") and not name.startswith("probe-") and (only is None or name[:-4] in only)}
    sizes = {source: os.path.getsize(path) for source, path in paths.items()}
    if step == "nist":
        write_nist(paths, sizes, outdir, sequences, workers, until)
    elif step == "dieharder":
        write_dieharder(paths, sizes, directory, outdir)
    else:
        write_summary(outdir)


if __name__ == "__main__":
    main()
