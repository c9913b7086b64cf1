/*
 * test_traceback.c — uncaught exceptions print CPython 3.11's traceback: each
 * entry's file, line and function, its source line and, where CPython prints
 * one, the ^^^ line under the failing expression (~~^~~ for a binary
 * operator, ~^^^ for a subscript), <listcomp> entries and the line of a
 * multi-line statement where the failing part is; and chained exceptions
 * (raise ... from, __context__) with each one's traceback. The expected text comes from
 * /usr/bin/python3 (tests/fixtures/gen_tracebacks.py).
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/repl.h"

/* Runs every record of the fixture file and compares; returns how many differ, *count the records. */
static int check_fixture(const char *path, int *count)
{
    char *text = tu_read_file(path);
    int n = 0, bad = 0;
    for (char *p = text; (p = strstr(p, "@@ case\n"));) {
        char *src = p + 8, *sep = strstr(src, "@@ =\n");
        assert_non_null(sep);
        char *exp = sep + 5, *end = strstr(exp, "@@ end\n");
        assert_non_null(end);
        char *source = strndup(src, (size_t)(sep - src));
        char *expected = strndup(exp, (size_t)(end - exp));
        size_t el = strlen(expected);
        if (el && expected[el - 1] == '\n') expected[el - 1] = 0;   /* repl_traceback has no final newline */
        repl_interp *in = repl_interp_new();
        tu_capture out = {0};
        repl_set_writer(in, tu_capture_write, &out);
        int rc = repl_exec(in, source, "case.py", REPL_PARSE_FILE, NULL);
        char *tb = rc == -1 ? repl_traceback(in) : NULL;
        if (!tb || strcmp(tb, expected) != 0) {
            printf("traceback mismatch for:\n%s--- got\n%s\n--- expected\n%s\n", source, tb ? tb : "(none)", expected);
            bad++;
        }
        n++;
        nn_free(tb);
        nn_error_clear();
        repl_interp_free(in);
        free(out.buf);
        free(source);
        free(expected);
        p = end + 7;
    }
    free(text);
    *count = n;
    return bad;
}

static void test_tracebacks_match_cpython(void **state)
{
    (void)state;
    int n = 0;
    assert_int_equal(check_fixture("fixtures/tracebacks.txt", &n), 0);
    assert_true(n >= 40);
}

/* raise ... from, implicit __context__, from None, re-raises keeping their
   entries (tests/fixtures/gen_tracebacks_chain.py) */
static void test_chained_tracebacks_match_cpython(void **state)
{
    (void)state;
    int n = 0;
    assert_int_equal(check_fixture("fixtures/tracebacks_chain.txt", &n), 0);
    assert_true(n >= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracebacks_match_cpython),
        cmocka_unit_test(test_chained_tracebacks_match_cpython),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
