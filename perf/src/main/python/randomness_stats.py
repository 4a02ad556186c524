"""NIST SP 800-22 (nistrng) and dieharder on the group's random output (scripts/bench-randomness).

    randomness_stats.py DIR OUT.csv [--sequences S] [--dieharder-psamples P]

For each DIR/SOURCE.bin: the SP 800-22 tests below on its first S sequences of 10^6 bits (p >= 0.01 passes,
as SP 800-22 section 4.2.1), and the dieharder tests below on the whole file (file_input_raw; dieharder's own
PASSED/WEAK/FAILED, and the number of times the file was rewound, which makes a result meaningless).
Writes one row per (source, suite, test, sample): source,suite,test,sample,p_value,result,bytes.
"""
import csv
import os
import re
import subprocess
import sys

import numpy

# The SP 800-22 tests nistrng runs within minutes per 10^6 bits on this machine; serial and approximate
# entropy (2-3 min each per sequence in nistrng) and the random excursion tests are left out.
NIST_TESTS = ["monobit", "frequency_within_block", "runs", "longest_run_ones_in_a_block", "binary_matrix_rank",
              "dft", "non_overlapping_template_matching", "maurers_universal", "cumulative sums"]
# dieharder tests: birthdays, 32x32 and 6x8 ranks, bitstream, count-1s (stream), runs, craps, the STS
# monobit/runs/serial. With its default 100 p-samples most of them read more than 12.5 MB and rewind the
# file (reused data fails tests for nothing): --dieharder-psamples lowers that, and a rewound result is marked.
DIEHARDER_TESTS = [0, 2, 3, 4, 8, 15, 16, 100, 101, 102]
SEQUENCE_BITS = 1_000_000


def nist(path, sequences):
    from nistrng import SP800_22R1A_BATTERY, run_by_name_battery
    raw = numpy.fromfile(path, dtype=numpy.uint8)
    rows = []
    for s in range(min(sequences, len(raw) * 8 // SEQUENCE_BITS)):
        chunk = raw[s * SEQUENCE_BITS // 8:(s + 1) * SEQUENCE_BITS // 8]
        # int64: nistrng sums the bits in the array's own dtype, and int8 overflows (cumulative sums, dft)
        bits = numpy.unpackbits(chunk).astype(numpy.int64)
        for name in NIST_TESTS:
            # a fresh copy for each test: some of nistrng's tests change the array they are given (after one of
            # them, dft reported p = 0.0 on a sequence where it reports 0.26 on its own)
            result = run_by_name_battery(name, bits.copy(), SP800_22R1A_BATTERY, check_eligibility=False)
            p = float(result[0].score)
            rows.append(("nist-sp800-22", name, s, p, "PASSED" if p >= 0.01 else "FAILED"))
            print(f"  nist {name} seq {s}: p={p:.4f}", flush=True)
    return rows


def dieharder(path, psamples):
    rows = []
    for d in DIEHARDER_TESTS:
        args = ["dieharder", "-g", "201", "-f", path, "-d", str(d)]
        if psamples:
            args += ["-p", str(psamples)]
        done = subprocess.run(args, capture_output=True, text=True, timeout=1800)
        out = done.stdout
        rewound = re.search(r"was rewound (\d+) times", done.stdout + done.stderr)
        rewinds = int(rewound.group(1)) if rewound else 0
        for line in out.splitlines():
            f = [x.strip() for x in line.split("|")]
            if len(f) == 6 and re.fullmatch(r"[0-9.e+-]+", f[4] or "x"):
                result = f[5] if rewinds == 0 else f[5] + "-REWOUND"
                rows.append(("dieharder", f"{f[0]}(ntup={f[1]})", d, float(f[4]), result))
                print(f"  dieharder {f[0]} ntup {f[1]}: p={f[4]} {result}", flush=True)
    return rows


def main():
    args = sys.argv[1:]
    directory, out = args[0], args[1]
    sequences = int(args[args.index("--sequences") + 1]) if "--sequences" in args else 10
    psamples = int(args[args.index("--dieharder-psamples") + 1]) if "--dieharder-psamples" in args else 0
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["source", "suite", "test", "sample", "p_value", "result", "bytes"])
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".bin"):
                continue
            path = os.path.join(directory, name)
            source, size = name[:-4], os.path.getsize(path)
            print(f"{source}: {size} bytes", flush=True)
            for row in nist(path, sequences) + dieharder(path, psamples):
                w.writerow((source,) + row + (size,))
                f.flush()


if __name__ == "__main__":
    main()
