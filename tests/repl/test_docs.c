/*
 * test_docs.c — docstrings and help(): every built-in function, type and method
 * and every function, class and method of the bindings carries a docstring
 * "signature\none line" (the walk names each one that does not); help() prints
 * Python's text for Python's kinds of objects (tests/fixtures/help_forms.txt,
 * made by Python 3.11 through tests/fixtures/gen_help.py) and the same forms for
 * torch natives; repl_signature() and class attribute access to methods
 * (torch.Tensor.add(x, 1), str.upper('a')).
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/bind_int.h"
#include "repl/eval_int.h"
#include "repl/repl.h"

/* Runs source; returns repl_exec's status, what it printed in *out (reset first). */
static int run(repl_interp *in, const char *source, tu_capture *out)
{
    tu_capture_reset(out);
    repl_set_writer(in, tu_capture_write, out);
    return repl_exec(in, source, "docs.py", REPL_PARSE_FILE, NULL);
}

/* The value of one expression (new reference); fails the test on error. */
static nn_object *eval(repl_interp *in, const char *expr)
{
    nn_object *r = NULL;
    if (repl_exec(in, expr, "<expr>", REPL_PARSE_SINGLE, &r) != 0) {
        char *tb = repl_traceback(in);
        fail_msg("%s: %s", expr, tb ? tb : "?");
    }
    assert_non_null(r);
    return r;
}

/* ------------------------------------------------------------ the walk */

/* The entries checked and those that fail (printed, named by where they live). */
typedef struct walk {
    int checked, failed;
} walk;

/* doc must be "name(...)...\none line": a signature line for name and a description. */
static void check_doc(walk *w, const char *where, const char *name, const char *doc)
{
    w->checked++;
    size_t n = strlen(name);
    const char *nl = doc ? strchr(doc, '\n') : NULL;
    const char *why = !doc                                         ? "no docstring"
                      : strncmp(doc, name, n) || doc[n] != '('    ? "no signature line"
                      : !nl || !nl[1] || nl[1] == '\n'             ? "no description after the signature"
                                                                   : NULL;
    if (why) {
        print_message("undocumented: %s.%s: %s\n", where, name, why);
        w->failed++;
    }
}

/* The docstring of a bindings' function object via __doc__ (borrowed into buf). */
static const char *native_doc(nn_object *f, char *buf, size_t cap)
{
    nn_object *d = repl_native_function_getattr(f, "__doc__");
    assert_non_null(d);
    const char *r = NULL;
    if (nn_is_str(d)) {
        snprintf(buf, cap, "%s", nn_str_cstr(d));
        r = buf;
    }
    NN_RELEASE(d);
    return r;
}

/* A native class: its doc and every method of its instances. */
static void check_native_class(walk *w, const char *where, nn_object *cls)
{
    const repl_class_def *d = repl_class_def_of(cls);
    check_doc(w, where, d->name, d->doc);
    repl_method_doc m;
    for (size_t i = 0; repl_bind_class_method(cls, i, &m); i++) check_doc(w, d->qualname, m.name, m.doc);
}

/* Every function and class of a namespace and of the namespaces it holds. */
static void check_namespace(walk *w, nn_object *ns, int depth)
{
    assert_true(depth < 8); /* the namespaces form a tree */
    const char *where = repl_namespace_name(ns);
    size_t pos = 0;
    nn_object *key, *value;
    char buf[1024];
    while (nn_dict_next(repl_namespace_attrs(ns), &pos, &key, &value)) {
        const char *name = nn_str_cstr(key);
        if (repl_is_namespace(value)) check_namespace(w, value, depth + 1);
        else if (repl_is_class(value)) check_native_class(w, where, value);
        else if (repl_is_native_function(value)) check_doc(w, where, name, native_doc(value, buf, sizeof buf));
        else if (value->type == &nn_cfunction_type) check_doc(w, where, name, NULL); /* added without a doc */
    }
}

/* A built-in of the language: its help text must show the signature line and a description. */
static void check_help(walk *w, repl_interp *in, const char *where, const char *name, nn_object *o, bool is_class)
{
    char *text = repl_help_text(in, o);
    assert_non_null(text);
    /* "...\n\nSIG\n    LINE" for functions, "...\n |  SIG\n |  \n |  LINE" for classes */
    char want[160];
    snprintf(want, sizeof want, is_class ? "\n |  %s(" : "\n\n%s(", name);
    const char *sig = strstr(text, want);
    const char *line = sig ? strchr(sig + strlen(want), '\n') : NULL;
    if (line && is_class) line = strncmp(line, "\n |  \n |  ", 10) == 0 && line[10] != '\n' ? line : NULL;
    else if (line) line = strncmp(line, "\n    ", 5) == 0 && line[5] != '\n' ? line : NULL;
    w->checked++;
    if (!sig || !line) {
        print_message("undocumented: %s.%s: help() printed:\n%s", where, name, text);
        w->failed++;
    }
    nn_free(text);
}

/* Every built-in function, type and method of the types. */
static void check_builtins(walk *w, repl_interp *in)
{
    uint32_t pos = 0;
    const char *name;
    nn_object *v;
    while (repl_nmap_next(&in->builtins, &pos, &name, &v)) {
        if (v->type == &repl_class_type) {
            class_obj *c = (class_obj *)v;
            check_help(w, in, "builtins", c->name, v, true); /* IOError is OSError: its help says OSError */
            uint32_t mpos = 0;
            const char *mname;
            nn_object *m;
            while (repl_nmap_next(&c->dict, &mpos, &mname, &m))
                if (m->type == &nn_cfunction_type && strcmp(mname, "__init__")) check_help(w, in, name, mname, m, false);
        } else if (v->type->call) {
            check_help(w, in, "builtins", name, v, false);
        }
    }
}

/* Methods of objects no namespace exposes: hook handles, grad_fn nodes, grad-mode contexts. */
static void check_instance_methods(walk *w, repl_interp *in)
{
    tu_capture out = {0};
    assert_int_equal(run(in,
                         "import torch\nimport torch.nn as nn\n"
                         "x = torch.ones(2, requires_grad=True)\n"
                         "th = x.register_hook(lambda g: g)\n"
                         "mh = nn.Linear(1, 1).register_forward_hook(lambda *a: None)\n"
                         "ctx = torch.no_grad()\n"
                         "node = (x * 2).grad_fn\n",
                         &out),
                     0);
    free(out.buf);
    static const char *const methods[][2] = {
        {"th", "remove"}, {"mh", "remove"}, {"ctx", "__enter__"}, {"ctx", "__exit__"}, {"node", "name"},
    };
    char expr[64], buf[1024];
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        snprintf(expr, sizeof expr, "%s.%s", methods[i][0], methods[i][1]);
        nn_object *f = eval(in, expr);
        assert_true(repl_is_native_function(f));
        check_doc(w, methods[i][0], methods[i][1], native_doc(f, buf, sizeof buf));
        NN_RELEASE(f);
    }
}

static void test_every_entry_has_a_docstring(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    walk w = {0};
    check_builtins(&w, in);
    /* the roots of the built-in modules; their submodules are walked from them */
    static const char *const roots[] = {"torch", "torchrl", "tensordict", "darts", "labml_nn", "sys"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        nn_object *ns = repl_bind_import(roots[i]);
        assert_non_null(ns);
        check_namespace(&w, ns, 0);
        NN_RELEASE(ns);
    }
    check_instance_methods(&w, in);
    print_message("docstrings: %d entries checked, %d without one\n", w.checked, w.failed);
    assert_true(w.checked > 300);
    assert_int_equal(w.failed, 0);
    repl_interp_free(in);
}

/* ------------------------------------------------------------ help() text */

#define HELP_RULE_FOR_TEST " |  ----------------------------------------------------------------------\n"

/* help() of built-in functions, methods of built-in types, defs and classes is
   Python's text (the fixture is Python 3.11's). */
static void test_help_matches_python(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    char *source = tu_read_file("fixtures/help_forms.py");
    char *want = tu_read_file("fixtures/help_forms.txt");
    assert_int_equal(run(in, source, &out), 0);
    assert_string_equal(out.buf, want);
    free(source);
    free(want);
    free(out.buf);
    repl_interp_free(in);
}

/* torch natives use the same forms with nnscope's docstrings (PyTorch's help
   prints their whole reStructuredText docs instead). */
static void test_help_of_natives(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    assert_int_equal(run(in, "import torch\nimport torch.nn as nn\nx = torch.ones(2)\n"
                             "help(torch.zeros)\nhelp(x.add)\nhelp(torch.Tensor.add)\nhelp(x.item)\n"
                             "help(torch.Tensor.item)\nhelp(nn.init.ones_)\n",
                         &out),
                     0);
    assert_string_equal(
        out.buf,
        "Help on built-in function zeros in module torch:\n\n"
        "zeros(*size, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
        "    Returns a tensor filled with the scalar value 0, with the shape defined by the variable argument size.\n\n"
        /* x.add is documented by torch.add: its input is the instance */
        "Help on built-in function add:\n\n"
        "add(other, *, alpha=1, out=None) -> Tensor method of torch.Tensor instance\n"
        "    Adds other, scaled by alpha, to input.\n\n"
        "Help on method_descriptor:\n\n"
        "add(self, other, *, alpha=1, out=None) -> Tensor\n"
        "    Adds other, scaled by alpha, to input.\n\n"
        "Help on built-in function item:\n\n"
        "item() -> number method of torch.Tensor instance\n"
        "    Returns the value of this tensor as a standard Python number.\n\n"
        "Help on method_descriptor:\n\n"
        "item(self) -> number\n"
        "    Returns the value of this tensor as a standard Python number.\n\n"
        "Help on built-in function ones_ in module torch.nn.init:\n\n"
        "ones_(tensor) -> Tensor\n"
        "    Fills the input Tensor with the scalar value 1.\n\n");
    /* a class: header, constructor, doc, then its methods sorted, self added */
    assert_int_equal(run(in, "help(nn.Linear)\n", &out), 0);
    const char *head = "Help on class Linear in module torch.nn.modules.linear:\n\n"
                       "class Linear(torch.nn.modules.module.Module)\n"
                       " |  Linear(in_features, out_features, bias=True, device=None, dtype=None)\n"
                       " |  \n"
                       " |  Applies a linear transformation to the incoming data: y = xA^T + b.\n"
                       " |  \n"
                       " |  Args:\n"
                       " |      in_features: size of each input sample\n";
    assert_memory_equal(out.buf, head, strlen(head));
    assert_non_null(strstr(out.buf, " |  Methods:\n |  \n |  _get_name(self) -> str\n |      Returns the module's class name.\n"));
    assert_non_null(strstr(out.buf, " |  reset_parameters(self)\n |      Re-initializes"));
    assert_non_null(strstr(out.buf, " |  state_dict(self, *args, destination=None, prefix='', keep_vars=False)\n"));
    /* a built-in module: its classes and functions, as pydoc lists a module's */
    assert_int_equal(run(in, "help(torch.cuda)\n", &out), 0);
    assert_string_equal(out.buf, "Help on built-in module torch.cuda:\n\nNAME\n    torch.cuda\n\nFUNCTIONS\n"
                                 "    device_count()\n        Returns the number of GPUs available.\n    \n"
                                 "    is_available()\n        Returns a bool indicating if CUDA is currently available.\n    \n"
                                 "    manual_seed(seed)\n        Sets the seed for generating random numbers for the current GPU "
                                 "(nothing without CUDA).\n    \n"
                                 "    manual_seed_all(seed)\n        Sets the seed for generating random numbers on all GPUs "
                                 "(nothing without CUDA).\n\n");
    /* an instance: help on its class */
    assert_int_equal(run(in, "help(nn.Linear)\n", &out), 0);
    tu_capture again = {0};
    assert_int_equal(run(in, "help(nn.Linear(2, 3))\n", &again), 0);
    assert_string_equal(again.buf, out.buf);
    free(again.buf);
    /* a class written in the language deriving from nn.Module lists Module's methods as inherited */
    assert_int_equal(run(in, "class Net(nn.Module):\n    'A net.'\n    def forward(self, x):\n        return x\n"
                             "help(Net)\n",
                         &out),
                     0);
    head = "Help on class Net in module __main__:\n\n"
           "class Net(torch.nn.modules.module.Module)\n"
           " |  Net(*args, **kwargs)\n"
           " |  \n"
           " |  A net.\n"
           " |  \n"
           " |  Method resolution order:\n"
           " |      Net\n"
           " |      torch.nn.modules.module.Module\n"
           " |      builtins.object\n"
           " |  \n"
           " |  Methods defined here:\n"
           " |  \n"
           " |  forward(self, x)\n"
           " |  \n" HELP_RULE_FOR_TEST
           " |  Methods inherited from torch.nn.modules.module.Module:\n";
    assert_memory_equal(out.buf, head, strlen(head));
    free(out.buf);
    repl_interp_free(in);
}

/* ------------------------------------------------------------ signatures */

static void assert_signature(repl_interp *in, const char *expr, const char *want)
{
    nn_object *o = eval(in, expr);
    char *sig = repl_signature(in, o);
    if (want) {
        if (!sig) fail_msg("repl_signature(%s) is NULL", expr);
        assert_string_equal(sig, want);
    } else {
        assert_null(sig);
        assert_int_equal(nn_error_current(), NN_OK);
    }
    nn_free(sig);
    NN_RELEASE(o);
}

static void test_signatures(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    assert_int_equal(run(in, "import torch\nimport torch.nn as nn\nx = torch.ones(2)\n"
                             "def f(a, b=2, *args, c, d='x', **kw):\n    pass\n"
                             "class C:\n    def __init__(self, n, scale=1.0):\n        pass\n"
                             "    def m(self, y, /, z=None):\n        pass\n",
                         &out),
                     0);
    free(out.buf);
    assert_signature(in, "torch.randn",
                     "randn(*size, *, out=None, dtype=None, layout=torch.strided, device=None, requires_grad=False, "
                     "pin_memory=False)");
    assert_signature(in, "x.sum", "sum(dim=None, keepdim=False, *, dtype=None)");
    assert_signature(in, "torch.Tensor.sum", "sum(self, dim=None, keepdim=False, *, dtype=None)");
    assert_signature(in, "x.item", "item()");
    assert_signature(in, "nn.Linear", "Linear(in_features, out_features, bias=True, device=None, dtype=None)");
    assert_signature(in, "nn.Linear(1, 1).forward", "forward(*input)");
    assert_signature(in, "f", "f(a, b=2, *args, c, d='x', **kw)");
    assert_signature(in, "C", "C(n, scale=1.0)");
    assert_signature(in, "C(1).m", "m(y, /, z=None)");
    assert_signature(in, "lambda q: q", "<lambda>(q)");
    assert_signature(in, "len", "len(obj, /)");
    assert_signature(in, "'a'.split", "split(sep=None, maxsplit=-1)");
    assert_signature(in, "str.upper", "upper(self, /)");
    assert_signature(in, "int", "int([x])");
    assert_signature(in, "5", NULL);
    repl_interp_free(in);
}

/* ------------------------------------------------------------ Class.method */

static void test_class_attribute_methods(void **state)
{
    (void)state;
    repl_interp *in = repl_interp_new();
    tu_capture out = {0};
    assert_int_equal(run(in, "import torch\nimport torch.nn as nn\nx = torch.ones(2)\n"
                             "print(torch.Tensor.add(x, 1), torch.Tensor.add(x, x, alpha=2))\n"
                             "print(str.upper('a'), str.split('a b'))\n"
                             "l = [1]\nlist.append(l, 2)\nprint(l)\n"
                             "m = nn.Linear(2, 1)\nprint(list(nn.Module.state_dict(m).keys()))\n"
                             "print(nn.Linear.forward(m, torch.zeros(3, 2)).shape)\n"
                             "print(torch.Tensor.add, nn.Module.state_dict.__name__, torch.Tensor.add.__qualname__)\n",
                         &out),
                     0);
    assert_string_equal(out.buf, "tensor([2., 2.]) tensor([3., 3.])\nA ['a', 'b']\n[1, 2]\n['weight', 'bias']\n"
                                 "torch.Size([3, 1])\n<method 'add' of 'torch._C._TensorBase' objects> state_dict _TensorBase.add\n");
    /* the instance must be one of the class's */
    assert_int_equal(run(in, "torch.Tensor.add(3, 1)\n", &out), -1);
    assert_string_equal(repl_exception_name(in), "TypeError");
    char *tb = repl_traceback(in);
    assert_non_null(strstr(tb, "TypeError: descriptor 'add' for 'torch._C._TensorBase' objects doesn't apply to a 'int' object"));
    nn_free(tb);
    assert_int_equal(run(in, "torch.Tensor.add()\n", &out), -1);
    assert_string_equal(repl_exception_name(in), "TypeError");
    assert_int_equal(run(in, "nn.Linear.nothing\n", &out), -1);
    assert_string_equal(repl_exception_name(in), "AttributeError");
    tb = repl_traceback(in);
    assert_non_null(strstr(tb, "AttributeError: type object 'Linear' has no attribute 'nothing'"));
    nn_free(tb);
    free(out.buf);
    repl_interp_free(in);
}

int main(void)
{
    repl_bindings_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_entry_has_a_docstring),
        cmocka_unit_test(test_help_matches_python),
        cmocka_unit_test(test_help_of_natives),
        cmocka_unit_test(test_signatures),
        cmocka_unit_test(test_class_attribute_methods),
    };
    return cmocka_run_group_tests_name("docs", tests, NULL, NULL);
}
