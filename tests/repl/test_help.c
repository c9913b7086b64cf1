/*
 * test_help.c — golden tests of `obj?` and `obj??` (help.c, IPython 8's
 * pinfo layout): each query's text must equal tests/fixtures/help/NAME.txt.
 * After a deliberate change of the format, NNSCOPE_UPDATE_GOLDEN=1 rewrites
 * the files (then read the diff before committing it).
 */
#include "test_util.h"
#include "repl/app.h"
#include "repl/bind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tu_capture out, err;

static const char *const setup_cells[] = {
    "import torch\nimport torch.nn as nn",
    "def add(x, y=2):\n    \"Adds y to x.\"\n    return x + y\n",
    "sq = lambda t: t * t",
    "class Block(nn.Module):\n"
    "    \"A linear layer.\"\n"
    "    def __init__(self, n):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(n, n)\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.fc(x)\n",
    "class Plain:\n    pass\n",
    "model = nn.Sequential(nn.Linear(2, 3), nn.GELU())",
    "b = Block(2)",
    "n = 3",
    "xs = list(range(100))",
};

static const struct {
    const char *query, *golden;
} queries[] = {
    {"add?", "function"},          {"add??", "function_source"}, {"sq??", "lambda_source"},
    {"Block?", "class"},           {"Block??", "class_source"},  {"Plain??", "class_no_methods"},
    {"nn.GELU?", "native_class"},  {"model?", "module_instance"}, {"b??", "instance_source"},
    {"n?", "int"},                 {"xs?", "long_string_form"},  {"torch.randn?", "builtin_function"},
    {"nope?", "not_found"},        {"nn.Linear?", "linear"},     {"nn.PReLU?", "prelu"},
    {"nn.Sequential?", "sequential"},
};

static void test_golden(void **state)
{
    (void)state;
    repl_bindings_install();
    repl_app_options opt = {.interactive = true, .record = false};
    repl_app *app = TU_OK(repl_app_new(&opt));
    app->out_write = tu_capture_write, app->out_ud = &out;
    app->err_write = tu_capture_write, app->err_ud = &err;
    for (size_t i = 0; i < sizeof setup_cells / sizeof *setup_cells; i++) {
        tu_capture_reset(&out);
        tu_capture_reset(&err);
        if (repl_app_run_cell(app, setup_cells[i], NULL) != 0) fail_msg("setup cell %zu: %s", i, err.buf);
    }
    bool update = getenv("NNSCOPE_UPDATE_GOLDEN") != NULL;
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
        tu_capture_reset(&out);
        tu_capture_reset(&err);
        assert_int_equal(repl_app_run_cell(app, queries[i].query, NULL), 0);
        char path[256];
        snprintf(path, sizeof path, "fixtures/help/%s.txt", queries[i].golden);
        if (update) {
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fputs(out.buf, f);
            fclose(f);
            continue;
        }
        FILE *f = fopen(path, "r");
        if (!f) fail_msg("no golden file %s", path);
        static char want[65536];
        size_t n = fread(want, 1, sizeof want - 1, f);
        want[n] = '\0';
        fclose(f);
        if (strcmp(out.buf, want)) fail_msg("%s printed\n[%s]\nnot %s:\n[%s]", queries[i].query, out.buf, path, want);
    }
    repl_app_free(app);
    repl_bindings_shutdown();
    free(out.buf);
    free(err.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_golden)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
