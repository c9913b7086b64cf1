/*
 * bench_step.c — a convolutional training step through the module API:
 *   conv_step_ms   one SGD step (forward, cross-entropy, backward, step) of
 *                  LeNet, batch 32, 3x32x32 float32 input: Conv2d(3,6,5),
 *                  ReLU, MaxPool2d(2), Conv2d(6,16,5), ReLU, MaxPool2d(2),
 *                  Flatten, Linear(400,120), ReLU, Linear(120,84), ReLU,
 *                  Linear(84,10).
 * Appended to the file bench_core started ($NNSCOPE_BENCH_FILE), where
 * bench/peer_torch.py finds it for conv_step_ratio against the same model in
 * PyTorch.
 */
#include <stdio.h>

#include "nn.h"
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

int main(void)
{
    bench_open("bench_step", "a");
    nn_generator_seed(nn_default_generator(), 0);
    nn_module *layers[] = {
        conv(3, 6), ok(nn_relu_new(false), "ReLU"), max_pool2(), conv(6, 16), ok(nn_relu_new(false), "ReLU"), max_pool2(),
        ok(nn_flatten_new(1, -1), "Flatten"), ok(nn_linear_new(400, 120, true, NN_FLOAT32), "Linear"),
        ok(nn_relu_new(false), "ReLU"), ok(nn_linear_new(120, 84, true, NN_FLOAT32), "Linear"),
        ok(nn_relu_new(false), "ReLU"), ok(nn_linear_new(84, 10, true, NN_FLOAT32), "Linear"),
    };
    size_t n_layers = sizeof layers / sizeof *layers;
    nn_module *net = ok(nn_sequential_new(n_layers, layers), "Sequential");
    for (size_t i = 0; i < n_layers; i++) NN_RELEASE(layers[i]);
    nn_object *params = ok(nn_module_parameters(net, true), "parameters");
    nn_tensor *p[16];
    size_t n = nn_list_len(params);
    for (size_t i = 0; i < n; i++) p[i] = NN_TENSOR(nn_list_get(params, i));
    nn_sgd_options o;
    nn_sgd_options_default(&o);
    o.lr = 0.01;
    nn_optimizer *opt = ok(nn_sgd_new(p, n, &o), "SGD");
    nn_tensor *x = ok(nn_randn(4, (int64_t[]){32, 3, 32, 32}, NN_FLOAT32), "randn");
    nn_tensor *target = ok(nn_randint(0, 10, 1, (int64_t[]){32}, NN_INT64), "randint");

    double reps[REPS];
    for (int r = -2; r < REPS; r++) {
        double t0 = bench_now_s();
        for (int s = 0; s < STEPS; s++) {
            nn_tensor *y = ok(nn_module_call1(net, x), "forward");
            nn_tensor *loss = ok(nn_cross_entropy(y, target, NN_REDUCTION_MEAN, -100, 0.0), "loss");
            if (nn_optimizer_zero_grad(opt, true) < 0 || nn_backward(loss, NULL, false, false) < 0 ||
                nn_optimizer_step(opt) < 0)
                bench_die("step");
            NN_RELEASE(y);
            NN_RELEASE(loss);
        }
        if (r >= 0) reps[r] = (bench_now_s() - t0) * 1e3 / STEPS;
    }
    bench_report("conv_step_ms", bench_median(reps, REPS));
    NN_RELEASE(x);
    NN_RELEASE(target);
    NN_RELEASE(opt);
    NN_RELEASE(params);
    NN_RELEASE(net);
    bench_close();
    return 0;
}
