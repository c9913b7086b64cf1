#!/bin/sh
# inspect_flags.sh — the inspector tells the truth about a training run (tmux,
# 200x60): the title counts optimizer steps; a 10-layer Tanh MLP with too small
# weights is flagged vanishing at its first layers (each flag with its numbers)
# and not at its last; '[' goes back by training step, and at the oldest step
# kept (step 1 here) the problems are still those of that step; a converged
# model gets no flag; the NaN breakpoint says when a NaN was carried into the
# module that stopped, and which op made it from what input.
# Usage: sh tests/interactive/inspect_flags.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
tm resize-window -t "nb$SESSION" -x 200 -y 60
run() { nb_type "$1"; nb_keys Enter; }
visible() { tm capture-pane -p -t "nb$SESSION" | sed 's/[[:space:]]*$//'; }
shows() { visible | grep -qF -- "$1"; }
run "import torch; import torch.nn as nn; torch.manual_seed(0)"
run "net = nn.Sequential(*[nn.Sequential(nn.Linear(16, 16), nn.Tanh()) for _ in range(10)], nn.Linear(16, 1))"
run "for p in net.parameters(): nn.init.normal_(p, std=0.02)"
nb_keys Enter # an empty line ends the block
run "opt = torch.optim.SGD(net.parameters(), lr=0.01); x = torch.randn(32, 16); t = torch.randn(32, 1)"
run "%inspect net"
nb_wait "nnscope inspector · Sequential"
nb_keys :
run "for i in range(40): opt.zero_grad(); loss = (net(x) - t).pow(2).mean(); loss.backward(); opt.step()"
nb_wait " · step 40 · "
nb_keys Escape
# the first layers' gradients vanish against the last layer's, the last ones do not
nb_wait "vanishing: 0.0 (Linear) grad_output norm "
shows "x per layer over 10 layers)" || fail "the vanishing flag does not say why"
if shows "vanishing: 10 (Linear)" || shows "vanishing: 9.0 (Linear)"; then fail "the last layers are flagged"; fi
# one training step back, then back to the oldest kept: the problems of that step
nb_keys "["
nb_wait "showing step 39 of 40"
i=0
while [ $i -lt 45 ]; do nb_keys "["; i=$((i + 1)); done
nb_wait "no earlier training step is kept"
nb_wait "showing step 1 of 40"
shows "vanishing: 0.0 (Linear) grad_output norm " || fail "step 1 shows no vanishing flag"
nb_keys q
nb_wait "In ["

# a converged model: small gradients everywhere, and no flag
run "m = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))"
run "o = torch.optim.Adam(m.parameters(), lr=0.01); xs = torch.randn(64, 8); ts = xs.sum(1, keepdim=True)"
run "for i in range(300): o.zero_grad(); l = (m(xs) - ts).pow(2).mean(); l.backward(); o.step()"
nb_keys Enter
run "%inspect m"
nb_wait "Sequential · 6 modules"
nb_keys :
run "for i in range(5): o.zero_grad(); l = (m(xs) - ts).pow(2).mean(); l.backward(); o.step()"
nb_wait " · step 5 · "
nb_wait "Problems (0)"
nb_keys Escape q
nb_wait "In ["

# a NaN made by log between two modules: the module that stops says it came in
run "class Net(nn.Module):"
run "def __init__(self): super().__init__(); self.fc = nn.Linear(4, 4); self.out = nn.Linear(4, 1)"
run "def forward(self, x): return self.out(torch.log(self.fc(x)))"
nb_keys Enter Enter
run "bad = Net(); xb = torch.randn(8, 4)"
run "%break nan bad"
run "%inspect bad"
nb_wait "Net · 3 modules"
nb_keys :
run "y = bad(xb)"
nb_wait "stopped by the NaN/Inf breakpoint at out"
joined() { visible | tr '\n' ' ' | tr -s ' ' | grep -qF "$1"; }
nb_poll 10 joined "NaN or Inf in the output of out (Linear): carried in by its input (" ||
    fail "the stop does not say the NaN came in with the input"
nb_poll 10 joined "log made the first NaN/Inf" || fail "the stop does not name log"
nb_poll 10 joined "from finite input: min -" || fail "the stop does not give log's input"
nb_keys Escape q
nb_wait "In ["
nb_finish
echo "inspect_flags.sh: ok"
