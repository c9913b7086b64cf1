/*
 * test_alloc_sweep.c — the language under failing allocations (issue 22): for
 * each program of the language's tests (the scripts of tests/scripts that need
 * no torch, and every snippet of the parser's corpus), the Nth allocation of its
 * run fails, for every N up to SWEEP_EVERY and then every SWEEP_STRIDE-th: the
 * run ends (its own output, or an exception: MemoryError, or what the program
 * made of it), never a crash, with the grad mode restored; the interpreter then
 * still runs a statement; under `make asan` nothing leaks. One interpreter per program, made with memory.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/bind.h"
#include "repl/repl.h"

#define SWEEP_EVERY 1500
#define SWEEP_STRIDE 97

static void discard(void *ud, const char *s, size_t n)
{
    (void)ud;
    (void)s;
    (void)n;
}

/* Runs source with the Nth allocation failing for each N in the sweep; returns the
   number of runs. The scripts run from tests/scripts (they read files there). */
static long sweep(const char *name, const char *source)
{
    repl_interp *in = repl_interp_new();
    assert_non_null(in);
    repl_set_writer(in, discard, NULL);
    tu_allocator old;
    tu_install_failing_alloc(&old);
    repl_exec(in, source, name, REPL_PARSE_FILE, NULL); /* counts the allocations */
    long total = tu_alloc_count, runs = 0;
    bool grad_mode = nn_grad_enabled(); /* as the whole run leaves it */
    nn_error_clear();
    for (long n = 1; n <= total; n += n < SWEEP_EVERY ? 1 : SWEEP_STRIDE, runs++) {
        tu_alloc_count = 0;
        tu_fail_at = n;
        int rc = repl_exec(in, source, name, REPL_PARSE_FILE, NULL);
        tu_fail_at = -1;
        if (rc != 0 && rc != -1) fail_msg("%s, allocation %ld failing: status %d", name, n, rc);
        if (rc < 0 && !repl_exception_name(in) && nn_error_current() != NN_ERR_MEMORY)
            fail_msg("%s, allocation %ld failing: no exception (%s: %s) in\n%s", name, n,
                     nn_error_kind_name(nn_error_current()), nn_error_message(), source);
        nn_error_clear();
        /* a failure inside `with torch.no_grad():` still restores the grad mode */
        if (nn_grad_enabled() != grad_mode) {
            nn_set_grad_enabled(grad_mode);
            fail_msg("%s, allocation %ld failing: the grad mode was left changed", name, n);
        }
        /* and the interpreter still works */
        if (repl_exec(in, "_sweep_ok = 1 + 1", "<after>", REPL_PARSE_FILE, NULL) != 0)
            fail_msg("%s, allocation %ld failing: the next statement failed (%s)", name, n, nn_error_message());
    }
    tu_restore_allocator(&old);
    repl_interp_free(in);
    nn_error_clear();
    return runs;
}

/* The language's own scripts (no torch: the bindings' allocations are core's,
   swept by core's tests). */
static void test_scripts(void **state)
{
    (void)state;
    static const char *scripts[] = {"basics", "control", "functions", "classes", "exceptions", "strings",
                                    "generators", "containers", "augassign", "builtins_misc", "builtins_more",
                                    "stdlib_functools", "stdlib_itertools", "stdlib_collections", "corners"};
    long runs = 0;
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
        char path[128];
        snprintf(path, sizeof path, "scripts/%s.py", scripts[i]);
        char *source = tu_read_file(path);
        runs += sweep(path, source);
        free(source);
    }
    assert_true(runs > 10000);
}

/* Every snippet of the parser's corpus (tests/fixtures/ast_corpus.txt), run. */
static void test_corpus(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/ast_corpus.txt");
    long runs = 0;
    int snippets = 0;
    for (char *p = text; p && *p;) {
        char *end = strstr(p, "\n#---");
        char *sec = strstr(p, "\n#===");
        if (sec && (!end || sec < end)) end = sec;
        if (end) *end = '\0';
        if (*p != '#') {
            runs += sweep("<corpus>", p);
            snippets++;
        }
        if (!end) break;
        p = strchr(end + 1, '\n');
        p = p ? p + 1 : NULL;
    }
    free(text);
    assert_true(snippets > 100);
    assert_true(runs > snippets);
}

/* torch.load of pickled optimizers, a scheduler and a defaultdict (the classes found
   by name, called, built): a failing allocation while the loader asks a class for its
   __module__ was swallowed, and the optimizer class then made a Module without a
   class, which type() dereferenced (allocation sweep of torch_save_optimizer.py). */
static void test_torch_load_objects(void **state)
{
    (void)state;
    long runs = sweep("<load>", "import torch\n"
                                "ck = torch.load('fixtures/torch_file/optimizer_objects.pt')\n"
                                "names = [type(v).__name__ for v in ck.values()]\n"
                                "assert names[0] == 'Linear' and 'SGD' in names, names\n");
    assert_true(runs > 1000);
}

/* SyntaxErrors made by compile() and by hand, their str, their fields and the
   lines traceback prints for them (exc_syntax.c), and NFKC-normalized names */
static void test_syntax_errors(void **state)
{
    (void)state;
    long runs = sweep("<syntax>", "import traceback\n"
                                  "for src in ['x = (1,', 'f(**x, *y)', 'if x:\\n\\n', \"'abc\", 'a b', 'ﬁ = 1 +']:\n"
                                  "    try:\n"
                                  "        exec(src)\n"
                                  "    except SyntaxError as e:\n"
                                  "        s = str(e) + repr(e.args) + ''.join(traceback.format_exception(e))\n"
                                  "        s += ''.join(traceback.format_exception_only(e))\n"
                                  "e = SyntaxError('m', ('/a/f.py', 3, 4, '  abc def\\n', 3, 6))\n"
                                  "s = str(e) + ''.join(traceback.format_exception(e)) + str(e.__dict__)\n"
                                  "ℌ = 2\n"
                                  "assert H == 2\n");
    assert_true(runs > 1000);
}

/* Complex functions (sgn, abs, angle, sigmoid and the holomorphic ones) and their
   backward, over enough elements for the vectorized body: the sgn backward passed
   a failed product on to real(), which dereferenced it, and sigmoid's body read
   the exp buffer it had failed to allocate (allocation sweeps of complex_autograd.py
   and complex_math.py). */
static void test_complex_grads(void **state)
{
    (void)state;
    long runs = sweep("<complex>", "import torch\n"
                                   "z = torch.tensor([1+2j, -0.5j, 0j, 2-1j, 0.5+0.5j, -1-1j, 3j, 1.5, -2+0.25j], requires_grad=True)\n"
                                   "for f in (torch.sgn, torch.abs, torch.angle, torch.sigmoid, torch.exp, torch.log, torch.sqrt, torch.tan):\n"
                                   "    y = f(z)\n"
                                   "    (g,) = torch.autograd.grad(y.abs().sum() if y.is_complex() else y.sum(), z)\n");
    assert_true(runs > 500);
}

int main(void)
{
    repl_bindings_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scripts),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_torch_load_objects),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_complex_grads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
