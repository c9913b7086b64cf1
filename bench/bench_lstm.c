/*
 * bench_lstm.c — a recurrent training step through the module API:
 *   lstm_step_ms   forward and backward of nn.LSTM(256, 256) (one layer) over a
 *                  sequence of 32 steps, batch 32, float32: out, (h, c) =
 *                  lstm(x); out.mean().backward(), the gradients reset first.
 * Appended to the file bench_core started ($NNSCOPE_BENCH_FILE), where
 * bench/peer_torch.py finds it for lstm_step_ratio against the same step in
 * PyTorch. `bench_lstm --serve` times one round per request instead, for
 * peer_torch.py's paired rounds (see serve below).
 */
#include <stdio.h>
#include <string.h>

#include "nn.h"
#include "bench_util.h"

#define REPS 7
#define STEPS 3

static void *ok(void *p, const char *what)
{
    if (!p) bench_die(what);
    return p;
}

/* Milliseconds per step over a round of STEPS steps. */
static double round_ms(nn_module *lstm, nn_object *args)
{
    double t0 = bench_now_s();
    for (int s = 0; s < STEPS; s++) {
        nn_object *res = ok(nn_module_call(lstm, args, NULL), "forward");
        nn_tensor *out = NN_TENSOR(nn_tuple_get(res, 0));
        nn_tensor *loss = ok(nn_mean(out, 0, NULL, false), "mean");
        if (nn_module_zero_grad(lstm, true) < 0 || nn_backward(loss, NULL, false, false) < 0) bench_die("backward");
        NN_RELEASE(loss);
        NN_RELEASE(res);
    }
    return (bench_now_s() - t0) * 1e3 / STEPS;
}

int main(int argc, char **argv)
{
    bool serving = argc > 1 && strcmp(argv[1], "--serve") == 0;
    if (!serving) bench_open("bench_lstm", "a");
    nn_generator_seed(nn_default_generator(), 0);
    nn_module *lstm = ok(nn_rnn_new(NN_RNN_LSTM, 256, 256, 1, true, false, 0.0, false, NN_FLOAT32), "LSTM");
    nn_tensor *x = ok(nn_randn(3, (int64_t[]){32, 32, 256}, NN_FLOAT32), "randn");
    nn_object *args = ok(nn_tuple_pack(1, x), "args");
    if (serving) {
        /* `bench_lstm --serve`: each line "lstm" read runs one round of STEPS steps
           and answers milliseconds per step; another line answers nan */
        char line[64];
        while (fgets(line, sizeof line, stdin)) {
            printf("%.6g\n", strcmp(line, "lstm\n") == 0 ? round_ms(lstm, args) : NAN);
            fflush(stdout);
        }
    } else {
        double reps[REPS];
        for (int r = -1; r < REPS; r++) {
            double ms = round_ms(lstm, args);
            if (r >= 0) reps[r] = ms;
        }
        bench_report("lstm_step_ms", bench_median(reps, REPS));
        bench_close();
    }
    NN_RELEASE(args);
    NN_RELEASE(x);
    NN_RELEASE(lstm);
    return 0;
}
