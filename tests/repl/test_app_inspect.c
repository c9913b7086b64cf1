/*
 * test_app_inspect.c — the inspector driven from the notebook's cells, without a
 * terminal (the text tables): the NaN breakpoint naming the op inside a module
 * that made the first NaN and what it received; scalars tracked per training
 * step (%inspect net --track loss, inspect(net, track=[...])).
 */
#include "test_util.h"
#include "repl/app.h"
#include "repl/bind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char out[65536], err[65536];
static size_t out_len, err_len;

static void collect_out(void *ud, const char *s, size_t n)
{
    (void)ud;
    if (out_len + n >= sizeof out) n = sizeof out - 1 - out_len;
    memcpy(out + out_len, s, n);
    out[out_len += n] = '\0';
}
static void collect_err(void *ud, const char *s, size_t n)
{
    (void)ud;
    if (err_len + n >= sizeof err) n = sizeof err - 1 - err_len;
    memcpy(err + err_len, s, n);
    err[err_len += n] = '\0';
}

static int setup(void **state)
{
    repl_bindings_install();
    repl_app_options opt = {.interactive = true, .record = false};
    repl_app *app = TU_OK(repl_app_new(&opt));
    app->out_write = collect_out;
    app->err_write = collect_err;
    *state = app;
    return 0;
}
static int teardown(void **state)
{
    repl_app_free(*state);
    return 0;
}

/* Runs a cell with fresh collectors; returns repl_app_run_cell's status. */
static int run(repl_app *app, const char *source)
{
    out_len = err_len = 0;
    out[0] = err[0] = '\0';
    return repl_app_run_cell(app, source, NULL);
}
static void ok(repl_app *app, const char *source)
{
    if (run(app, source) != 0) fail_msg("cell %s failed: %s", source, err);
}

/* A module whose forward takes the log of values some of which are negative:
   the breakpoint names log and the statistics of what it received. */
static void test_nan_origin_in_module(void **state)
{
    repl_app *app = *state;
    ok(app, "import torch\nimport torch.nn as nn\n"
            "class Net(nn.Module):\n"
            "    def forward(self, x):\n"
            "        h = x * 2 - 1\n"
            "        return torch.log(h) + 1\n"
            "net = Net()\n"
            "x = torch.tensor([[0.1, 0.8], [0.3, 0.9]])\n");
    ok(app, "%inspect net");
    ok(app, "%break nan");
    assert_int_equal(run(app, "y = net(x)"), -1);
    const char *want = "RuntimeError: NaN or Inf in the output of (root) (Net): log made the first NaN/Inf "
                       "(2 NaN of 4) from finite input: min -0.8, max 0.8, mean 0.05, 2 of 4 negative\n";
    if (!strstr(err, want)) fail_msg("error\n[%s]\nlacks\n[%s]", err, want);
    /* a NaN made inside but masked before the output is no origin; the input's own NaN is
       not either: the stop says it came in with the input */
    ok(app, "class Masked(nn.Module):\n"
            "    def forward(self, x):\n"
            "        return torch.where(x > 0.5, torch.log(x - 0.5), x)\n"
            "m = Masked()\n");
    ok(app, "%inspect m");
    ok(app, "%break nan");
    ok(app, "z = m(x)");
    assert_int_equal(run(app, "z = m(x * float('nan'))"), -1);
    if (!strstr(err, "RuntimeError: NaN or Inf in the output of (root) (Masked): carried in by its input (4 NaN of 4)\n"))
        fail_msg("error\n[%s]", err);
}

/* A forward that is finite everywhere but whose backward is not: sqrt at 0 has
   an infinite derivative. The breakpoint stops at the module's grad_input and
   names the backward node, what it received and what it saved. */
static void test_nan_origin_in_backward(void **state)
{
    repl_app *app = *state;
    ok(app, "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
            "class Net(nn.Module):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.lin = nn.Linear(2, 1)\n"
            "    def forward(self, x):\n"
            "        return self.lin(torch.sqrt(x))\n"
            "net = Net()\n"
            "with torch.no_grad():\n"
            "    net.lin.weight.fill_(0.5)\n"
            "x = torch.tensor([[0.0, 4.0]], requires_grad=True)\n");
    ok(app, "%inspect net");
    ok(app, "%break nan");
    ok(app, "y = net(x)");
    assert_int_equal(run(app, "y.sum().backward()"), -1);
    const char *want = "RuntimeError: NaN or Inf in the grad_input of (root) (Net): SqrtBackward0 (backward) made "
                       "the first NaN/Inf (1 Inf of 2) from finite gradient: min 0.5, max 0.5, mean 0.5, 0 of 2 negative; "
                       "saved from the forward: min 0, max 2, mean 1, 0 of 2 negative, 1 zero\n";
    if (!strstr(err, want)) fail_msg("error\n[%s]\nlacks\n[%s]", err, want);
    ok(app, "%break nan off");
}

/* %inspect net --track loss and inspect(net, track=[...]): the value after each
   training step (an optimizer step), as the loop itself saw it. */
static void test_track_scalars(void **state)
{
    repl_app *app = *state;
    ok(app, "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
            "net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))\n"
            "opt = torch.optim.SGD(net.parameters(), lr=0.05)\n"
            "x = torch.randn(32, 3)\ny = x.sum(1, keepdim=True)\nseen = []\n"
            "def train(n):\n"
            "    global loss, step_no\n"
            "    for i in range(n):\n"
            "        loss = ((net(x) - y) ** 2).mean()\n"
            "        opt.zero_grad()\n"
            "        loss.backward()\n"
            "        opt.step()\n"
            "        step_no = len(seen) + 1\n"
            "        seen.append(loss.item())\n");
    ok(app, "%inspect net --track loss");
    ok(app, "train(12)");
    ok(app, "inspect(net, track=['step_no', 'not_a_number'])");
    /* step_no is read at each step, before the loop sets it: the previous step's */
    ok(app, "train(5)");
    ok(app, "inspect(net)");
    char report[65536];
    snprintf(report, sizeof report, "%s", out);
    ok(app, "print(f'{seen[0]:.4g} {seen[-1]:.4g} {min(seen):.4g}')");
    char first[32], last[32], lo[32], want[256];
    assert_int_equal(sscanf(out, "%31s %31s %31s", first, last, lo), 3);
    snprintf(want, sizeof want, "%-24s %8d %12s %12s %12s\n", "loss", 17, first, last, lo);
    if (!strstr(report, want)) fail_msg("report\n%s\nlacks\n%s", report, want);
    snprintf(want, sizeof want, "%-24s %8d %12s %12s %12s\n", "step_no", 5, "12", "16", "12");
    if (!strstr(report, want)) fail_msg("report\n%s\nlacks\n%s", report, want);
    assert_non_null(strstr(report, "not_a_number                    0            -            -            -\n"));
    assert_int_equal(run(app, "inspect(net, track=3)"), -1);
    assert_non_null(strstr(err, "TypeError: inspect(): track must be a list of variable names"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_nan_origin_in_module, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nan_origin_in_backward, setup, teardown),
        cmocka_unit_test_setup_teardown(test_track_scalars, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
