#!/usr/bin/env python3
"""Peak memory of pbrain-quinto during a 5 s search under several `INFO max_memory` values.

Usage: scripts/measure_memory.py [--threads N] [ENGINE]
       (default: one thread, target/release/pbrain-quinto)

For each limit it starts the engine, sends START 15 / INFO max_memory / INFO thread_num N /
INFO timeout_turn 5000 / TURN 7,7, samples /proc/PID/status (VmRSS, VmHWM, VmSize) every 20 ms until the move
arrives, and prints the peaks. Exits non-zero if the peak resident or virtual size reaches
the limit. Linux only (reads /proc).
"""
import subprocess
import sys
import threading
import time

LIMITS_MIB = [350, 64, 16]


def status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "VmSize"):
                fields[key] = int(value.split()[0]) * 1024
    return fields


def measure(engine, limit, threads):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    replies = []
    reader = threading.Thread(target=lambda: replies.extend(proc.stdout), daemon=True)
    reader.start()
    for line in ["START 15", f"INFO max_memory {limit}", f"INFO thread_num {threads}",
                 "INFO timeout_turn 5000", "TURN 7,7"]:
        proc.stdin.write(line + "\n")
    proc.stdin.flush()
    peak = {"VmRSS": 0, "VmHWM": 0, "VmSize": 0}
    start = time.time()
    while len(replies) < 2 and time.time() - start < 10:
        try:
            for key, value in status(proc.pid).items():
                peak[key] = max(peak[key], value)
        except FileNotFoundError:
            break
        time.sleep(0.02)
    elapsed = time.time() - start
    proc.stdin.write("END\n")
    proc.stdin.flush()
    proc.wait(timeout=5)
    return peak, elapsed, [r.strip() for r in replies]


def main():
    args = sys.argv[1:]
    threads = 1
    if args[:1] == ["--threads"] and len(args) >= 2:
        threads = int(args[1])
        args = args[2:]
    engine = args[0] if args else "target/release/pbrain-quinto"
    print(f"{threads} search thread(s)")
    failed = False
    for mib in LIMITS_MIB:
        limit = mib << 20
        peak, elapsed, replies = measure(engine, limit, threads)
        mib_of = lambda b: b / (1 << 20)
        ok = peak["VmHWM"] < limit and peak["VmSize"] < limit
        failed |= not ok
        print(f"max_memory {mib:>3} MiB: peak resident {mib_of(peak['VmHWM']):6.1f} MiB, "
              f"peak virtual {mib_of(peak['VmSize']):6.1f} MiB, move after {elapsed:.2f} s "
              f"({' | '.join(replies)}) {'ok' if ok else 'OVER THE LIMIT'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
