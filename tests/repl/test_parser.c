/*
 * test_parser.c — the lexer and parser against CPython 3.11: ast.dump() of
 * every corpus snippet, syntax errors (type, message, line, offset), the
 * REPL's incomplete-vs-invalid result, failing allocations and deep nesting.
 * Fixtures come from tests/fixtures/gen_ast.py.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/ast.h"

typedef struct record {
    char kind[16];
    char *source;     /* malloc'd */
    char *expected;   /* malloc'd */
} record;

static record *records;
static int nrecords;

/* Reads fixtures/ast_dump.txt: "@@ kind\nsource...@@ =\nexpected\n" records. */
static void load_records(void)
{
    if (records) return;
    char *text = tu_read_file("fixtures/ast_dump.txt");
    int cap = 0;
    char *p = text;
    while ((p = strstr(p, "@@ ")) && p[3] != '=') {
        char *eol = strchr(p, '\n');
        char *src = eol + 1;
        char *sep = strstr(src, "@@ =\n");
        assert_non_null(sep);
        char *exp = sep + 5;
        char *exp_end = strchr(exp, '\n');
        if (nrecords == cap) {
            cap = cap ? 2 * cap : 256;
            records = realloc(records, (size_t)cap * sizeof *records);
        }
        record *r = &records[nrecords++];
        snprintf(r->kind, sizeof r->kind, "%.*s", (int)(eol - p - 3), p + 3);
        r->source = strndup(src, (size_t)(sep - src));
        r->expected = strndup(exp, (size_t)(exp_end - exp));
        p = exp_end + 1;
    }
    free(text);
}

static int group_setup(void **state)
{
    (void)state;
    load_records();
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    for (int i = 0; i < nrecords; i++) {
        free(records[i].source);
        free(records[i].expected);
    }
    free(records);
    return 0;
}

static void test_dumps_match_cpython(void **state)
{
    (void)state;
    int n = 0, bad = 0;
    for (int i = 0; i < nrecords; i++) {
        if (strcmp(records[i].kind, "dump") != 0) continue;
        n++;
        repl_ast_arena *arena;
        repl_parse_error err;
        repl_node *tree = repl_parse(records[i].source, "<test>", REPL_PARSE_FILE, &arena, &err);
        if (!tree) {
            printf("parse failed: %s\n--- %s\n", records[i].source, nn_error_message());
            bad++;
            continue;
        }
        char *dump = repl_ast_dump(tree);
        assert_non_null(dump);
        if (strcmp(dump, records[i].expected) != 0) {
            printf("mismatch for:\n%s--- got\n%s\n--- expected\n%s\n", records[i].source, dump, records[i].expected);
            bad++;
        }
        nn_free(dump);
        repl_ast_arena_free(arena);
    }
    assert_true(n >= 150);
    assert_int_equal(bad, 0);
}

static void test_syntax_errors_match_cpython(void **state)
{
    (void)state;
    int n = 0, bad = 0;
    for (int i = 0; i < nrecords; i++) {
        if (strcmp(records[i].kind, "error") != 0) continue;
        n++;
        repl_ast_arena *arena = (repl_ast_arena *)1;
        repl_parse_error err;
        nn_error_clear();
        repl_node *tree = repl_parse(records[i].source, "<test>", REPL_PARSE_FILE, &arena, &err);
        assert_null(arena);
        char got[600];
        if (tree) {
            snprintf(got, sizeof got, "(parsed)");
        } else {
            const char *type = nn_error_kind_name(nn_error_current());
            snprintf(got, sizeof got, "%s\t%s\t%d\t%d", type, nn_error_message(), err.line, err.offset);
            if (err.status != REPL_PARSE_INVALID) snprintf(got, sizeof got, "(status %d)", err.status);
        }
        if (strcmp(got, records[i].expected) != 0) {
            printf("error mismatch for:\n%s--- got\n%s\n--- expected\n%s\n", records[i].source, got,
                   records[i].expected);
            bad++;
        }
    }
    nn_error_clear();
    assert_true(n >= 30);
    assert_int_equal(bad, 0);
}

static repl_parse_status single(const char *source)
{
    repl_ast_arena *arena;
    repl_parse_error err;
    repl_node *tree = repl_parse(source, "<stdin>", REPL_PARSE_SINGLE, &arena, &err);
    repl_ast_arena_free(arena);
    nn_error_clear();
    return tree ? REPL_PARSE_OK : err.status;
}

static void test_incomplete_input(void **state)
{
    (void)state;
    int n = 0;
    for (int i = 0; i < nrecords; i++) {
        if (strcmp(records[i].kind, "incomplete") != 0) continue;
        n++;
        char *src = strdup(records[i].source);
        size_t len = strlen(src);       /* as the console passes it: no final newline */
        while (len > 0 && src[len - 1] == '\n') src[--len] = '\0';
        repl_ast_arena *arena;
        repl_parse_error err;
        repl_node *tree = repl_parse(src, "<stdin>", REPL_PARSE_SINGLE, &arena, &err);
        if (tree || err.status != REPL_PARSE_INCOMPLETE)
            printf("not incomplete: %s (%s)\n", src, nn_error_message());
        assert_null(tree);
        assert_int_equal(err.status, REPL_PARSE_INCOMPLETE);
        tu_assert_error(NN_ERR_SYNTAX, "incomplete input");
        free(src);
    }
    assert_true(n >= 10);
    /* complete after the empty line, or complete at once */
    assert_int_equal(single("x = 1"), REPL_PARSE_OK);
    assert_int_equal(single("if x:\n    y = 1\n"), REPL_PARSE_OK);
    assert_int_equal(single("def f():\n    return 1\n"), REPL_PARSE_OK);
    /* invalid, not incomplete */
    assert_int_equal(single("x = 1 +"), REPL_PARSE_INVALID);
    assert_int_equal(single("x = )"), REPL_PARSE_INVALID);
    assert_int_equal(single("if x:\n"), REPL_PARSE_INVALID);
    assert_int_equal(single("\"abc"), REPL_PARSE_INVALID);
    /* the same incomplete sources in file mode are errors */
    repl_ast_arena *arena;
    repl_parse_error err;
    assert_null(repl_parse("x = (1,", "<f>", REPL_PARSE_FILE, &arena, &err));
    assert_int_equal(err.status, REPL_PARSE_INVALID);
    tu_assert_error(NN_ERR_SYNTAX, "'(' was never closed");
}

static void test_eval_mode(void **state)
{
    (void)state;
    repl_ast_arena *arena;
    repl_parse_error err;
    repl_node *tree = TU_OK(repl_parse("a + 1", "<eval>", REPL_PARSE_EVAL, &arena, &err));
    char *dump = TU_OK(repl_ast_dump(tree));
    assert_string_equal(dump, "Expression(body=BinOp(left=Name(id='a', ctx=Load()), op=Add(), right=Constant(value=1)))");
    nn_free(dump);
    repl_ast_arena_free(arena);
    assert_null(repl_parse("x = 1", "<eval>", REPL_PARSE_EVAL, &arena, &err));
    tu_assert_error(NN_ERR_SYNTAX, "invalid syntax");
    /* overflowing int literals keep their digits for the evaluator */
    tree = TU_OK(repl_parse("99999999999999999999", "<eval>", REPL_PARSE_EVAL, &arena, &err));
    assert_true(tree->v.Expression.body->v.Constant.overflow);
    assert_string_equal(tree->v.Expression.body->v.Constant.s, "99999999999999999999");
    repl_ast_arena_free(arena);
}

static void test_deep_nesting_is_refused(void **state)
{
    (void)state;
    size_t n = 100000;
    char *src = malloc(2 * n + 2);
    repl_ast_arena *arena;
    repl_parse_error err;
    /* unary chains, not-chains and lambdas: no brackets, still bounded; past its
       parser's stack CPython 3.11 raises MemoryError (no message) for each */
    const char *units[] = {"-", "not ", "lambda: ", "~", "1**"};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t k = 0, len = strlen(units[u]);
        while (k + len < 2 * n) { memcpy(src + k, units[u], len); k += len; }
        strcpy(src + k, "1");
        assert_null(repl_parse(src, "<deep>", REPL_PARSE_FILE, &arena, &err));
        assert_int_equal(err.status, REPL_PARSE_FAILED);
        tu_assert_error(NN_ERR_MEMORY, "");
    }
    /* 3000 levels parse but do not compile: RecursionError, as CPython's compiler */
    size_t k = 0;
    for (int i = 0; i < 3000; i++, k += 4) memcpy(src + k, "not ", 4);
    strcpy(src + k, "1");
    assert_null(repl_parse(src, "<deep>", REPL_PARSE_FILE, &arena, &err));
    tu_assert_error(NN_ERR_RECURSION, "maximum recursion depth exceeded during compilation");
    memset(src, '[', n);
    src[n] = '\0';
    assert_null(repl_parse(src, "<deep>", REPL_PARSE_FILE, &arena, &err));
    tu_assert_error(NN_ERR_SYNTAX, "too many nested parentheses");
    /* nested f-strings and a nested block structure within limits parse */
    assert_non_null(repl_parse("f'{f\"{x:{w}}\"}'", "<f>", REPL_PARSE_FILE, &arena, &err));
    repl_ast_arena_free(arena);
    free(src);
}


static const char *workload_source =
    "import torch.nn as nn\n"
    "class Model(nn.Module):\n"
    "    def __init__(self, n=4, *a, **k):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(n, 8)\n"
    "    @torch.no_grad()\n"
    "    def forward(self, x):\n"
    "        return [f'{v:.4f} {s!r}' for v in x[:, 1:3] if v > 0]\n"
    "try:\n    d = {'a': (1, 2.5), **e}\nexcept E as e:\n    raise\nfinally:\n    del d\n";

static int workload(void)
{
    repl_ast_arena *arena;
    repl_parse_error err;
    repl_node *tree = repl_parse(workload_source, "<w>", REPL_PARSE_FILE, &arena, &err);
    if (!tree) return -1;
    char *dump = repl_ast_dump(tree);
    repl_ast_arena_free(arena);
    if (!dump) return -1;
    nn_free(dump);
    return 0;
}

static void test_failing_allocations_report_memory_error(void **state)
{
    (void)state;
    tu_allocator old;
    tu_install_failing_alloc(&old);
    assert_int_equal(workload(), 0);
    long total = tu_alloc_count;
    assert_true(total > 5);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        assert_int_equal(workload(), -1);
        assert_int_equal(nn_error_current(), NN_ERR_MEMORY);
    }
    nn_error_clear();
    tu_restore_allocator(&old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dumps_match_cpython),
        cmocka_unit_test(test_syntax_errors_match_cpython),
        cmocka_unit_test(test_incomplete_input),
        cmocka_unit_test(test_eval_mode),
        cmocka_unit_test(test_deep_nesting_is_refused),
        cmocka_unit_test(test_failing_allocations_report_memory_error),
    };
    return cmocka_run_group_tests_name("parser", tests, group_setup, group_teardown);
}
