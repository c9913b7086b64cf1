/*
 * test_parallel.c — core's parallel-for (core/parallel.c) and the kernels that
 * use it: every item runs exactly once in fixed chunks, nested and concurrent
 * calls run inline, the thread budget's errors, and results that are the same
 * bits whatever the thread count (elementwise ops, GELU and its backward, sum
 * and mean over a dim, softmax, log_softmax, layer_norm forward and backward, SGD and
 * Adam steps), after fork() too.
 */
#include "test_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <math.h>
#include <unistd.h>

#include "nn_parallel.h"

/* ------------------------------------------------------- the parallel-for */

typedef struct coverage {
    atomic_int *hits;      /* per item */
    atomic_int bad_chunks; /* chunks not on the grain's fixed boundaries */
    int64_t n, grain;
} coverage;

static void cover(void *vctx, int64_t begin, int64_t end)
{
    coverage *c = vctx;
    if (begin % c->grain || (end != c->n && end - begin != c->grain) || end > c->n) atomic_fetch_add(&c->bad_chunks, 1);
    for (int64_t i = begin; i < end; i++) atomic_fetch_add(&c->hits[i], 1);
}

static void test_every_item_once(void **state)
{
    const int64_t ns[] = {0, 1, 7, 1000, 32768, 32769, 100000, 1 << 20};
    const int64_t grains[] = {1, 1000, NN_GRAIN};
    int saved = nn_get_num_threads();
    for (int threads = 1; threads <= 4; threads++) {
        tu_check(nn_set_num_threads(threads));
        for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
            for (size_t b = 0; b < sizeof grains / sizeof *grains; b++) {
                if (grains[b] == 1 && ns[a] > 100000) continue; /* a million one-item chunks: slow for nothing */
                coverage c = {calloc((size_t)ns[a] + 1, sizeof(atomic_int)), 0, ns[a], grains[b]};
                nn_parallel_for(ns[a], grains[b], cover, &c);
                for (int64_t i = 0; i < ns[a]; i++) assert_int_equal(atomic_load(&c.hits[i]), 1);
                assert_int_equal(atomic_load(&c.bad_chunks), 0);
                free(c.hits);
            }
    }
    tu_check(nn_set_num_threads(saved));
}

/* A chunk that starts a parallel loop of its own: it runs inline, no deadlock. */
static void nested(void *vctx, int64_t begin, int64_t end)
{
    coverage *c = vctx;
    coverage inner = {calloc(100, sizeof(atomic_int)), 0, 100, 10};
    nn_parallel_for(100, 10, cover, &inner);
    for (int i = 0; i < 100; i++)
        if (atomic_load(&inner.hits[i]) != 1) atomic_fetch_add(&c->bad_chunks, 1);
    free(inner.hits);
    cover(vctx, begin, end);
}

static void test_nested_runs_inline(void **state)
{
    tu_check(nn_set_num_threads(3));
    coverage c = {calloc(1000, sizeof(atomic_int)), 0, 1000, 10};
    nn_parallel_for(1000, 10, nested, &c);
    assert_int_equal(atomic_load(&c.bad_chunks), 0);
    for (int i = 0; i < 1000; i++) assert_int_equal(atomic_load(&c.hits[i]), 1);
    free(c.hits);
}

/* Two threads of the program each running loops at once: the second runs inline. */
static void *loops(void *arg)
{
    coverage *c = arg;
    for (int r = 0; r < 50; r++) nn_parallel_for(c->n, c->grain, cover, c);
    return NULL;
}

static void test_concurrent_callers(void **state)
{
    tu_check(nn_set_num_threads(2));
    coverage a = {calloc(5000, sizeof(atomic_int)), 0, 5000, 100}, b = {calloc(5000, sizeof(atomic_int)), 0, 5000, 100};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, loops, &a), 0);
    loops(&b);
    pthread_join(th, NULL);
    for (int i = 0; i < 5000; i++) {
        assert_int_equal(atomic_load(&a.hits[i]), 50);
        assert_int_equal(atomic_load(&b.hits[i]), 50);
    }
    free(a.hits);
    free(b.hits);
}

/* Chunks that note how many run at once. */
static atomic_int running, most_running;

static void count_running(void *vctx, int64_t begin, int64_t end)
{
    int now = atomic_fetch_add(&running, 1) + 1, seen = atomic_load(&most_running);
    while (now > seen && !atomic_compare_exchange_weak(&most_running, &seen, now)) {
    }
    usleep(200); /* long enough for every thread allowed to join in */
    atomic_fetch_sub(&running, 1);
}

/* A smaller budget after a larger one: the workers already started beyond it stay out. */
static void test_budget_shrinks(void **state)
{
    int saved = nn_get_num_threads();
    tu_check(nn_set_num_threads(4));
    nn_parallel_for(64, 1, count_running, NULL); /* starts 3 workers */
    tu_check(nn_set_num_threads(2));
    atomic_store(&most_running, 0);
    for (int r = 0; r < 5; r++) nn_parallel_for(64, 1, count_running, NULL);
    assert_true(atomic_load(&most_running) <= 2);
    tu_check(nn_set_num_threads(1));
    atomic_store(&most_running, 0);
    nn_parallel_for(64, 1, count_running, NULL);
    assert_int_equal(atomic_load(&most_running), 1);
    tu_check(nn_set_num_threads(saved));
}

static void test_thread_budget(void **state)
{
    int saved = nn_get_num_threads();
    assert_true(saved >= 1);
    assert_int_equal(nn_set_num_threads(0), -1);
    tu_assert_error(NN_ERR_RUNTIME, "set_num_threads expects a positive integer");
    assert_int_equal(nn_get_num_threads(), saved); /* unchanged */
    tu_check(nn_set_num_threads(5));
    assert_int_equal(nn_get_num_threads(), 5);
    tu_check(nn_set_num_threads(saved));
}

/* ------------------------------------------ results independent of threads */

/* n values from a fixed seed, of dtype; new reference. */
static nn_tensor *random_of(int64_t n, nn_dtype dtype, uint64_t seed)
{
    nn_generator_seed(nn_default_generator(), seed);
    return tu_ok(nn_randn(1, &n, dtype));
}

static void assert_same_bits(nn_tensor *a, nn_tensor *b)
{
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(nn_numel(a), nn_numel(b));
    assert_int_equal(a->dtype, b->dtype);
    assert_true(nn_is_contiguous(a) && nn_is_contiguous(b));
    assert_memory_equal(nn_data_ptr(a), nn_data_ptr(b), (size_t)nn_numel(a) * nn_dtype_size(a->dtype));
}

#define N_OUT 12

/* sum(a * b) of two tensors; new reference */
static nn_tensor *sum_of_product(nn_tensor *a, nn_tensor *b)
{
    nn_tensor *p = tu_ok(nn_mul(a, b)), *s = tu_ok(nn_sum(p, 0, NULL, false));
    NN_RELEASE(p);
    return s;
}

/* A leaf copy of t that requires grad; new reference. */
static nn_tensor *leaf_of(nn_tensor *t)
{
    nn_tensor *l = tu_ok(nn_clone(t));
    tu_check(nn_set_requires_grad(l, true));
    return l;
}

/* The gradient of l after backward of sum(out * out); new reference. */
static nn_tensor *grad_through(nn_tensor *out, nn_tensor *l)
{
    nn_tensor *s = sum_of_product(out, out);
    tu_check(nn_backward(s, NULL, false, false));
    NN_RELEASE(s);
    return tu_ok(nn_grad(l));
}

/* Every kernel under test on the same inputs; outputs (new references) into out. */
static void run_kernels(nn_dtype dt, nn_tensor **out)
{
    const int64_t n = (1 << 20) + 37, rows[2] = {300, 1000};
    nn_tensor *x = random_of(n, dt, 1), *y = random_of(n, dt, 2);
    out[0] = tu_ok(nn_add(x, y));
    out[1] = tu_ok(nn_mul(x, y));
    /* GELU and its backward */
    nn_tensor *lx = leaf_of(x);
    nn_tensor *g = tu_ok(nn_gelu(lx, NN_GELU_NONE));
    out[4] = tu_ok(nn_detach(g));
    out[5] = grad_through(g, lx);
    NN_RELEASE(g);
    NN_RELEASE(lx);
    /* rows: softmax, log_softmax, layer_norm and its backward */
    nn_tensor *part = tu_ok(nn_narrow(x, 0, 0, rows[0] * rows[1]));
    nn_tensor *m = tu_ok(nn_reshape(part, 2, rows)), *lm = leaf_of(m);
    /* sums over a dim (a whole-tensor sum adds in PyTorch's order, which
       depends on the thread count as PyTorch's does: test_vmath checks it) */
    out[2] = tu_ok(nn_sum(m, 1, (const int[]){1}, false));
    out[3] = tu_ok(nn_mean(m, 1, (const int[]){0}, false));
    out[6] = tu_ok(nn_softmax(m, 1));
    out[7] = tu_ok(nn_log_softmax(m, 1));
    nn_tensor *ln = tu_ok(nn_layer_norm(lm, 1, &rows[1], NULL, NULL, 1e-5));
    out[8] = tu_ok(nn_detach(ln));
    out[9] = grad_through(ln, lm);
    NN_RELEASE(ln);
    NN_RELEASE(lm);
    NN_RELEASE(m);
    NN_RELEASE(part);
    /* two SGD (momentum) and two Adam steps on a large parameter */
    nn_sgd_options so;
    nn_sgd_options_default(&so);
    so.lr = 0.1, so.momentum = 0.9;
    for (int k = 0; k < 2; k++) {
        nn_tensor *w = leaf_of(k ? y : x);
        nn_optimizer *opt = tu_ok(k == 0 ? nn_sgd_new(&w, 1, &so) : nn_adam_new(&w, 1, NULL));
        for (int step = 0; step < 2; step++) {
            nn_tensor *loss = sum_of_product(w, x);
            tu_check(nn_backward(loss, NULL, false, false));
            NN_RELEASE(loss);
            tu_check(nn_optimizer_step(opt));
        }
        out[10 + k] = tu_ok(nn_detach(w));
        NN_RELEASE(opt);
        NN_RELEASE(w);
    }
    NN_RELEASE(x);
    NN_RELEASE(y);
}

static void test_same_bits_whatever_the_threads(void **state)
{
    int saved = nn_get_num_threads();
    const nn_dtype dts[2] = {NN_FLOAT32, NN_FLOAT64};
    for (int d = 0; d < 2; d++) {
        nn_tensor *ref[N_OUT], *got[N_OUT];
        tu_check(nn_set_num_threads(1));
        run_kernels(dts[d], ref);
        for (int threads = 2; threads <= 5; threads += 3) {
            tu_check(nn_set_num_threads(threads));
            run_kernels(dts[d], got);
            for (int k = 0; k < N_OUT; k++) {
                assert_same_bits(ref[k], got[k]);
                NN_RELEASE(got[k]);
            }
        }
        for (int k = 0; k < N_OUT; k++) NN_RELEASE(ref[k]);
    }
    tu_check(nn_set_num_threads(saved));
}

/* A long float32 sum (PyTorch's cascade order, cpu/sum.c) is close to the
   exact sum. */
static void test_long_sum_matches_the_chunked_formula(void **state)
{
    const int64_t n = 3 * NN_GRAIN + 5;
    nn_tensor *x = random_of(n, NN_FLOAT32, 7);
    const float *v = nn_data_ptr(x);
    double total = 0;
    for (int64_t c = 0; c * NN_GRAIN < n; c++) {
        double part = 0;
        for (int64_t i = c * NN_GRAIN; i < n && i < (c + 1) * NN_GRAIN; i++) part += v[i];
        total += part;
    }
    nn_tensor *s = tu_ok(nn_sum(x, 0, NULL, false));
    assert_float_equal(*(float *)nn_data_ptr(s), (float)total, fabs(total) * 1e-6 + 1e-6);
    NN_RELEASE(s);
    NN_RELEASE(x);
}

/* After fork() the child has no workers: it starts its own and gets the same bits. */
static void test_after_fork(void **state)
{
    tu_check(nn_set_num_threads(2));
    nn_tensor *x = random_of(1 << 20, NN_FLOAT32, 3), *ref = tu_ok(nn_gelu(x, NN_GELU_NONE)); /* workers started */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        nn_tensor *y = nn_gelu(x, NN_GELU_NONE);
        bool same = y && !memcmp(nn_data_ptr(y), nn_data_ptr(ref), (size_t)nn_numel(x) * sizeof(float));
        _exit(same ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    NN_RELEASE(ref);
    NN_RELEASE(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_item_once),
        cmocka_unit_test(test_nested_runs_inline),
        cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_thread_budget),
        cmocka_unit_test(test_budget_shrinks),
        cmocka_unit_test(test_same_bits_whatever_the_threads),
        cmocka_unit_test(test_long_sum_matches_the_chunked_formula),
        cmocka_unit_test(test_after_fork),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
