/*
 * test_hardening.c — inputs built to break the interpreter (issue 22): deep
 * expressions and structures, huge sizes, exceptions whose str() raises. The
 * cases and CPython's output for them are tests/fixtures/hardening.txt (made by
 * tests/fixtures/gen_hardening.py); a case's source is expanded from its one
 * @[UNIT*COUNT]@ form here, so no large file is kept. Each runs in a fresh
 * interpreter; its output, exit status and last traceback line must be CPython's.
 */
#include "test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repl/bind.h"
#include "repl/repl.h"

/* source with its @[UNIT*COUNT]@ form expanded; malloc'd */
static char *expand(const char *src)
{
    const char *open = strstr(src, "@["), *close = open ? strstr(open + 2, "]@") : NULL;
    if (!close) return strdup(src);
    const char *star = close;
    while (star > open && *star != '*') star--;
    assert_true(star > open + 2);
    size_t unit = (size_t)(star - open - 2), count = strtoul(star + 1, NULL, 10);
    size_t head = (size_t)(open - src), tail = strlen(close + 2);
    char *s = malloc(head + unit * count + tail + 1);
    assert_non_null(s);
    memcpy(s, src, head);
    for (size_t i = 0; i < count; i++) memcpy(s + head + i * unit, open + 2, unit);
    memcpy(s + head + unit * count, close + 2, tail + 1);
    return s;
}

/* What running source prints, as gen_hardening.py records it. */
static char *run_case(const char *source)
{
    repl_interp *in = repl_interp_new();
    assert_non_null(in);
    tu_capture out = {0};
    tu_capture_write(&out, "", 0);
    repl_set_writer(in, tu_capture_write, &out);
    int rc = repl_exec(in, source, "<case>", REPL_PARSE_FILE, NULL);
    char line[64];
    snprintf(line, sizeof line, "exit %d\n", rc < 0 ? 1 : 0);
    tu_capture_write(&out, line, strlen(line));
    if (rc < 0) {
        char *tb = repl_traceback(in);
        assert_non_null(tb);
        char *nl = strrchr(tb, '\n');
        const char *last = nl ? nl + 1 : tb;
        tu_capture_write(&out, last, strlen(last));
        tu_capture_write(&out, "\n", 1);
        nn_free(tb);
    }
    nn_error_clear();
    repl_interp_free(in);
    return out.buf;
}

static void test_cpython_cases(void **state)
{
    (void)state;
    char *text = tu_read_file("fixtures/hardening.txt");
    int cases = 0;
    for (char *p = strstr(text, "@@ "); p; cases++) {
        char *name = p + 3, *nl = strchr(name, '\n');
        assert_non_null(nl);
        *nl = '\0';
        char *src = nl + 1, *sep = strstr(src, "@@ =\n");
        assert_non_null(sep);
        *sep = '\0';
        char *expected = sep + 5, *next = strstr(expected, "\n@@ ");
        if (next) next[1] = '\0';
        char *source = expand(src);
        char *got = run_case(source);
        if (strcmp(got, expected) != 0) fail_msg("case %s:\n--- CPython\n%s--- nnscope\n%s", name, expected, got);
        free(got);
        free(source);
        p = next ? next + 1 : NULL;
    }
    assert_true(cases >= 10);
    free(text);
}

/* A tree within the compiler's limit evaluated inside 900 nested calls needs
   more C stack than there is: RecursionError, where CPython (whose calls do not
   nest the C stack) returns; never a crash. */
static void test_deep_expression_in_deep_calls(void **state)
{
    (void)state;
    char *src = expand("def h(n):\n    return (h(n - 1) if n else 0)@[+0*2900]@\nh(900)\n");
    char *got = run_case(src);
    assert_string_equal(got, "exit 1\nRecursionError: maximum recursion depth exceeded\n");
    free(got);
    free(src);
}

/* hash() of a tuple nested 100000 deep: computed without the C stack (a walk of
   its own), in every build, sanitizers' bigger frames included; the walk used to
   overflow the C stack (a crash), then to raise RecursionError under clang's ASan.
   CPython's value: tests/scripts/hardening_deep_hash.py. */
static void test_deep_tuple_hash(void **state)
{
    (void)state;
    char *got = run_case("t = ()\nfor i in range(100000):\n    t = (t,)\nprint(hash(t) != -1)\n");
    if (strcmp(got, "True\nexit 0\n")) fail_msg("%s", got);
    free(got);
}

/* Memory that really runs out: every allocation after the first `budget` fails,
   even the MemoryError's own (the interpreter raises the one it made in advance). */
static long budget;
static void *running_out(void *ud, void *ptr, size_t n)
{
    (void)ud;
    if (n == 0) {
        free(ptr);
        return NULL;
    }
    if (budget-- <= 0) return NULL;
    return realloc(ptr, n);
}

static void test_memory_runs_out(void **state)
{
    (void)state;
    static const char *programs[] = {
        "x = []\nwhile True:\n    x.append([1, 'a', (2,)])\n",
        "def f(n):\n    return [f(n + 1), str(n)]\nf(0)\n",
        "d = {}\ni = 0\nwhile True:\n    d[str(i)] = i\n    i += 1\n",
        "class B:\n    def __str__(self):\n        return 'b' * 100\nraise RuntimeError(B())\n",
    };
    nn_alloc_fn old_fn;
    void *old_ud;
    nn_get_allocator(&old_fn, &old_ud);
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) {
        for (long b = 0; b < 4000; b += b < 400 ? 1 : 97) {
            repl_interp *in = repl_interp_new();
            assert_non_null(in);
            tu_capture out = {0};
            repl_set_writer(in, tu_capture_write, &out);
            budget = b;
            nn_set_allocator(running_out, NULL);
            int rc = repl_exec(in, programs[i], "<oom>", REPL_PARSE_FILE, NULL);
            nn_set_allocator(old_fn, old_ud);
            assert_int_equal(rc, -1);
            const char *name = repl_exception_name(in);
            /* the last program raises RuntimeError when its message could be made */
            /* no memory for even the name: the current error tells */
            if (!name) name = nn_error_kind_name(nn_error_current());
            if (!(strcmp(name, "MemoryError") == 0 || (i == 3 && strcmp(name, "RuntimeError") == 0)))
                fail_msg("program %zu, budget %ld: %s", i, b, name ? name : "(no exception)");
            nn_error_clear();
            repl_interp_free(in);
            free(out.buf);
        }
    }
}

/* A width no string can have (CPython would try to make 10 GB of spaces) is a
   MemoryError before any work; so are center() and friends past it. */
static void test_huge_widths_refused(void **state)
{
    (void)state;
    const char *cases[] = {"'{:10000000000}'.format(1)", "f'{1:{10**10}}'", "'%10000000000d' % 1",
                           "'%10000000000s' % 'a'", "'x'.center(3 * 10**9)", "'7'.zfill(10**12)"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = run_case(cases[i]);
        if (strncmp(got, "exit 1\nMemoryError", 18) != 0) fail_msg("%s: %s", cases[i], got);
        free(got);
    }
}

/* Ctrl-C arrives while a big allocation's work runs: the allocator raises the flag
   when asked for `trigger` bytes or more (0: never), as a user's key would. */
static size_t trigger;
static void *pressing_ctrl_c(void *ud, void *ptr, size_t n)
{
    (void)ud;
    if (n == 0) {
        free(ptr);
        return NULL;
    }
    if (trigger && n >= trigger) nn_interrupt_requested = 1;
    return realloc(ptr, n);
}

static void *press_later(void *arg)
{
    (void)arg;
    usleep(100000);
    nn_interrupt_requested = 1;
    return NULL;
}

/* The exception name statement raises in in (KeyboardInterrupt expected). */
static void expect_interrupt(repl_interp *in, const char *stmt)
{
    if (repl_exec(in, stmt, "<ctrl-c>", REPL_PARSE_FILE, NULL) != -1) fail_msg("%s: ran to its end", stmt);
    const char *name = repl_exception_name(in);
    if (!name || strcmp(name, "KeyboardInterrupt") != 0) fail_msg("%s: %s", stmt, name ? name : "(none)");
    nn_error_clear();
    nn_interrupt_requested = 0;
}

/* Joins, repeats and the consumers of huge ranges stop at Ctrl-C. */
static void test_ctrl_c_stops_builtins(void **state)
{
    (void)state;
    nn_alloc_fn old_fn;
    void *old_ud;
    nn_get_allocator(&old_fn, &old_ud);
    repl_interp *in = repl_interp_new();
    assert_non_null(in);
    tu_capture out = {0};
    repl_set_writer(in, tu_capture_write, &out);
    assert_int_equal(repl_exec(in, "L = ['x'] * 1000000", "<setup>", REPL_PARSE_FILE, NULL), 0);
    /* stopped inside the operation: r keeps its old value */
    static const char *big[] = {"r = ','.join(L)", "r = 'ab' * 10**8", "r = [0] * 10**8", "r = (0, 1) * 10**8"};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        nn_set_allocator(old_fn, old_ud);
        assert_int_equal(repl_exec(in, "r = None", "<setup>", REPL_PARSE_FILE, NULL), 0);
        nn_set_allocator(pressing_ctrl_c, NULL);
        trigger = (size_t)128 << 10;
        expect_interrupt(in, big[i]);
        trigger = 0;
        nn_object *r = repl_get_global(in, "r");
        if (!r || !nn_is_none(r)) fail_msg("%s: r was assigned", big[i]);
    }
    nn_set_allocator(old_fn, old_ud);
    static const char *endless[] = {"sum(range(10**18))", "min(map(abs, range(10**18)))", "any(False for x in range(10**18))",
                                    "','.join(map(str, range(10**18)))"};
    for (size_t i = 0; i < sizeof endless / sizeof *endless; i++) {
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, press_later, NULL), 0);
        expect_interrupt(in, endless[i]);
        pthread_join(t, NULL);
        nn_interrupt_requested = 0;
    }
    /* a Ctrl-C that came while a built-in which does not look (10**10**8, a big matmul)
       ran is not lost: the code after the statement stops, as at CPython's next check */
    nn_interrupt_requested = 1; /* as if it came during `r = 1` */
    expect_interrupt(in, "r = 1\nafter_ctrl_c = 1");
    if (repl_get_global(in, "after_ctrl_c")) fail_msg("the statement after Ctrl-C ran");
    repl_interp_free(in);
    free(out.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpython_cases),
        cmocka_unit_test(test_deep_expression_in_deep_calls), cmocka_unit_test(test_deep_tuple_hash),
        cmocka_unit_test(test_memory_runs_out),
        cmocka_unit_test(test_huge_widths_refused),
        cmocka_unit_test(test_ctrl_c_stops_builtins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
