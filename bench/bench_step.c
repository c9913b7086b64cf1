/*
 * bench_step.c — a convolutional training step through the module API:
 *   conv_step_ms   one SGD step (forward, cross-entropy, backward, step) of
 *                  LeNet, batch 32, 3x32x32 float32 input: Conv2d(3,6,5),
 *                  ReLU, MaxPool2d(2), Conv2d(6,16,5), ReLU, MaxPool2d(2),
 *                  Flatten, Linear(400,120), ReLU, Linear(120,84), ReLU,
 *                  Linear(84,10).
 *   conv3d_fwd_ms  the forward of Conv3d(16, 32, 3, padding=1) over a
 *                  [4, 16, 16, 32, 32] float32 input, no autograd (vol2col and
 *                  one GEMM a block of output depths: core/cpu/conv3d.c).
 * Appended to the file bench_core started ($NNSCOPE_BENCH_FILE), where
 * bench/peer_torch.py finds it for conv_step_ratio against the same model in
 * PyTorch. `bench_step --serve` times one round per request instead, for
 * peer_torch.py's paired rounds (see serve below).
 */
#include <stdio.h>
#include <string.h>

#include "nn.h"
#include "nn_conv3d.h"
#include "bench_util.h"

#define REPS 9
#define STEPS 10

static void *ok(void *p, const char *what)
{
    if (!p) bench_die(what);
    return p;
}

static nn_module *conv(int64_t in, int64_t out)
{
    return ok(nn_conv2d_new(in, out, (int64_t[]){5, 5}, (int64_t[]){1, 1}, (int64_t[]){0, 0}, (int64_t[]){1, 1}, 1,
                            true, NN_FLOAT32),
              "Conv2d");
}

/* MaxPool2d(2): kernel 2, stride 2, as torch.nn.MaxPool2d(2) sets its attributes */
static nn_module *max_pool2(void)
{
    static const char *const names[] = {"kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode"};
    nn_object *v[6] = {nn_int_new(2), nn_int_new(2), nn_int_new(0), nn_int_new(1), nn_bool_new(false),
                       nn_bool_new(false)};
    nn_module *m = nn_pool_module_new(&nn_max_pool2d_class, 6, names, v);
    for (int i = 0; i < 6; i++) NN_RELEASE(v[i]);
    return ok(m, "MaxPool2d");
}

/* The model, its optimizer and the batch, from seed 0. */
typedef struct lenet {
    nn_module *net;
    nn_object *params;
    nn_optimizer *opt;
    nn_tensor *x, *target;
} lenet;

static lenet lenet_new(void)
{
    nn_generator_seed(nn_default_generator(), 0);
    nn_module *layers[] = {
        conv(3, 6), ok(nn_relu_new(false), "ReLU"), max_pool2(), conv(6, 16), ok(nn_relu_new(false), "ReLU"), max_pool2(),
        ok(nn_flatten_new(1, -1), "Flatten"), ok(nn_linear_new(400, 120, true, NN_FLOAT32), "Linear"),
        ok(nn_relu_new(false), "ReLU"), ok(nn_linear_new(120, 84, true, NN_FLOAT32), "Linear"),
        ok(nn_relu_new(false), "ReLU"), ok(nn_linear_new(84, 10, true, NN_FLOAT32), "Linear"),
    };
    size_t n_layers = sizeof layers / sizeof *layers;
    lenet m = {.net = ok(nn_sequential_new(n_layers, layers), "Sequential")};
    for (size_t i = 0; i < n_layers; i++) NN_RELEASE(layers[i]);
    m.params = ok(nn_module_parameters(m.net, true), "parameters");
    nn_tensor *p[16];
    size_t n = nn_list_len(m.params);
    for (size_t i = 0; i < n; i++) p[i] = NN_TENSOR(nn_list_get(m.params, i));
    nn_sgd_options o;
    nn_sgd_options_default(&o);
    o.lr = 0.01;
    m.opt = ok(nn_sgd_new(p, n, &o), "SGD");
    m.x = ok(nn_randn(4, (int64_t[]){32, 3, 32, 32}, NN_FLOAT32), "randn");
    m.target = ok(nn_randint(0, 10, 1, (int64_t[]){32}, NN_INT64), "randint");
    return m;
}

static void lenet_free(lenet *m)
{
    NN_RELEASE(m->x);
    NN_RELEASE(m->target);
    NN_RELEASE(m->opt);
    NN_RELEASE(m->params);
    NN_RELEASE(m->net);
}

/* Milliseconds per step over a round of STEPS steps. */
static double round_ms(lenet *m)
{
    double t0 = bench_now_s();
    for (int s = 0; s < STEPS; s++) {
        nn_tensor *y = ok(nn_module_call1(m->net, m->x), "forward");
        nn_tensor *loss = ok(nn_cross_entropy(y, m->target, NN_REDUCTION_MEAN, -100, 0.0), "loss");
        if (nn_optimizer_zero_grad(m->opt, true) < 0 || nn_backward(loss, NULL, false, false) < 0 ||
            nn_optimizer_step(m->opt) < 0)
            bench_die("step");
        NN_RELEASE(y);
        NN_RELEASE(loss);
    }
    return (bench_now_s() - t0) * 1e3 / STEPS;
}

/* The conv3d layer's input, weight and bias, from seed 0. */
typedef struct conv3d_case {
    nn_tensor *x, *w, *b;
} conv3d_case;

#define CONV3D_CALLS 2

static conv3d_case conv3d_new(void)
{
    nn_generator_seed(nn_default_generator(), 0);
    conv3d_case c = {ok(nn_randn(5, (int64_t[]){4, 16, 16, 32, 32}, NN_FLOAT32), "randn"),
                     ok(nn_randn(5, (int64_t[]){32, 16, 3, 3, 3}, NN_FLOAT32), "randn"),
                     ok(nn_randn(1, (int64_t[]){32}, NN_FLOAT32), "randn")};
    return c;
}

/* Milliseconds per forward over a round of CONV3D_CALLS, without autograd. */
static double conv3d_round_ms(conv3d_case *c)
{
    bool grad = nn_grad_enabled();
    nn_set_grad_enabled(false);
    double t0 = bench_now_s();
    for (int i = 0; i < CONV3D_CALLS; i++) {
        nn_tensor *y = ok(nn_conv3d(c->x, c->w, c->b, (int64_t[]){1, 1, 1}, (int64_t[]){1, 1, 1}, (int64_t[]){1, 1, 1}, 1),
                          "conv3d");
        NN_RELEASE(y);
    }
    double ms = (bench_now_s() - t0) * 1e3 / CONV3D_CALLS;
    nn_set_grad_enabled(grad);
    return ms;
}

static void conv3d_free(conv3d_case *c)
{
    NN_RELEASE(c->x);
    NN_RELEASE(c->w);
    NN_RELEASE(c->b);
}

/* `bench_step --serve`: each line "conv" read runs one round of STEPS steps and
   answers milliseconds per step, "conv3d" a round of CONV3D_CALLS forwards of the
   conv3d layer; another line answers nan. Ends at end of input. */
static int serve(void)
{
    lenet m = lenet_new();
    conv3d_case c = conv3d_new();
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        double ms = strcmp(line, "conv\n") == 0 ? round_ms(&m) : strcmp(line, "conv3d\n") == 0 ? conv3d_round_ms(&c) : NAN;
        printf("%.6g\n", ms);
        fflush(stdout);
    }
    conv3d_free(&c);
    lenet_free(&m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--serve") == 0) return serve();
    bench_open("bench_step", "a");
    lenet m = lenet_new();
    double reps[REPS];
    for (int r = -2; r < REPS; r++) {
        double ms = round_ms(&m);
        if (r >= 0) reps[r] = ms;
    }
    bench_report("conv_step_ms", bench_median(reps, REPS));
    lenet_free(&m);
    conv3d_case c = conv3d_new();
    for (int r = -1; r < REPS; r++) {
        double ms = conv3d_round_ms(&c);
        if (r >= 0) reps[r] = ms;
    }
    bench_report("conv3d_fwd_ms", bench_median(reps, REPS));
    conv3d_free(&c);
    bench_close();
    return 0;
}
