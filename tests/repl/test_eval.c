/*
 * test_eval.c — the evaluator through its C API: single-input echo values,
 * traceback text, Ctrl-C, runaway recursion, ints past 64 bits, failing
 * allocations and module subclasses. The language's script tests are
 * tests/scripts/NAME.py, run through build/nnscope by tests/run.sh.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/bind.h"
#include "repl/repl.h"

/* Runs source as a file named filename; returns repl_exec's status, output in *out. */
static int run(repl_interp *in, const char *source, const char *filename, tu_capture *out)
{
    repl_set_writer(in, tu_capture_write, out);
    if (!out->buf) tu_capture_write(out, "", 0);
    return repl_exec(in, source, filename, REPL_PARSE_FILE, NULL);
}

/* The last line of the last traceback (malloc'd). */
static char *traceback_last_line(repl_interp *in)
{
    char *tb = repl_traceback(in);
    assert_non_null(tb);
    char *nl = strrchr(tb, '\n');
    char *line = strdup(nl ? nl + 1 : tb);
    nn_free(tb);
    return line;
}

/* ------------------------------------------------------------ single input */

static void test_single_input_echoes_last_expression(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    repl_set_writer(in, tu_capture_write, &out);
    nn_object *r = NULL;
    assert_int_equal(repl_exec(in, "x = 6 * 7", "<stdin>", REPL_PARSE_SINGLE, &r), 0);
    assert_null(r);
    assert_int_equal(repl_exec(in, "x + 1", "<stdin>", REPL_PARSE_SINGLE, &r), 0);
    assert_non_null(r);
    assert_true(nn_is_int(r));
    assert_int_equal(nn_int_value(r), 43);
    NN_RELEASE(r);
    assert_int_equal(repl_exec(in, "[x, 'a']", "<stdin>", REPL_PARSE_SINGLE, &r), 0);
    char *s = nn_repr(r);
    assert_string_equal(s, "[42, 'a']");
    nn_free(s);
    NN_RELEASE(r);
    /* None is not echoed; print's output is */
    assert_int_equal(repl_exec(in, "print('hi')", "<stdin>", REPL_PARSE_SINGLE, &r), 0);
    assert_null(r);
    assert_string_equal(out.buf, "hi\n");
    /* _ holds the last echoed value */
    assert_int_equal(repl_exec(in, "_", "<stdin>", REPL_PARSE_SINGLE, &r), 0);
    s = nn_repr(r);
    assert_string_equal(s, "[42, 'a']");
    nn_free(s);
    NN_RELEASE(r);
    /* incomplete input asks for more lines */
    assert_int_equal(repl_exec(in, "def f():", "<stdin>", REPL_PARSE_SINGLE, &r), -2);
    nn_error_clear();
    assert_int_equal(repl_exec(in, "def f():\n    return x\n", "<stdin>", REPL_PARSE_SINGLE, &r), 0);
    assert_int_equal(repl_exec(in, "f()", "<stdin>", REPL_PARSE_SINGLE, &r), 0);
    assert_int_equal(nn_int_value(r), 42);
    NN_RELEASE(r);
    /* eval mode */
    assert_int_equal(repl_exec(in, "x // 5", "<stdin>", REPL_PARSE_EVAL, &r), 0);
    assert_int_equal(nn_int_value(r), 8);
    NN_RELEASE(r);
    /* state survives a failed cell */
    assert_int_equal(repl_exec(in, "y = 1\nraise ValueError('v')", "<stdin>", REPL_PARSE_SINGLE, &r), -1);
    tu_assert_error(NN_ERR_VALUE, "v");
    assert_string_equal(repl_exception_name(in), "ValueError");
    assert_int_equal(repl_exec(in, "x + y", "<stdin>", REPL_PARSE_SINGLE, &r), 0);
    assert_int_equal(nn_int_value(r), 43);
    NN_RELEASE(r);
    repl_interp_free(in);
    free(out.buf);
}

/* ------------------------------------------------------------ tracebacks */

/* A syntax error prints its line and a caret under the offset, as CPython 3.11 does
   for a file (the texts below are what /usr/bin/python3 printed for the same files). */
static void test_syntax_error_caret(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    assert_int_equal(run(in, "print('never')\nx = (1,\n     2))\n", "x.py", &out), -1);
    char *tb = repl_traceback(in);
    assert_string_equal(tb, "  File \"x.py\", line 3\n"
                            "    2))\n"
                            "      ^\n"
                            "SyntaxError: unmatched ')'");
    nn_free(tb);
    assert_int_equal(run(in, "def f():\n    x = 1 +\n", "y.py", &out), -1);
    tb = repl_traceback(in);
    assert_string_equal(tb, "  File \"y.py\", line 2\n"
                            "    x = 1 +\n"
                            "           ^\n"
                            "SyntaxError: invalid syntax");
    nn_free(tb);
    /* the compiler's errors mark the whole statement or expression (^^^^) */
    static const struct {
        const char *src, *want;
    } ranges[] = {
        {"x = 1\nreturn x + 1\n", "  File \"z.py\", line 2\n    return x + 1\n    ^^^^^^^^^^^^\n"
                                  "SyntaxError: 'return' outside function"},
        {"x = 1\ny = yield x\n", "  File \"z.py\", line 2\n    y = yield x\n        ^^^^^^^\n"
                                 "SyntaxError: 'yield' outside function"},
        {"class A:\n    z = yield\n", "  File \"z.py\", line 2\n    z = yield\n        ^^^^^\n"
                                     "SyntaxError: 'yield' outside function"},
        {"if True:\n    break\n", "  File \"z.py\", line 2\n    break\n    ^^^^^\n"
                                 "SyntaxError: 'break' outside loop"},
        /* an error at the end of a file: no caret (CPython's offset 0 there) */
        {"try:\n    pass\n", "  File \"z.py\", line 2\n    pass\nSyntaxError: expected 'except' or 'finally' block"},
        {"x = 1\ntry:\n    x = 2\nprint(x)\n", "  File \"z.py\", line 4\n    print(x)\n    ^^^^^\n"
                                              "SyntaxError: expected 'except' or 'finally' block"},
        {"def f():\n", "  File \"z.py\", line 1\n    def f():\n"
                       "IndentationError: expected an indented block after function definition on line 1"},
        /* an error in an f-string's text: one caret just past the literal */
        {"x = 1\nprint(f\"{x!z}\")\n", "  File \"z.py\", line 2\n    print(f\"{x!z}\")\n                  ^\n"
                                     "SyntaxError: f-string: invalid conversion character: expected 's', 'r', or 'a'"},
        {"print(f\"{}\")\n", "  File \"z.py\", line 1\n    print(f\"{}\")\n               ^\n"
                             "SyntaxError: f-string: empty expression not allowed"},
        {"print(f\"{x\")\n", "  File \"z.py\", line 1\n    print(f\"{x\")\n               ^\n"
                             "SyntaxError: f-string: expecting '}'"},
        {"print(f\"}\")\n", "  File \"z.py\", line 1\n    print(f\"}\")\n              ^\n"
                            "SyntaxError: f-string: single '}' is not allowed"},
        /* an error in a field's expression: CPython shows the expression in parentheses */
        {"x = f\"{a b}\"\n", "  File \"z.py\", line 1\n    (a b)\n     ^^^\n"
                           "SyntaxError: f-string: invalid syntax. Perhaps you forgot a comma?"},
        {"f\"{1 +}\"\n", "  File \"z.py\", line 1\n    (1 +)\n        ^\nSyntaxError: f-string: invalid syntax"},
        {"f\"{a;b}\"\n", "  File \"z.py\", line 1\n    (a;b)\n      ^\nSyntaxError: f-string: invalid syntax"},
        {"f\"{)}\"\n", "  File \"z.py\", line 1\n    f\"{)}\"\n          ^\nSyntaxError: f-string: unmatched ')'"},
        {"try:\n    pass\nexcept\n", "  File \"z.py\", line 3\n    except\n          ^\nSyntaxError: expected ':'"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++) {
        assert_int_equal(run(in, ranges[i].src, "z.py", &out), -1);
        tb = repl_traceback(in);
        assert_string_equal(tb, ranges[i].want);
        nn_free(tb);
    }
    assert_string_equal(out.buf, "");
    nn_error_clear();
    repl_interp_free(in);
    free(out.buf);
}

static void test_traceback_text(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    const char *src = "def inner(d):\n"
                      "    return d['missing']\n"
                      "\n"
                      "def outer():\n"
                      "    return inner({})\n"
                      "print('start')\n"
                      "outer()\n";
    assert_int_equal(run(in, src, "x.py", &out), -1);
    tu_assert_error(NN_ERR_KEY, "'missing'");
    char *tb = repl_traceback(in);
    assert_string_equal(tb, "Traceback (most recent call last):\n"
                            "  File \"x.py\", line 7, in <module>\n"
                            "    outer()\n"
                            "  File \"x.py\", line 5, in outer\n"
                            "    return inner({})\n"
                            "           ^^^^^^^^^\n"
                            "  File \"x.py\", line 2, in inner\n"
                            "    return d['missing']\n"
                            "           ~^^^^^^^^^^^\n"
                            "KeyError: 'missing'");
    nn_free(tb);
    assert_string_equal(out.buf, "start\n");
    /* a caught exception leaves no traceback behind; the next one is fresh */
    assert_int_equal(run(in, "try:\n    outer()\nexcept KeyError:\n    pass\nraise RuntimeError('second')\n", "y.py", &out), -1);
    tb = repl_traceback(in);
    assert_string_equal(tb, "Traceback (most recent call last):\n"
                            "  File \"y.py\", line 5, in <module>\n"
                            "    raise RuntimeError('second')\n"
                            "RuntimeError: second");
    nn_free(tb);
    nn_error_clear();
    /* <stdin> cells show no source lines; a function from an earlier cell keeps its file */
    assert_int_equal(repl_exec(in, "def g():\n    1 / 0\n", "<stdin>", REPL_PARSE_SINGLE, NULL), 0);
    assert_int_equal(repl_exec(in, "g()", "<stdin>", REPL_PARSE_SINGLE, NULL), -1);
    tb = repl_traceback(in);
    assert_string_equal(tb, "Traceback (most recent call last):\n"
                            "  File \"<stdin>\", line 1, in <module>\n"
                            "  File \"<stdin>\", line 2, in g\n"
                            "ZeroDivisionError: division by zero");
    nn_free(tb);
    tu_assert_error(NN_ERR_ZERO_DIVISION, "division by zero");
    /* a syntax error */
    assert_int_equal(run(in, "x = (1,\nprint(x)\n", "s.py", &out), -1);
    tb = repl_traceback(in);
    assert_non_null(strstr(tb, "SyntaxError: "));
    assert_non_null(strstr(tb, "File \"s.py\", line 1"));
    nn_free(tb);
    nn_error_clear();
    /* a language-only exception carries RuntimeError as its core kind */
    assert_int_equal(run(in, "undefined_thing", "n.py", &out), -1);
    tu_assert_error(NN_ERR_RUNTIME, "name 'undefined_thing' is not defined");
    assert_string_equal(repl_exception_name(in), "NameError");
    repl_interp_free(in);
    free(out.buf);
}

/* ------------------------------------------------------------ interrupts, recursion */

static void test_keyboard_interrupt_stops_loops(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    nn_interrupt_requested = 1;
    assert_int_equal(run(in, "while True:\n    pass\n", "loop.py", &out), -1);
    tu_assert_error(NN_ERR_KEYBOARD_INTERRUPT, "");
    assert_string_equal(repl_exception_name(in), "KeyboardInterrupt");
    char *last = traceback_last_line(in);
    assert_string_equal(last, "KeyboardInterrupt");
    free(last);
    assert_int_equal(nn_interrupt_requested, 0);
    /* except Exception does not catch it; except KeyboardInterrupt does */
    nn_interrupt_requested = 1;
    assert_int_equal(run(in, "try:\n    for i in range(10**9):\n        pass\nexcept Exception:\n    print('no')\n", "l2.py", &out), -1);
    nn_error_clear();
    nn_interrupt_requested = 1;
    assert_int_equal(run(in, "try:\n    while 1:\n        pass\nexcept KeyboardInterrupt:\n    print('stopped')\n", "l3.py", &out), 0);
    assert_string_equal(out.buf, "stopped\n");
    /* the interpreter keeps working */
    assert_int_equal(run(in, "print(sum(range(10)))", "l4.py", &out), 0);
    assert_string_equal(out.buf, "stopped\n45\n");
    repl_interp_free(in);
    free(out.buf);
}

static void test_runaway_recursion(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    assert_int_equal(run(in, "def f(n):\n    return f(n + 1)\nf(0)\n", "r.py", &out), -1);
    tu_assert_error(NN_ERR_RECURSION, "maximum recursion depth exceeded");
    assert_string_equal(repl_exception_name(in), "RecursionError");
    /* through methods, lambdas and __repr__ too, and then normal work again */
    assert_int_equal(run(in, "class A:\n    def __repr__(self):\n        return repr(self)\nprint(A())\n", "r2.py", &out), -1);
    nn_error_clear();
    assert_int_equal(run(in, "g = lambda n: g(n)\ntry:\n    g(1)\nexcept RecursionError:\n    print('ok')\n", "r3.py", &out), 0);
    assert_int_equal(run(in, "def d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\nprint(d(500))\n", "r4.py", &out), 0);
    assert_string_equal(out.buf, "ok\n500\n");
    repl_interp_free(in);
    free(out.buf);
}

/* ints promote to big ints past 64 bits and come back when they fit again
   (the values against CPython: tests/scripts/bigint.py) */
static void test_int_overflow_promotes(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    const char *cases[] = {"9223372036854775807 + 1 == 2 ** 63", "2 ** 64 // 2 ** 32 == 4294967296",
                           "-9223372036854775807 - 2 + 2 == -9223372036854775807", "3037000500 * 3037000500 - 3037000500 ** 2 == 0",
                           "99999999999999999999 - 99999999999999999998 == 1", "abs(-9223372036854775807 - 1) == 2 ** 63",
                           "(1 << 63) >> 63 == 1", "type(2 ** 70) is int and isinstance(2 ** 70, int)",
                           "{2 ** 70: 1}[2 ** 69 * 2] == 1", "2 ** 63 == 2.0 ** 63 and hash(2 ** 63) == hash(2.0 ** 63)"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[256];
        snprintf(src, sizeof src, "print(%s)", cases[i]);
        tu_capture_reset(&out);
        assert_int_equal(run(in, src, "o.py", &out), 0);
        assert_string_equal(out.buf, "True\n");
    }
    tu_capture_reset(&out);
    assert_int_equal(run(in, "print(2 ** 62, -2 ** 62 * 2, 9223372036854775807)", "o.py", &out), 0);
    assert_string_equal(out.buf, "4611686018427387904 -9223372036854775808 9223372036854775807\n");
    repl_interp_free(in);
    free(out.buf);
}

/* help() prints pydoc's text for a built-in and for a def with a docstring. */
static void test_help(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    assert_int_equal(run(in, "help(len)\ndef f():\n    'Does f.'\nhelp(f)\n", "h.py", &out), 0);
    /* Python's help() text (tests/repl/test_docs.c checks the forms) */
    assert_string_equal(out.buf, "Help on built-in function len in module builtins:\n\nlen(obj, /)\n"
                                 "    Return the number of items in a container.\n\n"
                                 "Help on function f in module __main__:\n\nf()\n    Does f.\n\n");
    repl_interp_free(in);
    free(out.buf);
}

/* help() of collections.OrderedDict and its methods: the lines that are Python's. */
static void test_help_ordered_dict(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    assert_int_equal(run(in, "from collections import OrderedDict\nhelp(OrderedDict)\n", "h.py", &out), 0);
    const char *head = "Help on class OrderedDict in module collections:\n\nclass OrderedDict(builtins.dict)\n";
    assert_memory_equal(out.buf, head, strlen(head));
    assert_non_null(strstr(out.buf, " |  move_to_end(self, /, key, last=True)\n"));
    tu_capture_reset(&out);
    assert_int_equal(run(in, "help(OrderedDict.move_to_end)\nhelp(OrderedDict(a=1).get)\n", "h.py", &out), 0);
    const char *methods = "Help on method_descriptor:\n\nmove_to_end(self, /, key, last=True)\n";
    assert_memory_equal(out.buf, methods, strlen(methods));
    assert_non_null(strstr(out.buf, "\nget(key, default=None, /) method of collections.OrderedDict instance\n"));
    repl_interp_free(in);
    free(out.buf);
}

/* ------------------------------------------------------------ failing allocations */


static const char *small_program =
    "class P:\n"
    "    def __init__(self, v):\n"
    "        self.v = v\n"
    "    def __repr__(self):\n"
    "        return f'P({self.v:.2f})'\n"
    "def f(xs, *rest, k=2, **kw):\n"
    "    out = [P(x * k) for x in xs if x % 2]\n"
    "    d = {str(i): i for i in range(3)}\n"
    "    try:\n"
    "        d['missing']\n"
    "    except KeyError as e:\n"
    "        out.append(str(e))\n"
    "    return out, sorted(d.items()), {1, 2} | {3}, 'a,b'.split(',')\n"
    "print(f([1, 2, 3], 4, k=3, z=1), 'x' * 3, 7 // 2, 2 ** 10, 2 ** 100 // 3, f'{-7 ** 40:,}')\n";

/* Every allocation of interpreter creation and of the program may fail:
   the result is MemoryError (or the program's own result), never a crash or leak. */
static void test_failing_allocations(void **state)
{
    (void)state;
    tu_allocator old;
    tu_install_failing_alloc(&old);
    tu_capture out = {0};
    repl_interp *in = repl_interp_new();
    assert_non_null(in);
    assert_int_equal(run(in, small_program, "m.py", &out), 0);
    repl_interp_free(in);
    long total = tu_alloc_count;
    assert_true(total > 100);
    char *want = strdup(out.buf);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        tu_capture_reset(&out);
        in = repl_interp_new();
        if (!in) {
            assert_int_equal(nn_error_current(), NN_ERR_MEMORY);
            continue;
        }
        int rc = run(in, small_program, "m.py", &out);
        if (rc == 0) assert_string_equal(out.buf, want);
        else assert_true(nn_error_current() == NN_ERR_MEMORY || strstr(repl_exception_name(in) ? repl_exception_name(in) : "MemoryError", "MemoryError"));
        repl_interp_free(in);
    }
    nn_error_clear();
    tu_restore_allocator(&old);
    free(want);
    free(out.buf);
}

/* class Net(nn.Module) through the bindings: core modules whose forward and
   extra_repr are the language's, subclasses of language module classes, hooks,
   and classes deleted while their modules live on (output checked against PyTorch). */
static void test_module_subclasses(void **state)
{
    (void)state;
    repl_bindings_install();
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    const char *src =
        "import torch\n"
        "import torch.nn as nn\n"
        "class Block(nn.Module):\n"
        "    def __init__(self, d):\n"
        "        super().__init__()\n"
        "        self.lin = nn.Linear(d, d)\n"
        "        self.register_buffer('count', torch.zeros(1))\n"
        "    def forward(self, x):\n"
        "        return torch.relu(self.lin(x)) + x\n"
        "class Net(Block):\n"
        "    def __init__(self, d):\n"
        "        super().__init__(d)\n"
        "        self.blocks = nn.ModuleList([Block(d) for _ in range(2)])\n"
        "        self.helper = lambda t: t * 2\n"
        "    def forward(self, x):\n"
        "        for b in self.blocks:\n"
        "            x = b(x)\n"
        "        return self.helper(super().forward(x))\n"
        "    @property\n"
        "    def width(self):\n"
        "        return self.lin.in_features\n"
        "class Scaled(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.k = 3\n"
        "    def forward(self, x):\n"
        "        return x * self.k\n"
        "    def extra_repr(self):\n"
        "        return f'k={self.k}'\n"
        "net = Net(3)\n"
        "print(net.width, type(net).__name__, isinstance(net, Block), isinstance(net, nn.Module))\n"
        "print(net(torch.ones(1, 3)).shape)\n"
        "print(sorted(net.state_dict().keys()))\n"
        "f = Net\n"
        "del Net\n"
        "m2 = f(2)\n"
        "del f\n"
        "def hook(mod, inp, out):\n"
        "    print('hook', type(mod).__name__, tuple(out.shape))\n"
        "h = m2.register_forward_hook(hook)\n"
        "m2(torch.zeros(2))\n"
        "h.remove()\n"
        "print(m2)\n"
        "s = Scaled()\n"
        "print(s, s(torch.ones(2)))\n"
        "with torch.no_grad():\n"
        "    print(s(torch.ones(1, requires_grad=True)).requires_grad)\n";
    int rc = run(in, src, "m.py", &out);
    if (rc != 0) {
        char *tb = repl_traceback(in);
        fail_msg("%s", tb ? tb : "?");
    }
    assert_string_equal(out.buf,
                        "3 Net True True\n"
                        "torch.Size([1, 3])\n"
                        "['blocks.0.count', 'blocks.0.lin.bias', 'blocks.0.lin.weight', 'blocks.1.count', "
                        "'blocks.1.lin.bias', 'blocks.1.lin.weight', 'count', 'lin.bias', 'lin.weight']\n"
                        "hook Net (2,)\n"
                        "Net(\n"
                        "  (lin): Linear(in_features=2, out_features=2, bias=True)\n"
                        "  (blocks): ModuleList(\n"
                        "    (0): Block(\n"
                        "      (lin): Linear(in_features=2, out_features=2, bias=True)\n"
                        "    )\n"
                        "    (1): Block(\n"
                        "      (lin): Linear(in_features=2, out_features=2, bias=True)\n"
                        "    )\n"
                        "  )\n"
                        ")\n"
                        "Scaled(k=3) tensor([3., 3.])\n"
                        "False\n");
    repl_interp_free(in);
    free(out.buf);
    repl_bindings_shutdown();
    repl_set_native_ops(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_input_echoes_last_expression),
        cmocka_unit_test(test_syntax_error_caret),
        cmocka_unit_test(test_traceback_text),
        cmocka_unit_test(test_keyboard_interrupt_stops_loops),
        cmocka_unit_test(test_runaway_recursion),
        cmocka_unit_test(test_int_overflow_promotes),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_help_ordered_dict),
        cmocka_unit_test(test_failing_allocations),
        cmocka_unit_test(test_module_subclasses),
    };
    return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
