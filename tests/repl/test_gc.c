/*
 * test_gc.c — the cycle collector frees what only reference cycles keep:
 * PyTorch's self.register_forward_hook(self.hook) idiom (module -> hook dict ->
 * bound method -> module) no longer leaks the model's parameters, counted as
 * live bytes of core's allocator; a notebook cell re-run many times keeps the
 * memory of one run; a cycle of 100000 instances is freed without deep
 * recursion; collections while allocations fail leave no broken state.
 */
#include "test_util.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "repl/app.h"
#include "repl/bind.h"
#include "repl/repl.h"

/* ------------------------------------------------- live bytes of core's allocator */

static long long live_bytes;

static void *counting_alloc(void *ud, void *ptr, size_t n)
{
    (void)ud;
    if (ptr) live_bytes -= (long long)malloc_usable_size(ptr);
    if (n == 0) {
        free(ptr);
        return NULL;
    }
    void *p = realloc(ptr, n);
    if (p) live_bytes += (long long)malloc_usable_size(p);
    else if (ptr) live_bytes += (long long)malloc_usable_size(ptr);
    return p;
}

static tu_allocator saved;

/* Counting starts at zero for blocks allocated from now on (older blocks freed
   later count negative, so figures are compared as differences). */
static void count_start(void)
{
    nn_get_allocator(&saved.fn, &saved.ud);
    live_bytes = 0;
    nn_set_allocator(counting_alloc, NULL);
}

static void count_stop(void) { tu_restore_allocator(&saved); }

static const char MODEL[] = "import gc\n"
                            "import torch\n"
                            "import torch.nn as nn\n"
                            "class Hooked(nn.Module):\n"
                            "    def __init__(self):\n"
                            "        super().__init__()\n"
                            "        self.lin = nn.Linear(100, 100)\n"
                            "        self.handle = self.register_forward_hook(self.hook)\n"
                            "    def hook(self, module, inp, out):\n"
                            "        self.last = out\n"
                            "    def forward(self, x):\n"
                            "        return self.lin(x)\n";

static void exec_ok(repl_interp *in, const char *src)
{
    int rc = repl_exec(in, src, "gc_test.py", REPL_PARSE_FILE, NULL);
    if (rc != 0) {
        char *tb = repl_traceback(in);
        fprintf(stderr, "%s\n", tb ? tb : "?");
        free(tb);
    }
    assert_int_equal(rc, 0);
}

/* 50 models of 40 KB of parameters each: leaked without the collector, freed with it. */
static void test_forward_hook_model_is_freed(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    exec_ok(in, MODEL);
    const char *loop = "for i in range(50):\n"
                       "    m = Hooked()\n"
                       "    y = m(torch.ones(2, 100))\n"
                       "del m, y\n";
    exec_ok(in, "gc.disable()\n");
    exec_ok(in, loop); /* once before counting: the collector's own tables reach their size */
    nn_gc_collect(2);
    count_start();
    exec_ok(in, loop);
    long long kept = live_bytes;
    long found = nn_gc_collect(2);
    long long after = live_bytes;
    count_stop();
    exec_ok(in, "gc.enable()\n");
    /* each model holds 100*100+100 float32 parameters: the cycles kept them all */
    assert_true(kept > 50LL * 40000);
    assert_true(found >= 50 * 4); /* module, its dicts, the bound method, the handle, ... */
    assert_true(after < 64 * 1024);
    repl_interp_free(in);
}

/* A notebook cell that builds the model, re-run 40 times: automatic collection
   keeps memory near one run's (the previous model is a cycle when m is rebound). */
static void test_notebook_rerun_does_not_leak(void **state)
{
    (void)state;
    repl_app_options opt = {.interactive = true, .record = false};
    repl_app *app = TU_OK(repl_app_new(&opt));
    assert_int_equal(repl_app_run_cell(app, MODEL, NULL), 0);
    const char *cell = "m = Hooked()\ny = m(torch.ones(2, 100))";
    for (int i = 0; i < 40; i++) assert_int_equal(repl_app_run_cell(app, cell, NULL), 0);
    assert_int_equal(repl_app_run_cell(app, "n = gc.collect()", NULL), 0);
    count_start();
    long long peak = 0;
    for (int i = 0; i < 40; i++) {
        assert_int_equal(repl_app_run_cell(app, cell, NULL), 0);
        if (live_bytes > peak) peak = live_bytes;
    }
    assert_int_equal(repl_app_run_cell(app, "n = gc.collect()", NULL), 0);
    long long after = live_bytes;
    count_stop();
    /* 40 leaked models would be 1.6 MB; the thresholds let some wait for a collection
       (a model that survived a young collection waits for an older one) */
    assert_true(peak < 40LL * 40000);
    assert_true(after < 64 * 1024);
    repl_app_free(app);
}

/* Clearing a long ring frees it through the deferred release, not 100000 nested deallocs. */
static void test_long_cycle_is_freed_flat(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    repl_set_writer(in, tu_capture_write, &out);
    exec_ok(in, "import gc\n"
                "class Node:\n"
                "    pass\n"
                "head = Node()\n"
                "cur = head\n"
                "for i in range(99999):\n"
                "    n = Node()\n"
                "    cur.next = n\n"
                "    cur = n\n"
                "cur.next = head\n"
                "gc.disable()\n"
                "del head, cur, n\n"
                "print(gc.collect())\n"
                "gc.enable()\n");
    assert_string_equal(out.buf, "100000\n");
    free(out.buf);
    repl_interp_free(in);
}

/* Every allocation of a workload that makes and collects cycles fails in turn:
   MemoryError or success, never a crash, and the collector still works after. */
static void test_collect_under_failing_allocations(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    exec_ok(in, "import gc\nclass A:\n    pass\n");
    const char *work = "a = A()\na.me = a\nl = [a, {'l': None}]\nl[1]['l'] = l\ndel a, l\nn = gc.collect()\n";
    tu_allocator old;
    for (long k = 1; k < 400; k++) {
        tu_install_failing_alloc(&old);
        tu_fail_at = k;
        repl_exec(in, work, "w.py", REPL_PARSE_FILE, NULL);
        long count = tu_alloc_count;
        tu_restore_allocator(&old);
        if (count < k) break;
    }
    tu_capture out = {0};
    repl_set_writer(in, tu_capture_write, &out);
    exec_ok(in, "gc.collect()\na = A()\na.me = a\ndel a\nprint(gc.collect())\n");
    assert_string_equal(out.buf, "1\n");
    free(out.buf);
    repl_interp_free(in);
}

int main(void)
{
    repl_bindings_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward_hook_model_is_freed),
        cmocka_unit_test(test_notebook_rerun_does_not_leak),
        cmocka_unit_test(test_long_cycle_is_freed_flat),
        cmocka_unit_test(test_collect_under_failing_allocations),
    };
    int rc = cmocka_run_group_tests_name("gc", tests, NULL, NULL);
    repl_bindings_shutdown();
    return rc;
}
