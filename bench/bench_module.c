/*
 * bench_module.c — a training step through the module API:
 *   mlp_step_ms          Sequential(Linear(784,512), ReLU(), Linear(512,512), GELU(),
 *                        Linear(512,10)), batch 64, MSELoss, forward + backward +
 *                        SGD step, float32
 *   mlp_hooked_step_ms   the same with a forward hook (mean and std of the output)
 *                        and a full backward hook (norm of grad_output) on every module
 *   hook_overhead_ratio  fastest hooked round / fastest plain round, the two measured
 *                        alternately
 *   mlp_inspected_step_ms     the same step on a twin of the model with the inspector
 *                             attached for the whole run (insp_attach) and its view
 *                             redrawn on a 120x40 virtual screen (insp_view_draw, as the
 *                             ncurses view redraws) whenever its 30 Hz throttle says a
 *                             live view would
 *   inspector_overhead_ratio  fastest inspected round / fastest plain round
 *   wide_step_ms              a step of a wide model: Sequential of 4 x
 *                             (Linear(2048, 2048), ReLU()), batch 128, MSELoss, SGD
 *   inspector_overhead_big_ratio  fastest inspected round / fastest plain round of it
 * The view redraws cycle through its modes (everything, then the whole-model views:
 * gradient flow, layer statistics, update ratios, the tracked loss), so that each
 * view's drawing is in the figure.
 * Figures are appended to the file bench_core started ($NNSCOPE_BENCH_FILE), where
 * bench/peer_torch.py finds them for the ratios against PyTorch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nn.h"
#include "../inspector/insp.h"
#include "bench_util.h"

/* rounds of each kind: the overhead ratios take the fastest, and on a shared
   machine more rounds give each kind more chances of a quiet one */
#define REPS 41
#define STEPS 10

static void *ok(void *p, const char *what)
{
    if (!p) bench_die(what);
    return p;
}

/* The hooks: what the inspector computes per module. */
static nn_object *stats_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    nn_object *out = nn_tuple_get(args, 2);
    if (nn_is_tensor(out)) {
        nn_tensor *m = nn_mean(NN_TENSOR(out), 0, NULL, false), *s = nn_std(NN_TENSOR(out), 0, NULL, true, false);
        if (!m || !s) bench_die("forward hook");
        NN_RELEASE(m);
        NN_RELEASE(s);
    }
    return nn_retain(nn_none());
}

static nn_object *grad_norm_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)kwargs;
    nn_object *go = nn_tuple_get(args, 2);
    nn_object *g = nn_tuple_len(go) ? nn_tuple_get(go, 0) : NULL;
    if (g && nn_is_tensor(g)) {
        nn_tensor *n = nn_norm(NN_TENSOR(g), 2, 0, NULL, false);
        if (!n) bench_die("backward hook");
        NN_RELEASE(n);
    }
    return nn_retain(nn_none());
}

/* What a live inspector view does after each step: redraw when the throttle lets it
   (tui.c then copies the screen to the terminal, which is not measured here). The
   throttle runs on the time spent in inspected rounds only, as if they were one
   statement running: the plain and hooked rounds between them would otherwise let
   every inspected round start with a redraw, about twice the rate a view makes. */
typedef struct live_view {
    insp_session *session;
    insp_view *view;
    insp_screen screen;
    insp_throttle throttle;
    double paused;     /* seconds spent outside inspected rounds, left out of the throttle's clock */
    double paused_at;  /* when the last inspected round ended, or 0 */
    int redraws;
} live_view;

static void live_view_resume(live_view *v)
{
    if (v->paused_at > 0) v->paused += bench_now_s() - v->paused_at;
}

static void live_view_pause(live_view *v) { v->paused_at = bench_now_s(); }

static void live_view_step(live_view *v)
{
    if (!insp_throttle_due(&v->throttle, bench_now_s() - v->paused)) return;
    /* the next mode: flow, layers, updates, scalars, everything, ... */
    static const char cycle[] = "fluss";
    insp_view_key(v->view, cycle[v->redraws % 5]);
    if (insp_view_draw(v->view, &v->screen) < 0) bench_die("insp_view_draw");
    v->redraws++;
}

/* The tracked loss of the inspected rounds (the scalars view's curve). */
static double last_loss;
static int loss_value(void *ud, const char *name, double *value)
{
    (void)ud;
    (void)name;
    *value = last_loss;
    return 0;
}

/* Milliseconds per training step over `steps` steps; view: NULL, or the inspector
   view to redraw, live while the steps run (as the ncurses view runs a statement). */
static double steps_ms(nn_module *net, nn_optimizer *opt, nn_tensor *x, nn_tensor *target, live_view *view, int steps)
{
    double t0 = bench_now_s();
    if (view) {
        live_view_resume(view);
        insp_set_live(view->session, true);
    }
    for (int s = 0; s < steps; s++) {
        nn_tensor *y = ok(nn_module_call1(net, x), "forward");
        nn_tensor *loss = ok(nn_mse_loss(y, target, NN_REDUCTION_MEAN), "loss");
        if (nn_optimizer_zero_grad(opt, true) < 0 || nn_backward(loss, NULL, false, false) < 0 ||
            nn_optimizer_step(opt) < 0)
            bench_die("step");
        if (view) nn_to_doubles(loss, &last_loss);
        NN_RELEASE(y);
        NN_RELEASE(loss);
        if (view) live_view_step(view);
    }
    if (view) {
        insp_set_live(view->session, false);
        live_view_pause(view);
    }
    return (bench_now_s() - t0) * 1e3 / steps;
}

/* Registers the two hooks on every module; returns the list of handles. */
static nn_object *add_hooks(nn_module *net, nn_object *fwd, nn_object *bwd)
{
    nn_object *mods = ok(nn_module_modules(net), "modules");
    nn_object *handles = ok(nn_list_new(0), "list");
    for (size_t i = 0; i < nn_list_len(mods); i++) {
        nn_module *m = NN_MODULE(nn_list_get(mods, i));
        nn_object *h1 = ok(nn_module_register_hook(m, NN_HOOK_FORWARD, fwd, (nn_hook_options){0}), "register");
        nn_object *h2 = ok(nn_module_register_hook(m, NN_HOOK_FULL_BACKWARD, bwd, (nn_hook_options){0}), "register");
        nn_list_append(handles, h1);
        nn_list_append(handles, h2);
        NN_RELEASE(h1);
        NN_RELEASE(h2);
    }
    NN_RELEASE(mods);
    return handles;
}

static void remove_hooks(nn_object *handles)
{
    for (size_t i = 0; i < nn_list_len(handles); i++) nn_hook_handle_remove(nn_list_get(handles, i));
    NN_RELEASE(handles);
}

/* The benchmark's MLP and its SGD optimizer, initialised from seed. */
typedef struct mlp {
    nn_module *net;
    nn_object *params;
    nn_optimizer *opt;
} mlp;

static mlp mlp_new(uint64_t seed)
{
    nn_generator_seed(nn_default_generator(), seed);
    nn_module *layers[5] = {
        ok(nn_linear_new(784, 512, true, NN_FLOAT32), "Linear"), ok(nn_relu_new(false), "ReLU"),
        ok(nn_linear_new(512, 512, true, NN_FLOAT32), "Linear"), ok(nn_gelu_new("none"), "GELU"),
        ok(nn_linear_new(512, 10, true, NN_FLOAT32), "Linear"),
    };
    mlp m = {.net = ok(nn_sequential_new(5, layers), "Sequential")};
    for (int i = 0; i < 5; i++) NN_RELEASE(layers[i]);
    m.params = ok(nn_module_parameters(m.net, true), "parameters");
    size_t n = nn_list_len(m.params);
    nn_tensor *p[16];
    for (size_t i = 0; i < n; i++) p[i] = NN_TENSOR(nn_list_get(m.params, i));
    nn_sgd_options o;
    nn_sgd_options_default(&o);
    o.lr = 0.01;
    m.opt = ok(nn_sgd_new(p, n, &o), "SGD");
    return m;
}

static void mlp_free(mlp *m)
{
    NN_RELEASE(m->opt);
    NN_RELEASE(m->params);
    NN_RELEASE(m->net);
}

/* The wide model: 4 x (Linear(2048, 2048), ReLU()), SGD lr 0.01. */
static mlp wide_new(uint64_t seed)
{
    nn_generator_seed(nn_default_generator(), seed);
    nn_module *layers[8];
    for (int i = 0; i < 8; i++)
        layers[i] = i % 2 ? ok(nn_relu_new(false), "ReLU") : ok(nn_linear_new(2048, 2048, true, NN_FLOAT32), "Linear");
    mlp m = {.net = ok(nn_sequential_new(8, layers), "Sequential")};
    for (int i = 0; i < 8; i++) NN_RELEASE(layers[i]);
    m.params = ok(nn_module_parameters(m.net, true), "parameters");
    nn_tensor *p[8];
    for (size_t i = 0; i < nn_list_len(m.params); i++) p[i] = NN_TENSOR(nn_list_get(m.params, i));
    nn_sgd_options o;
    nn_sgd_options_default(&o);
    o.lr = 0.01;
    m.opt = ok(nn_sgd_new(p, nn_list_len(m.params), &o), "SGD");
    return m;
}

/* A live view on net: the inspector attached, the loss tracked, a 120x40 screen. */
static void live_view_open(live_view *view, nn_module *net)
{
    insp_throttle_init(&view->throttle, INSP_REDRAW_HZ);
    if (insp_attach(net, &view->session) < 0 || !(view->view = insp_view_new(view->session)) ||
        insp_view_select(view->view, "0") < 0 || insp_screen_init(&view->screen, 120, 40) < 0 ||
        insp_track(view->session, "loss") < 0)
        bench_die("inspector view");
    insp_set_scalar_source(view->session, loss_value, NULL);
}

static void live_view_close(live_view *view)
{
    insp_screen_free(&view->screen);
    insp_view_free(view->view);
    insp_session_free(view->session);
}

/* inspector_overhead_big_ratio: plain and inspected rounds of the wide model,
   alternating, BIG_REPS of BIG_STEPS steps each; the fastest of each kind. */
#define BIG_REPS 6
#define BIG_STEPS 2
static void wide_model_overhead(void)
{
    mlp plain = wide_new(1), twin = wide_new(1);
    nn_tensor *x = ok(nn_randn(2, (int64_t[]){128, 2048}, NN_FLOAT32), "randn");
    nn_tensor *target = ok(nn_randn(2, (int64_t[]){128, 2048}, NN_FLOAT32), "randn");
    live_view view = {0};
    live_view_open(&view, twin.net);
    double best_plain = INFINITY, best_inspected = INFINITY;
    for (int r = -1; r < BIG_REPS; r++) {
        double p = steps_ms(plain.net, plain.opt, x, target, NULL, BIG_STEPS);
        double i = steps_ms(twin.net, twin.opt, x, target, &view, BIG_STEPS);
        if (r < 0) continue; /* warm-up */
        best_plain = p < best_plain ? p : best_plain;
        best_inspected = i < best_inspected ? i : best_inspected;
    }
    bench_report("wide_step_ms", best_plain);
    bench_report("inspector_overhead_big_ratio", best_inspected / best_plain);
    printf("# inspector (wide model): %d redraws\n", view.redraws);
    live_view_close(&view);
    NN_RELEASE(x);
    NN_RELEASE(target);
    mlp_free(&plain);
    mlp_free(&twin);
}


/* `bench_module --serve`: for bench/peer_torch.py's paired rounds, as bench_core
   --serve. Each line "mlp" read runs one round of STEPS plain steps of the MLP
   (the model, input and target built as in main) and answers milliseconds per
   step; another line answers nan. Ends at end of input. */
static int serve(void)
{
    mlp net = mlp_new(0);
    nn_tensor *x = ok(nn_randn(2, (int64_t[]){64, 784}, NN_FLOAT32), "randn");
    nn_tensor *target = ok(nn_randn(2, (int64_t[]){64, 10}, NN_FLOAT32), "randn");
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        double ms = strcmp(line, "mlp\n") == 0 ? steps_ms(net.net, net.opt, x, target, NULL, STEPS) : NAN;
        printf("%.6g\n", ms);
        fflush(stdout);
    }
    NN_RELEASE(x);
    NN_RELEASE(target);
    mlp_free(&net);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--serve") == 0) return serve();
    bench_open("bench_module", "a");

    mlp plain_net = mlp_new(0);
    nn_tensor *x = ok(nn_randn(2, (int64_t[]){64, 784}, NN_FLOAT32), "randn");
    nn_tensor *target = ok(nn_randn(2, (int64_t[]){64, 10}, NN_FLOAT32), "randn");
    /* the inspected twin: the same model, with the inspector attached for the whole
       run as a live view keeps it (its rings full, its 30 Hz throttle running) */
    mlp twin = mlp_new(0);
    live_view view = {0};
    live_view_open(&view, twin.net);

    /* plain, hooked and inspected rounds alternate, so a change of load hits all alike */
    nn_object *fwd = ok(nn_cfunction_new("stats", stats_hook, NULL, NULL), "hook");
    nn_object *bwd = ok(nn_cfunction_new("grad_norm", grad_norm_hook, NULL, NULL), "hook");
    double plain[REPS], hooked[REPS], inspected[REPS], paired[REPS];
    for (int r = -1; r < REPS; r++) {
        double p = steps_ms(plain_net.net, plain_net.opt, x, target, NULL, STEPS);
        nn_object *handles = add_hooks(plain_net.net, fwd, bwd);
        double h = steps_ms(plain_net.net, plain_net.opt, x, target, NULL, STEPS);
        remove_hooks(handles);
        double i = steps_ms(twin.net, twin.opt, x, target, &view, STEPS);
        if (r < 0) continue; /* warm-up */
        plain[r] = p;
        hooked[r] = h;
        inspected[r] = i;
        paired[r] = i / p;
    }
    bench_sort(plain, REPS);
    bench_sort(hooked, REPS);
    bench_sort(inspected, REPS);
    bench_report("mlp_step_ms", plain[REPS / 2]);
    bench_report("mlp_hooked_step_ms", hooked[REPS / 2]);
    /* the fastest rounds: what the hooks cost when nothing else disturbs the
       run (the medians move by more than the hooks cost on a shared machine) */
    bench_report("hook_overhead_ratio", hooked[0] / plain[0]);
    bench_report("mlp_inspected_step_ms", inspected[REPS / 2]);
    bench_report("inspector_overhead_ratio", inspected[0] / plain[0]);
    printf("# inspector: %d redraws over %d inspected steps\n", view.redraws, (REPS + 1) * STEPS);
    /* a second look, steadier when the load changes during the run: each inspected
       round over the plain round just before it, the median of those */
    bench_sort(paired, REPS);
    printf("# inspector: median of inspected round / the plain round before it %.4g\n", paired[REPS / 2]);

    live_view_close(&view);
    NN_RELEASE(fwd); NN_RELEASE(bwd);
    NN_RELEASE(x); NN_RELEASE(target);
    mlp_free(&plain_net);
    mlp_free(&twin);
    wide_model_overhead();
    bench_close();
    return 0;
}
