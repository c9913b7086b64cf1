/*
 * test_app.c — the front end's cells through repl_app_run_cell, unrecorded,
 * with output and errors collected by writers: the Out[n] echo and numbering
 * (IPython 8's format), _ __ ___ _n In Out, the Out cache's memory cap really
 * freeing tensors, Ctrl-C during a cell, every core magic's output and error
 * cases, obj?, and the plot()/summary() built-ins' argument errors (their
 * renders are golden tests in tests/scripts/plot_summary.py), and a traceback's
 * colours on a colour terminal.
 */
#include "test_util.h"
#include "repl/app.h"
#include "repl/bind.h"

#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

typedef struct text {
    char buf[16384];
    size_t len;
} text;
static text out, err;

static void collect(void *ud, const char *s, size_t n)
{
    text *t = ud;
    if (t->len + n >= sizeof t->buf) n = sizeof t->buf - 1 - t->len;
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

static repl_app *new_app(bool interactive)
{
    repl_bindings_install();
    repl_app_options opt = {.interactive = interactive, .record = false};
    repl_app *app = TU_OK(repl_app_new(&opt));
    app->out_write = collect, app->out_ud = &out;
    app->err_write = collect, app->err_ud = &err;
    return app;
}

static int setup(void **state)
{
    *state = new_app(true);
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
    out.len = err.len = 0;
    out.buf[0] = err.buf[0] = '\0';
    return repl_app_run_cell(app, source, NULL);
}
/* Runs a cell that must succeed and print exactly want. */
static void expect(repl_app *app, const char *source, const char *want)
{
    int rc = run(app, source);
    if (rc != 0) fail_msg("cell %s failed: %s", source, err.buf);
    if (strcmp(out.buf, want)) fail_msg("cell %s printed\n[%s]\nnot\n[%s]", source, out.buf, want);
}
/* Runs a cell that must fail with an error text ending in want_end. */
static void expect_error(repl_app *app, const char *source, const char *want_end)
{
    assert_int_equal(run(app, source), -1);
    size_t n = strlen(err.buf), m = strlen(want_end);
    if (n < m + 1 || strncmp(err.buf + n - m - 1, want_end, m))
        fail_msg("cell %s: error\n[%s]\ndoes not end with [%s]", source, err.buf, want_end);
    /* the cell's error is the text printed, without its newline */
    assert_non_null(app->last.error);
    assert_int_equal(strlen(app->last.error) + 1, n);
    assert_memory_equal(app->last.error, err.buf, n - 1);
}
static void expect_match(repl_app *app, const char *source, const char *pattern)
{
    if (run(app, source) != 0) fail_msg("cell %s failed: %s", source, err.buf);
    regex_t re;
    assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0);
    int m = regexec(&re, out.buf, 0, NULL, 0);
    regfree(&re);
    if (m != 0) fail_msg("cell %s printed\n[%s]\nwhich does not match %s", source, out.buf, pattern);
}

/* ------------------------------------------------------------------ cells */

static void test_out_echo_and_numbering(void **state)
{
    repl_app *app = *state;
    expect(app, "1 + 2", "Out[1]: 3\n");
    expect(app, "x = 5", "");
    expect(app, "None", "");                 /* None is not echoed */
    expect(app, "print('hi')", "hi\n");      /* nor is print's None */
    expect(app, "x; x * 2", "Out[5]: 10\n"); /* the last expression only */
    expect(app, "'a\\nb'", "Out[6]: 'a\\nb'\n");
    assert_int_equal(app->next_cell, 7);
    assert_int_equal(app->last.number, 6);
    assert_string_equal(app->last.output, "Out[6]: 'a\\nb'\n");
    /* blank cells do nothing and take no number; incomplete ones ask for more */
    assert_int_equal(run(app, "  \n"), 0);
    assert_int_equal(run(app, "def f():"), -2);
    assert_int_equal(app->next_cell, 7);
    expect(app, "len(In)", "Out[7]: 8\n"); /* In[0] == '' and cells 1..7 */
}

static void test_multiline_repr_starts_on_next_line(void **state)
{
    repl_app *app = *state;
    expect(app, "import torch", "");
    expect(app, "torch.zeros(2, 2)", "Out[2]: \ntensor([[0., 0.],\n        [0., 0.]])\n");
}

static void test_underscore_names_in_out(void **state)
{
    repl_app *app = *state;
    expect(app, "_", "Out[1]: ''\n"); /* IPython starts _ as '' */
    expect(app, "10", "Out[2]: 10\n");
    expect(app, "20", "Out[3]: 20\n");
    expect(app, "y = 1", "");
    expect(app, "(_, __, ___)", "Out[5]: (20, 10, '')\n");
    expect(app, "_2 + _3", "Out[6]: 30\n");
    expect(app, "In[2]", "Out[7]: '10'\n");
    expect(app, "Out[3]", "Out[8]: 20\n");
    expect(app, "sorted(Out.keys())[:3]", "Out[9]: [1, 2, 3]\n");
    expect_error(app, "_4", "NameError: name '_4' is not defined"); /* cell 4 had no value */
}

static void test_errors_keep_state(void **state)
{
    repl_app *app = *state;
    expect(app, "a = 1", "");
    expect_error(app, "a = 2\n1 / 0", "ZeroDivisionError: division by zero");
    assert_int_equal(app->last.status, REPL_CELL_ERROR);
    assert_non_null(strstr(app->last.error, "File \"<ipython-input-2>\", line 2"));
    expect(app, "a", "Out[3]: 2\n"); /* what ran before the error stays, as in Python */
    expect_error(app, "x = = 1", "SyntaxError: invalid syntax");
    expect_error(app, "raise KeyboardInterrupt", "KeyboardInterrupt");
    assert_int_equal(app->last.status, REPL_CELL_INTERRUPTED);
    expect(app, "a + 1", "Out[6]: 3\n");
}

/* Ctrl-C while a cell runs: SIGALRM stands in for SIGINT and sets the same flag. */
static void on_alarm(int sig)
{
    (void)sig;
    nn_interrupt_requested = 1;
}

static void test_interrupt_cancels_cell_keeps_variables(void **state)
{
    repl_app *app = *state;
    expect(app, "n = 0", "");
    signal(SIGALRM, on_alarm);
    struct itimerval t = {.it_value = {.tv_usec = 50000}};
    setitimer(ITIMER_REAL, &t, NULL);
    expect_error(app, "while True:\n    n = n + 1\n\n", "KeyboardInterrupt");
    signal(SIGALRM, SIG_DFL);
    assert_int_equal(app->last.status, REPL_CELL_INTERRUPTED);
    assert_non_null(strstr(app->last.error, "File \"<ipython-input-2>\", line ")); /* where it stopped */
    assert_int_equal(run(app, "n > 0"), 0);
    assert_string_equal(out.buf, "Out[3]: True\n");
}

static void test_script_mode_has_no_echo(void **state)
{
    repl_app *app = new_app(false);
    expect(app, "1 + 2\nprint(3)\n", "3\n");
    assert_int_equal(app->last.status, REPL_CELL_OK);
    expect_match(app, "%time 6 * 7", "^CPU times: .*\nWall time: .*\n$"); /* magics work, nothing is echoed */
    repl_app_free(app);
}

/* ------------------------------------------------------------------ the Out cache */

static void test_cache_cap_frees_old_tensors(void **state)
{
    repl_app *app = *state;
    expect(app, "import torch", "");
    expect(app, "%config cache_mb=1", "");
    /* each Out value holds 400,000 bytes; three do not fit in 1 MiB */
    run(app, "torch.zeros(100000)");
    nn_object *key = nn_int_new(3);
    nn_object *first = nn_dict_get(repl_get_global(app->interp, "Out"), key);
    NN_RELEASE(key);
    assert_non_null(first);
    NN_RETAIN(first);
    run(app, "torch.ones(100000)");
    assert_true(first->refcount > 1); /* still cached */
    run(app, "torch.full((100000,), 2.0)");
    assert_int_equal(first->refcount, 1); /* Out[3], _3, _, __ and ___ let it go */
    NN_RELEASE(first);
    expect(app, "sorted(Out.keys())", "Out[6]: [4, 5]\n");
    expect_error(app, "_3", "NameError: name '_3' is not defined");
    expect(app, "___.sum()", "Out[8]: tensor(100000.)\n"); /* _ __ ___: Out[6], Out[5], Out[4] */
    /* lowering the cap drops at once; 0 caches no tensor at all (a list of ints holds none) */
    expect(app, "%config cache_mb=0", "");
    expect(app, "sorted(Out.keys())", "Out[10]: [6]\n");
}

/* ------------------------------------------------------------------ magics */

static void test_unknown_magic_is_usage_error(void **state)
{
    repl_app *app = *state;
    expect_error(app, "%foo", "UsageError: Line magic function `%foo` not found.");
    expect_error(app, "%foo bar", "UsageError: Line magic function `%foo` not found.");
    expect_error(app, "%%foo\n1", "UsageError: Cell magic `%%foo` not found.");
    assert_int_equal(app->last.status, REPL_CELL_ERROR);
    assert_int_equal(app->next_cell, 4);
}

static void test_who_and_whos(void **state)
{
    repl_app *app = *state;
    expect(app, "%who", "Interactive namespace is empty.\n");
    expect(app, "import torch\nimport torch.nn as nn", "");
    expect(app, "alpha = 123\nbeta = 'test'\nw = torch.zeros(3, 4)\nlin = nn.Linear(4, 2)\nxs = [1, 2]", "");
    expect(app, "%who", "alpha\t beta\t lin\t nn\t torch\t w\t xs\t \n");
    expect(app, "%who int str", "alpha\t beta\t \n");
    expect(app, "%who float", "No variables match your requested type.\n");
    expect(app, "%whos int str Tensor Linear list",
           "Variable   Type      Data/Info\n"
           "------------------------------\n"
           "alpha      int       123\n"
           "beta       str       test\n"
           "lin        Linear    10 parameters\n"
           "w          Tensor    3x4: 12 elems, type `float32`, 48 bytes\n"
           "xs         list      n=2\n");
    expect(app, "long_name_here = 'x' * 60\nbig = torch.zeros(1000, 100)", "");
    expect(app, "%whos str Tensor",
           "Variable         Type      Data/Info\n"
           "------------------------------------\n"
           "beta             str       test\n"
           "big              Tensor    1000x100: 100000 elems, type `float32`, 400000 bytes (390.625 kb)\n"
           "long_name_here   str       xxxxxxxxxxxxxxxxxxxxxxxxx<...>xxxxxxxxxxxxxxxxxxxxxxxxx\n"
           "w                Tensor    3x4: 12 elems, type `float32`, 48 bytes\n");
}

static void test_history(void **state)
{
    repl_app *app = *state;
    expect(app, "x = 1", "");
    expect(app, "def f(a):\n    return a\n\n", "");
    expect(app, "%history", "x = 1\ndef f(a):\n    return a\n%history\n");
    expect(app, "%history -n 1-2", "   1: x = 1\n   2:\ndef f(a):\n    return a\n");
    expect(app, "%history -n 1:2 4", "   1: x = 1\n   4: %history -n 1-2\n");
    expect(app, "%history -n 99 nonsense", "");
}

/* One of IPython's _format_time values: "%.3g" then a unit, so a value just under
   a unit's boundary prints as "1e+03 ns", as IPython prints it. */
#define TIME_RE "[0-9.]+(e[+-][0-9]+)? (ns|µs|ms|s)"

static void test_time(void **state)
{
    repl_app *app = *state;
    expect_match(app, "%time 6 * 7",
                 "^CPU times: user " TIME_RE ", sys: " TIME_RE ", total: " TIME_RE "\n"
                 "Wall time: " TIME_RE "\nOut\\[1\\]: 42\n$");
    expect_match(app, "%time y = 3", "^CPU times: .*\nWall time: .*\n$");
    expect(app, "y", "Out[3]: 3\n");
    expect_error(app, "%time 1 / 0", "ZeroDivisionError: division by zero");
    expect_error(app, "%time", "UsageError: %time needs a statement: %time STMT");
}

static void test_timeit(void **state)
{
    repl_app *app = *state;
    expect(app, "x = 2", "");
    expect_match(app, "%timeit -n 3 -r 2 x + 1",
                 "^" TIME_RE " ± " TIME_RE " per loop "
                 "\\(mean ± std\\. dev\\. of 2 runs, 3 loops each\\)\n$");
    expect_match(app, "%timeit -r 1 -n 1 zz = x * 3",
                 "^" TIME_RE " ± 0 ns per loop \\(mean ± std\\. dev\\. of 1 run, 1 loop each\\)\n$");
    expect_error(app, "zz", "NameError: name 'zz' is not defined"); /* timed in a function: locals stay there */
    expect_error(app, "%timeit -n 1 -r 1 1 / 0", "ZeroDivisionError: division by zero");
    expect_error(app, "%timeit -n 0 x", "UsageError: %timeit: -n needs a positive integer");
    expect_error(app, "%timeit", "UsageError: %timeit needs a statement: %timeit [-n N] [-r R] STMT");
    expect(app, "%who", "x\t \n"); /* the timing function is gone */
}

static void test_reset(void **state)
{
    repl_app *app = *state;
    expect(app, "import torch\na = 1\nt = torch.ones(2)", "");
    expect(app, "t", "Out[2]: tensor([1., 1.])\n");
    /* without -f it asks; with no terminal to answer, the default is no */
    app->opt.interactive = false;
    expect(app, "%reset", "Once deleted, variables cannot be recovered. Proceed (y/[n])? \nNothing done.\n");
    app->opt.interactive = true;
    expect(app, "%who", "a\t t\t torch\t \n");
    expect(app, "%reset -f", "");
    expect(app, "%who", "Interactive namespace is empty.\n");
    expect(app, "(len(Out), _)", "Out[7]: (0, '')\n");
    expect_error(app, "_2", "NameError: name '_2' is not defined");
    expect(app, "len(In)", "Out[9]: 10\n"); /* the input history stays, as in IPython */
    expect_error(app, "%reset -x", "UsageError: %reset takes only -f, not '-x'");
}

static void test_run_and_load(void **state)
{
    repl_app *app = *state;
    char path[] = "/tmp/nnscope_test_app_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char script[] = "ran = 40 + 2\nprint('running')\n";
    assert_int_equal(write(fd, script, sizeof script - 1), (ssize_t)(sizeof script - 1));
    close(fd);
    char cell[128];
    snprintf(cell, sizeof cell, "%%run %s", path);
    expect(app, cell, "running\n");
    expect(app, "ran", "Out[2]: 42\n");
    snprintf(cell, sizeof cell, "%%load %s", path);
    expect(app, cell, "");
    char want[128];
    snprintf(want, sizeof want, "# %%load %s\nran = 40 + 2\nprint('running')", path);
    assert_string_equal(app->pending_input, want);
    /* outside the notebook %load shows what it would load */
    app->opt.interactive = false;
    snprintf(cell, sizeof cell, "%%load %s", path);
    strcat(want, "\n");
    expect(app, cell, want);
    app->opt.interactive = true;
    unlink(path);
    expect_error(app, "%run /nonexistent/x.py", "UsageError: File `'/nonexistent/x.py'` not found.");
    expect_error(app, "%load /nonexistent/x.py",
                 "UsageError: '/nonexistent/x.py' was not found in history, as a file, url, "
                 "nor in the user namespace.");
    expect_error(app, "%run", "UsageError: %run needs a file: %run FILE");
}

static void test_config(void **state)
{
    repl_app *app = *state;
    expect(app, "%config",
           "Settings (change one with %config NAME=VALUE):\n"
           "  cache_mb = 256    memory cap of the Out cache's tensors, in MiB (oldest dropped first)\n");
    expect(app, "%config cache_mb = 64", "");
    expect(app, "%config cache_mb", "cache_mb = 64\n");
    assert_int_equal(app->cache_bytes_cap, 64u << 20);
    expect_error(app, "%config cache_mb=-1", "UsageError: cache_mb must be a whole number of MiB >= 0, not '-1'");
    expect_error(app, "%config cache_mb=lots", "UsageError: cache_mb must be a whole number of MiB >= 0, not 'lots'");
    expect_error(app, "%config colors=1", "UsageError: unknown setting 'colors' (settings: cache_mb)");
    assert_int_equal(app->cache_bytes_cap, 64u << 20); /* a failed change changes nothing */
}

static void test_help_lists_every_magic(void **state)
{
    repl_app *app = *state;
    const repl_magic *const tables[] = {repl_magics_core, repl_magics_sessions, repl_magics_inspect};
    for (int pass = 0; pass < 3; pass++) {
        run(app, pass == 0 ? "%help" : pass == 1 ? "%magic" : "?");
        assert_int_equal(app->last.status, REPL_CELL_OK);
        for (size_t t = 0; t < 3; t++)
            for (const repl_magic *m = tables[t]; m->name; m++) {
                assert_ptr_equal(repl_magic_find(m->name), m);
                if (!strstr(out.buf, m->usage) || !strstr(out.buf, m->summary))
                    fail_msg("%%help lacks %s", m->usage);
            }
    }
    assert_null(repl_magic_find("nosuch"));
}

static void test_object_help(void **state)
{
    repl_app *app = *state;
    expect(app, "nosuch?", "Object `nosuch` not found.\n");
    expect_error(app, "len(x)?", "SyntaxError: invalid syntax"); /* only names are looked up; the rest is code */
    expect(app, "y = 1  # really?", "");
    expect(app, "y", "Out[4]: 1\n");
    run(app, "len?");
    assert_int_equal(app->last.status, REPL_CELL_OK);
    assert_non_null(strstr(out.buf, "len(obj"));
    assert_non_null(strstr(out.buf, "Return the number of items in a container."));
    run(app, "plot??");
    assert_non_null(strstr(out.buf, "plot(f, lo=-3, hi=3, grad=False"));
    run(app, "?summary");
    assert_non_null(strstr(out.buf, "summary(model, input_size"));
    assert_int_equal(app->next_cell, 8);
}

/* ------------------------------------------------------------------ plot() and summary() */

static void test_plot_and_summary_errors(void **state)
{
    repl_app *app = *state;
    expect(app, "import torch\nimport torch.nn as nn", "");
    expect_error(app, "plot(3)",
                 "TypeError: plot: f must be a module, a function of a tensor or a list of them, not int");
    expect_error(app, "plot(nn.ReLU(), lo=1, hi=0)", "ValueError: plot: lo must be less than hi");
    expect_error(app, "plot(nn.ReLU(), width=5)", "ValueError: plot: width must be between 20 and 500");
    expect_error(app, "plot(lambda x: 1)", "TypeError: plot: f must return a tensor, not int");
    expect_error(app, "plot(nn.ReLU(), bogus=1)", "TypeError: plot() got an unexpected keyword argument 'bogus'");
    expect_error(app, "summary(3, (1, 2))", "TypeError: summary(): argument 'model' must be nn.Module, not int");
    expect_error(app, "summary(nn.Linear(2, 3), (1, 0))",
                 "ValueError: Input_data is invalid, or negative size found in input_data.");
    expect_error(app, "summary(nn.Linear(2, 3), (1, 5))",
                 "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x5 and 2x3)");
    /* a function written in the language plots, and its name is in the legend */
    expect(app, "def square(x):\n    return x * x\n\n", "");
    run(app, "plot(square, color=False)");
    assert_int_equal(app->last.status, REPL_CELL_OK);
    assert_non_null(strstr(out.buf, "square"));
    /* a derivative by autograd leaves the module's own parameters' .grad alone */
    run(app, "p = nn.PReLU()\nplot(p, grad=True, color=False)\nprint(p.weight.grad)");
    assert_int_equal(app->last.status, REPL_CELL_OK);
    size_t len = strlen(out.buf);
    assert_true(len >= 5 && !strcmp(out.buf + len - 5, "None\n"));
}

/* On a colour terminal a traceback is coloured as IPython's, its text unchanged:
   the file name and line green, the function magenta, the exception's name red. */
static void test_traceback_colours(void **state)
{
    repl_app *app = *state;
    app->color = true;
    app->err_write = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    repl_app_print_error(app, f, "Traceback (most recent call last):\n  File \"<ipython-input-2>\", line 1, in <module>\n"
                                 "NameError: name 'x' is not defined");
    fclose(f);
    assert_string_equal(buf, "\033[0;31mTraceback (most recent call last):\033[0m\n"
                             "  File \033[0;32m\"<ipython-input-2>\"\033[0m, line \033[0;32m1\033[0m, in \033[0;35m<module>\033[0m\n"
                             "\033[0;31mNameError\033[0m: name 'x' is not defined\n");
    free(buf);
    app->err_write = collect;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_out_echo_and_numbering, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multiline_repr_starts_on_next_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_underscore_names_in_out, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors_keep_state, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interrupt_cancels_cell_keeps_variables, setup, teardown),
        cmocka_unit_test(test_script_mode_has_no_echo),
        cmocka_unit_test_setup_teardown(test_cache_cap_frees_old_tensors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_magic_is_usage_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_who_and_whos, setup, teardown),
        cmocka_unit_test_setup_teardown(test_history, setup, teardown),
        cmocka_unit_test_setup_teardown(test_time, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_and_load, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config, setup, teardown),
        cmocka_unit_test_setup_teardown(test_help_lists_every_magic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_object_help, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plot_and_summary_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_traceback_colours, setup, teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    repl_bindings_shutdown();
    return failed;
}
