#!/usr/bin/python3
"""PyTorch's figures for the same work as bench/bench_core.c, one `name value`
line each, named with a `torch_` prefix, then the ratios of ours to PyTorch's:

  torch_small_add_us   torch.add of two 4x4 float32 tensors, called from Python
  torch_sgemm1024_ms   torch.mm of two 1024x1024 float32 matrices
  torch_gelu_1M_ms     torch.nn.functional.gelu over 1M float32
  gelu_1M_ratio        ours / PyTorch's (nan when ours fails)
  torch_add_1M_ms      torch.add of two 1M float32 tensors; add_1M_ratio ours / it
  torch_sum_1M_ms      torch.sum of a 1M float32 tensor; sum_1M_ratio ours / it
  torch_sin_1M_ms      torch.sin of a 1M float32 tensor; sin_1M_ratio ours / it
  torch_softmax_1M_ms  torch.softmax over the rows of a [1024, 1024] float32; softmax_1M_ratio ours / it
  torch_mlp_step_ms    bench_module.c's training step in PyTorch
  mlp_step_ratio       ours / PyTorch's
  torch_hook_overhead_ratio  PyTorch's step with the same hooks / without
  torch_conv_step_ms   bench_step.c's LeNet SGD step in PyTorch
  conv_step_ratio      ours / PyTorch's
  torch_lstm_step_ms   bench_lstm.c's LSTM(256, 256) forward + backward, sequence 32, batch 32
  lstm_step_ratio      ours / PyTorch's
  torch_conv3d_fwd_ms  bench_step.c's Conv3d(16, 32, 3, padding=1) forward over [4, 16, 16, 32, 32]
  conv3d_fwd_ratio     ours / PyTorch's
The five 1M ratios, mlp_step_ratio, conv_step_ratio and lstm_step_ratio come
from rounds of ours and PyTorch's alternating (see paired, mlp_steps and
paired_steps); without our programs' --serve (run by hand), a ratio divides the
figure our program wrote by PyTorch's median.

Our figures come from the file bench_core last wrote: $NNSCOPE_BENCH_FILE, by
default $TMPDIR/nnscope-bench-$UID.txt (TMPDIR defaulting to /tmp), so run
bench_core first (`make bench` does). Medians of several repetitions after
warm-up, timed with time.perf_counter_ns (CLOCK_MONOTONIC on Linux).
Run: /usr/bin/python3 bench/peer_torch.py   (Debian's python3-torch, 1.13)
"""
import math
import os
import statistics
import subprocess
import time

import torch

REPS = 9


def timed(fn, iters, reps=REPS, warmup=2):
    """Median seconds per call of fn over reps rounds of iters calls."""
    rounds = []
    for r in range(warmup + reps):
        t0 = time.perf_counter_ns()
        for _ in range(iters):
            fn()
        dt = (time.perf_counter_ns() - t0) * 1e-9 / iters
        if r >= warmup:
            rounds.append(dt)
    return statistics.median(rounds)


def ours():
    path = os.environ.get("NNSCOPE_BENCH_FILE") or os.path.join(
        os.environ.get("TMPDIR") or "/tmp", f"nnscope-bench-{os.getuid()}.txt")
    figures = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    figures[parts[0]] = float(parts[1])
    except OSError:
        print(f"# peer_torch: no figures of ours in {path}: run bench_core first")
    return figures


def main():
    torch.manual_seed(0)
    with torch.no_grad():
        a, b = torch.randn(4, 4), torch.randn(4, 4)
        small_add = timed(lambda: torch.add(a, b), 100000)
        print(f"torch_small_add_us {small_add * 1e6:.4g}")

        m1, m2 = torch.randn(1024, 1024), torch.randn(1024, 1024)
        sgemm = timed(lambda: torch.mm(m1, m2), 1, warmup=1)
        print(f"torch_sgemm1024_ms {sgemm * 1e3:.4g}")

        x, y, rows = torch.randn(1 << 20), torch.randn(1 << 20), torch.randn(1024, 1024)
        ops = [("gelu_1M", lambda: torch.nn.functional.gelu(x)), ("add_1M", lambda: torch.add(x, y)),
               ("sum_1M", lambda: torch.sum(x)), ("sin_1M", lambda: torch.sin(x)),
               ("softmax_1M", lambda: torch.softmax(rows, -1))]
        pairs = paired(ops)

    figures = ours()
    for name, fn in ops:
        if pairs:
            theirs, ratio, mine = pairs[name]
            print(f"torch_{name}_ms {theirs:.4g}")
            print(f"{name}_ratio {ratio:.4g}")
            print(f"# {name}: ours {mine:.4g} ms in the same rounds (median); {name}_ratio: fastest / fastest")
        else:
            with torch.no_grad():
                theirs = timed(fn, 10) * 1e3
            print(f"torch_{name}_ms {theirs:.4g}")
            print(f"{name}_ratio {figures.get(name + '_ms', math.nan) / theirs:.4g}")

    server = Server("NNSCOPE_BENCH_MODULE")
    plain, hook_ratio, paired_ratio = mlp_steps(server if server.ok else None)
    print(f"torch_mlp_step_ms {plain * 1e3:.4g}")
    if server.ok:
        server.close()
        print(f"mlp_step_ratio {paired_ratio:.4g}")
        print("# mlp_step_ratio: our fastest round / PyTorch's fastest plain round, the rounds alternating")
    else:
        print(f"mlp_step_ratio {figures.get('mlp_step_ms', math.nan) / (plain * 1e3):.4g}")
    print(f"torch_hook_overhead_ratio {hook_ratio:.4g}")

    for name, run, env in (("conv_step", conv_step, "NNSCOPE_BENCH_STEP"), ("lstm_step", lstm_step, "NNSCOPE_BENCH_LSTM"),
                           ("conv3d_fwd", conv3d_fwd, "NNSCOPE_BENCH_STEP")):
        server = Server(env)
        step, ratio = run(server if server.ok else None)
        print(f"torch_{name}_ms {step * 1e3:.4g}")
        if server.ok:
            server.close()
            print(f"{name}_ratio {ratio:.4g}")
            print(f"# {name}_ratio: our fastest round / PyTorch's fastest round, the rounds alternating")
        else:
            print(f"{name}_ratio {figures.get(name + '_ms', math.nan) / (step * 1e3):.4g}")


def paired_steps(step, iters, server, name, reps, warmup):
    """PyTorch's median seconds per call of step over reps rounds of iters calls
    (after warmup rounds), and, with server, our fastest round of `name` over
    PyTorch's fastest round, a round of ours before each of PyTorch's, with
    SPIN_S pauses around ours (see mlp_steps); else (median, nan)."""
    theirs, mine = [], []
    for r in range(warmup + reps):
        a = math.nan
        if server:
            time.sleep(SPIN_S)
            a = server.round(name)
            time.sleep(SPIN_S)
        t = timed(step, iters, reps=1, warmup=0)
        if r >= warmup:
            theirs.append(t)
            mine.append(a)
    ratio = min(mine) / (min(theirs) * 1e3) if server else math.nan
    return statistics.median(theirs), ratio


def lstm_step(server=None):
    """Seconds per forward + backward of bench_lstm.c's nn.LSTM(256, 256) over a
    [32, 32, 256] float32 sequence (median), and with server (bench_lstm --serve)
    our fastest round over PyTorch's, the rounds alternating (paired_steps)."""
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(256, 256)
    x = torch.randn(32, 32, 256)

    def step():
        out, _ = lstm(x)
        lstm.zero_grad(set_to_none=True)
        out.mean().backward()

    return paired_steps(step, 3, server, "lstm", reps=11, warmup=1)


def conv3d_fwd(server=None):
    """Seconds per forward of bench_step.c's nn.Conv3d(16, 32, 3, padding=1) over a
    [4, 16, 16, 32, 32] float32 input under no_grad (median; PyTorch takes oneDNN's
    direct convolution), and with server (bench_step --serve) our fastest round
    over PyTorch's (paired_steps)."""
    torch.manual_seed(0)
    conv = torch.nn.Conv3d(16, 32, 3, padding=1)
    x = torch.randn(4, 16, 16, 32, 32)

    def fwd():
        with torch.no_grad():
            conv(x)

    return paired_steps(fwd, 2, server, "conv3d", reps=9, warmup=1)


def conv_step(server=None):
    """Seconds per SGD step of bench_step.c's LeNet (convolutions and 2x2 max
    pooling), batch 32, 3x32x32 (median), and with server (bench_step --serve)
    our fastest round over PyTorch's, the rounds alternating (paired_steps)."""
    nn = torch.nn
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                        nn.Linear(84, 10))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    x, target = torch.randn(32, 3, 32, 32), torch.randint(0, 10, (32,))

    def step():
        loss = nn.functional.cross_entropy(net(x), target)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    return paired_steps(step, 10, server, "conv", reps=15, warmup=2)


PAIRS = 21
SPIN_S = 0.15


class Server:
    """One of our bench programs run with --serve (named by the environment
    variable env, which `make bench` sets): round(name) has it time one round of
    work `name` and returns its milliseconds per call."""

    def __init__(self, env):
        program = os.environ.get(env)
        self.ok = bool(program) and os.access(program, os.X_OK)
        if not self.ok:
            print(f"# peer_torch: no ${env}: its ratios from our programs' own figures")
            return
        self.proc = subprocess.Popen([program, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def round(self, name):
        self.proc.stdin.write(name + "\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def paired(ops):
    """Rounds of 10 calls of each PyTorch op and of ours, alternating (ours from
    `bench_core --serve`, named by $NNSCOPE_BENCH_CORE, which `make bench` sets), so
    that both sides are measured in the same seconds of the shared machine; which
    side goes first alternates too. A round is under a millisecond, so one
    preemption by another process doubles it: the ratio is the fastest of our
    rounds over the fastest of PyTorch's (as bench_module's overhead ratios), which
    other load can only slow down. Returns {name: (PyTorch's median ms per call, that
    ratio, our median ms)} after two warm-up pairs, or None without the program (then
    the ratios divide the figures bench_core wrote)."""
    server = Server("NNSCOPE_BENCH_CORE")
    if not server.ok:
        return None
    ours_round = server.round

    results = {}
    for name, fn in ops:
        op = name.rsplit("_", 1)[0]
        theirs, mine = [], []
        for r in range(2 + PAIRS):
            if r % 2:
                a = ours_round(op)
                t = timed(fn, 10, reps=1, warmup=0) * 1e3
            else:
                t = timed(fn, 10, reps=1, warmup=0) * 1e3
                a = ours_round(op)
            if r >= 2:
                theirs.append(t)
                mine.append(a)
        nan = any(math.isnan(v) for v in mine)
        results[name] = (statistics.median(theirs), math.nan if nan else min(mine) / min(theirs),
                         math.nan if nan else statistics.median(mine))
    server.close()
    return results


def mlp_steps(server=None):
    """Seconds per plain training step of bench_module.c's MLP (median), the
    fastest hooked round over the fastest plain round, as bench_module.c, and with
    server (bench_module --serve) our fastest plain round over PyTorch's, the
    rounds alternating (else nan)."""
    nn = torch.nn
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.GELU(), nn.Linear(512, 10))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    x, target = torch.randn(64, 784), torch.randn(64, 10)

    def step():
        loss = nn.functional.mse_loss(net(x), target)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    def add_hooks():
        return [h for m in net.modules()
                for h in (m.register_forward_hook(stats), m.register_full_backward_hook(grad_norm))]

    def stats(module, args, out):
        out.mean()
        out.std()

    def grad_norm(module, grad_input, grad_output):
        if grad_output[0] is not None:
            grad_output[0].norm()

    # plain and hooked rounds alternate, as in bench_module.c; with `server`, a
    # round of our plain steps goes before each plain one, and the ratio is our
    # fastest round over PyTorch's fastest plain round. Pauses around ours: after
    # a product, each OpenBLAS worker spins (sched_yield) for 2^28
    # cycles, about 0.1 s here, before it sleeps, so one process's workers would
    # take cores from the other's round; a pause of SPIN_S lets them sleep first
    plains, hookeds, mine = [], [], []
    for r in range(REPS + 1):
        a = math.nan
        if server:
            time.sleep(SPIN_S)
            a = server.round("mlp")
            time.sleep(SPIN_S)
        p = timed(step, 10, reps=1, warmup=0)
        handles = add_hooks()
        h = timed(step, 10, reps=1, warmup=0)
        for handle in handles:
            handle.remove()
        if r:
            plains.append(p)
            hookeds.append(h)
            mine.append(a)
    ratio = min(mine) / (min(plains) * 1e3) if server else math.nan
    return statistics.median(plains), min(hookeds) / min(plains), ratio


if __name__ == "__main__":
    main()
