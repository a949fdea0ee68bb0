#!/usr/bin/env bash
# pp-compare-schedules with its default options on the zero-bubble paper's
# twelve setups (Qi et al., ICLR 2024: Table 6 / arXiv Table 9 costs, M_B =
# 34h + 5as, M_W = 32h, s = 1024), at P M_B and 2P M_B per rank: auto's
# step makespan beside the paper's greedy scheduler's (ours, as
# bench/run.sh --paper prints it) and Table 5's bubble. Each setup is
# written as a pp.pipeline, so this runs the pass as a user would.
# About 30 s on one core. Usage: bench/paper-compare.sh [build dir]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-${PP_BUILD_DIR:-$root/build}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$build/bin/pp-opt" "$tmp" <<'PY'
import subprocess, sys
ppopt, tmp = sys.argv[1], sys.argv[2]
# model, P, M, T_F, T_B, T_W, T_comm, h, a, ZB-1p, ZB-2p (Table 5)
setups = [
    ("1.5B", 8, 24, 18.522, 18.086, 9.337, 0.601, 2304, 24, 0.1585, 0.0433),
    ("1.5B", 8, 32, 18.513, 18.086, 9.331, 0.626, 2304, 24, 0.1242, 0.0039),
    ("1.5B", 8, 64, 18.546, 18.097, 9.321, 0.762, 2304, 24, 0.0674, 0.0026),
    ("6.2B", 8, 24, 29.718, 29.444, 19.927, 0.527, 4096, 32, 0.1323, 0.0029),
    ("6.2B", 8, 32, 29.802, 29.428, 19.530, 0.577, 4096, 32, 0.1045, 0.0022),
    ("6.2B", 8, 64, 29.935, 29.621, 19.388, 0.535, 4096, 32, 0.0554, 0.0010),
    ("14.6B", 16, 48, 11.347, 11.248, 8.132, 0.377, 5120, 40, 0.1397, 0.0066),
    ("14.6B", 16, 64, 11.307, 11.254, 8.101, 0.379, 5120, 40, 0.1088, 0.0054),
    ("14.6B", 16, 128, 11.325, 11.308, 8.109, 0.378, 5120, 40, 0.0576, 0.0028),
    ("28.3B", 32, 96, 10.419, 10.207, 7.715, 0.408, 6144, 48, 0.1421, 0.0038),
    ("28.3B", 32, 128, 10.408, 10.204, 7.703, 0.408, 6144, 48, 0.1106, 0.0029),
    ("28.3B", 32, 256, 10.402, 10.248, 7.698, 0.460, 6144, 48, 0.0594, 0.0018),
]
print("| model | P | M | limit | auto step (us) | auto span bubble | Table 5 | 1f1b step (us) |")
print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
for name, p, m, f, b, w, comm, h, a, zb1, zb2 in setups:
    path = f"{tmp}/{name}-{m}.mlir"
    with open(path, "w") as out:
        out.write(f"pp.pipeline @zb ranks({p}) latency({comm}) activation_bytes(1024) {{\n")
        for s in range(p):
            out.write(f"  pp.stage {s} on rank {s} costs(forward = {f}, backward_input = {b}, "
                      f"backward_weight = {w}) memory(stash = {34 * h + 5 * a * 1024}, "
                      f"weight_stash = {32 * h})\n")
        out.write("}\n")
    for k, table in ((1, zb1), (2, zb2)):
        r = subprocess.run([ppopt, path, f"--pp-compare-schedules=num-microbatches={m} "
                            f"memory-limit={k * p}M_B", "-o", "/dev/null"],
                           capture_output=True, text=True, check=True)
        rows = {l.split("|")[1].strip(): l.split("|") for l in (r.stdout + r.stderr).splitlines()
                if l.startswith("| ")}
        auto, onef = rows["auto"], rows["1f1b"]
        print(f"| {name} | {p} | {m} | {k}P M_B | {auto[2].strip()} | {auto[4].strip()} | "
              f"{table} | {onef[2].strip()} |")
PY
