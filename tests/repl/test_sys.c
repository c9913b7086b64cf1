/*
 * test_sys.c — the sys module's argv as main.c sets it (repl_bind_set_argv): ['']
 * without a script (the notebook), then the forms python gives for `-c CODE a b`
 * and `- x` (tests/scripts/sys_module.py covers `nnscope FILE.py`); an uncaught
 * SystemExit in a script cell and in a notebook cell (tests/scripts/sys_exit.py
 * checks the program's exit status).
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "repl/app.h"
#include "repl/bind.h"
#include "repl/repl.h"

/* What `import sys; print(sys.argv)` prints in a fresh interpreter (sys made anew). */
static void assert_argv_prints(const char *want)
{
    repl_bindings_shutdown(); /* drops the cached sys, so the next import reads the argv set now */
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    repl_set_writer(in, tu_capture_write, &out);
    assert_int_equal(repl_exec(in, "import sys\nprint(sys.argv)\n", "argv.py", REPL_PARSE_FILE, NULL), 0);
    assert_string_equal(out.buf, want);
    free(out.buf);
    repl_interp_free(in);
}

static void test_argv_forms(void **state)
{
    (void)state;
    assert_argv_prints("['']\n");
    static const char *const code_args[] = {"-c", "a", "b c"};
    repl_bind_set_argv(3, code_args);
    assert_argv_prints("['-c', 'a', 'b c']\n");
    static const char *const stdin_args[] = {"-", "x"};
    repl_bind_set_argv(2, stdin_args);
    assert_argv_prints("['-', 'x']\n");
    repl_bind_set_argv(0, NULL);
    assert_argv_prints("['']\n");
}

static void test_system_exit_ends_a_script_quietly(void **state)
{
    (void)state;
    repl_app_options opt = {.interactive = false, .record = false};
    repl_app *app = TU_OK(repl_app_new(&opt));
    tu_capture err = {0};
    app->err_write = tu_capture_write, app->err_ud = &err;
    assert_int_equal(repl_app_run_cell(app, "import sys\nsys.exit(3)\n", "x.py"), -1);
    assert_true(app->exit_requested);
    assert_int_equal(app->exit_status, 3);
    assert_null(err.buf); /* no traceback, no message for an int code */
    assert_int_equal(repl_app_run_cell(app, "sys.exit('bye')\n", "x.py"), -1);
    assert_int_equal(app->exit_status, 1);
    assert_string_equal(err.buf, "bye\n");
    free(err.buf);
    repl_app_free(app);
}

static void test_system_exit_in_the_notebook_goes_on(void **state)
{
    (void)state;
    repl_app_options opt = {.interactive = true, .record = false};
    repl_app *app = TU_OK(repl_app_new(&opt));
    tu_capture err = {0};
    app->err_write = tu_capture_write, app->err_ud = &err;
    assert_int_equal(repl_app_run_cell(app, "import sys", NULL), 0);
    assert_int_equal(repl_app_run_cell(app, "sys.exit(3)", NULL), -1);
    assert_false(app->exit_requested);
    assert_string_equal(err.buf, "An exception has occurred, use %tb to see the full traceback.\n\nSystemExit: 3\n");
    tu_capture_reset(&err);
    assert_int_equal(repl_app_run_cell(app, "x = 1", NULL), 0);
    free(err.buf);
    repl_app_free(app);
}

int main(void)
{
    repl_bindings_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_argv_forms),
        cmocka_unit_test(test_system_exit_ends_a_script_quietly),
        cmocka_unit_test(test_system_exit_in_the_notebook_goes_on),
    };
    int rc = cmocka_run_group_tests_name("sys", tests, NULL, NULL);
    repl_bindings_shutdown();
    return rc;
}
