/*
 * test_debug.c — the debugger (repl/debug.c) through repl_app_run_cell, its
 * commands fed by repl_debug_read_line: %debug after an uncaught exception
 * (p of the failing frame's locals, w, u/d and their ends, l, ll, statements in
 * the frame, errors as pdb's "*** Name: message"), %pdb on/off, breakpoint()
 * (c goes on with what the frame holds, q raises BdbQuit), and that a failing
 * debugger command leaves the post-mortem frames and the cell's output alone.
 */
#include "test_util.h"
#include "repl/app.h"
#include "repl/bind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tu_capture out, err; /* what the notebook printed since the last run() */

/* The commands the debugger reads, one per call, NULL after the last. */
static const char *const *commands;
static int next_command;
static char *feed(void)
{
    if (!commands || !commands[next_command]) return NULL;
    return nn_strdup(commands[next_command++]);
}

static repl_app *new_app(void)
{
    repl_bindings_install();
    repl_app_options opt = {.interactive = true, .record = false};
    repl_app *app = TU_OK(repl_app_new(&opt));
    app->out_write = tu_capture_write, app->out_ud = &out;
    app->err_write = tu_capture_write, app->err_ud = &err;
    repl_debug_read_line = feed;
    return app;
}

static int run(repl_app *app, const char *source, const char *const *cmds)
{
    tu_capture_reset(&out);
    tu_capture_reset(&err);
    commands = cmds;
    next_command = 0;
    return repl_app_run_cell(app, source, NULL);
}

static void assert_has(const char *hay, const char *needle)
{
    if (!strstr(hay, needle)) fail_msg("[%s] not in\n[%s]", needle, hay);
}

static const char *const defs = "def f(x):\n    y = x * 2\n    return 1 / (x - 3)\n\n"
                                "def g(a):\n    z = a + 1\n    return f(z)\n";

static void test_post_mortem(void **state)
{
    (void)state;
    repl_app *app = new_app();
    assert_int_equal(run(app, "%debug", NULL), 0);
    assert_string_equal(out.buf, "No traceback has been produced, nothing to debug.\n");
    assert_int_equal(run(app, defs, NULL), 0);
    assert_int_equal(run(app, "g(2)", NULL), -1);
    const char *const cmds[] = {"p y", "p x + 100", "w", "d", "u", "p z", "u 5", "u", "d", "l", "ll", "p nope", "p",
                                "y = 42", "p y", "x * 10", "!t = 7", "p t", "", "h", "q", "p y", NULL};
    assert_int_equal(run(app, "%debug", cmds), 0);
    assert_int_equal(next_command, 21); /* q left it */
    const char *o = out.buf;
    /* the innermost frame first, as pdb's post_mortem */
    const char *start = "> <ipython-input-2>(3)f()\n-> return 1 / (x - 3)\nipdb> 6\nipdb> 103\n";
    if (strncmp(o, start, strlen(start))) fail_msg("the dialogue starts\n[%s]", o);
    assert_has(o, "ipdb>   <ipython-input-3>(1)<module>()\n-> g(2)\n"
                  "  <ipython-input-2>(7)g()\n-> return f(z)\n"
                  "> <ipython-input-2>(3)f()\n-> return 1 / (x - 3)\n");
    assert_has(o, "ipdb> *** Newest frame\n");
    assert_has(o, "ipdb> > <ipython-input-2>(7)g()\n-> return f(z)\nipdb> 3\n");
    assert_has(o, "ipdb> > <ipython-input-3>(1)<module>()\n-> g(2)\nipdb> *** Oldest frame\n");
    /* l in g's frame: the lines around 7, the current one marked */
    assert_has(o, "ipdb>   2  \t    y = x * 2\n");
    assert_has(o, "  7  ->\t    return f(z)\n");
    /* ll: g's def to its end only */
    assert_has(o, "ipdb>   5  \tdef g(a):\n  6  \t    z = a + 1\n  7  ->\t    return f(z)\nipdb> ");
    assert_has(o, "ipdb> *** NameError: name 'nope' is not defined\n");
    assert_has(o, "ipdb> *** SyntaxError: invalid syntax\n");
    /* statements run in g's frame: a new local there, an expression's repr */
    assert_has(o, "ipdb> ipdb> 42\nipdb> *** NameError: name 'x' is not defined\n");
    assert_has(o, "ipdb> ipdb> 7\n");
    assert_has(o, "Documented commands");
    /* nothing of the dialogue is the cell's output; globals untouched */
    assert_string_equal(app->last.output, "");
    assert_int_equal(run(app, "print('y' in dir(), 'z' in dir())", NULL), 0);
    assert_string_equal(out.buf, "False False\n");
    /* the failing commands did not replace the frames: %debug again is in f */
    const char *const again[] = {"p y", "c", NULL};
    assert_int_equal(run(app, "%debug", again), 0);
    assert_has(out.buf, "> <ipython-input-2>(3)f()\n-> return 1 / (x - 3)\nipdb> 6\nipdb> ");
    /* a new uncaught exception replaces them; Ctrl-D leaves */
    assert_int_equal(run(app, "w = 5\nw.nope", NULL), -1);
    const char *const eof[] = {"p w", NULL};
    assert_int_equal(run(app, "%debug", eof), 0);
    assert_has(out.buf, "> <ipython-input-7>(2)<module>()\n-> w.nope\nipdb> 5\nipdb> \n");
    assert_int_equal(run(app, "%debug now", NULL), -1);
    assert_has(err.buf, "UsageError");
    repl_app_free(app);
    repl_debug_read_line = NULL;
}

static void test_automatic_pdb(void **state)
{
    (void)state;
    repl_app *app = new_app();
    assert_int_equal(run(app, defs, NULL), 0);
    assert_int_equal(run(app, "%pdb on", NULL), 0);
    assert_string_equal(out.buf, "Automatic pdb calling has been turned ON\n");
    const char *const cmds[] = {"p y", "q", NULL};
    assert_int_equal(run(app, "g(2)", cmds), -1);
    assert_has(err.buf, "ZeroDivisionError: division by zero");
    assert_has(out.buf, "> <ipython-input-1>(3)f()\n-> return 1 / (x - 3)\nipdb> 6\nipdb> ");
    assert_int_equal(next_command, 2);
    /* a cell that works opens nothing; %pdb toggles */
    assert_int_equal(run(app, "1 + 1", cmds), 0);
    assert_int_equal(next_command, 0);
    assert_int_equal(run(app, "%pdb", NULL), 0);
    assert_string_equal(out.buf, "Automatic pdb calling has been turned OFF\n");
    assert_int_equal(run(app, "g(2)", cmds), -1);
    assert_int_equal(next_command, 0);
    assert_int_equal(run(app, "%pdb maybe", NULL), -1);
    assert_has(err.buf, "UsageError: usage: %pdb [on|off]");
    repl_app_free(app);
    repl_debug_read_line = NULL;
}

static void test_breakpoint(void **state)
{
    (void)state;
    repl_app *app = new_app();
    assert_int_equal(run(app, "def h(n):\n    total = 0\n    for i in range(n):\n        total += i\n"
                              "        if i == 2:\n            breakpoint()\n    return total\n",
                         NULL), 0);
    /* c: the function goes on, with what the debugger changed in its frame */
    const char *const cont[] = {"p total, i", "w", "total = 100", "c", NULL};
    assert_int_equal(run(app, "h(5)", cont), 0);
    assert_has(out.buf, "> <ipython-input-1>(6)h()\n-> breakpoint()\nipdb> (3, 2)\n");
    assert_has(out.buf, "ipdb>   <ipython-input-2>(1)<module>()\n-> h(5)\n> <ipython-input-1>(6)h()\n");
    assert_has(out.buf, "Out[2]: 107\n");
    /* q: the cell stops with BdbQuit */
    const char *const quit[] = {"q", NULL};
    assert_int_equal(run(app, "h(5)", quit), -1);
    assert_has(err.buf, "BdbQuit");
    /* at module level the frame is __main__ */
    const char *const top[] = {"p k", "k = 9", "c", NULL};
    assert_int_equal(run(app, "k = 3\nbreakpoint()\nprint(k)", top), 0);
    assert_has(out.buf, "ipdb> 3\nipdb> ipdb> 9\n");
    /* in a replay (headless) it does nothing */
    app->opt.headless = true;
    assert_int_equal(run(app, "h(5)", quit), 0);
    assert_int_equal(next_command, 0);
    repl_app_free(app);
    repl_debug_read_line = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post_mortem),
        cmocka_unit_test(test_automatic_pdb),
        cmocka_unit_test(test_breakpoint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
