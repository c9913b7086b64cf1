/*
 * test_complete.c — repl_complete: names, keywords, attributes of name chains
 * (and nothing for calls or subscripts, which must not run), keyword arguments
 * of the enclosing call, magics, file names inside strings and after %run,
 * nothing in comments; the interpreter's state is left as it was.
 */
#include "test_util.h"
#include "repl/app.h"
#include "repl/bind.h"
#include "repl/complete.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static repl_interp *interp;

static const char setup_code[] =
    "import torch\n"
    "import torch.nn as nn\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc1 = nn.Linear(2, 3)\n"
    "        self.act = nn.ReLU()\n"
    "    def forward(self, x):\n"
    "        return self.act(self.fc1(x))\n"
    "net = Net()\n"
    "calls = 0\n"
    "def make_net():\n"
    "    global calls\n"
    "    calls += 1\n"
    "    return net\n"
    "def scale(value, factor=2, *rest, offset=0, **options):\n"
    "    return value * factor + offset\n"
    "value_one = 1\n"
    "_hidden = 2\n"
    "nets = [net]\n"
    "layers = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\n";

static int setup(void **state)
{
    repl_bindings_install();
    interp = repl_interp_new();
    if (!interp || repl_exec(interp, setup_code, "<setup>", REPL_PARSE_FILE, NULL) != 0) {
        char *tb = interp ? repl_traceback(interp) : NULL;
        fprintf(stderr, "setup failed: %s\n", tb ? tb : nn_error_message());
        nn_free(tb);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    repl_interp_free(interp);
    repl_bindings_shutdown();
    return 0;
}

/* The candidates for line with the cursor at its end (or at cursor when >= 0). */
static char **complete_at(const char *line, long cursor, size_t *word_start)
{
    char **c = repl_complete(interp, line, cursor >= 0 ? (size_t)cursor : strlen(line), word_start);
    assert_int_equal(nn_error_current(), NN_OK);
    return c;
}

static bool contains(char **cands, const char *want)
{
    for (char **p = cands; p && *p; p++)
        if (!strcmp(*p, want)) return true;
    return false;
}

static size_t count(char **cands)
{
    size_t n = 0;
    while (cands && cands[n]) n++;
    return n;
}

/* Asserts that line completes to exactly the listed candidates, from word_start. */
static void expect(const char *line, size_t want_start, const char *const *want, size_t nwant)
{
    size_t start;
    char **c = complete_at(line, -1, &start);
    assert_int_equal(start, want_start);
    if (count(c) != nwant) {
        fprintf(stderr, "completing '%s': got", line);
        for (char **p = c; p && *p; p++) fprintf(stderr, " '%s'", *p);
        fprintf(stderr, "\n");
    }
    assert_int_equal(count(c), nwant);
    for (size_t i = 0; i < nwant; i++) assert_string_equal(c[i], want[i]);
    repl_complete_free(c);
}
#define EXPECT(line, start, ...) \
    expect(line, start, (const char *const[]){__VA_ARGS__}, sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *))

static void test_names_and_keywords(void **state)
{
    EXPECT("value_", 0, "value_one");
    EXPECT("x = 1 + value_o", 8, "value_one");
    EXPECT("whi", 0, "while");
    EXPECT("prin", 0, "print");
    size_t start;
    char **c = complete_at("", -1, &start);
    assert_true(contains(c, "net") && contains(c, "torch") && contains(c, "len") && contains(c, "lambda"));
    assert_false(contains(c, "_hidden")); /* '_' names only for a word starting with '_' */
    repl_complete_free(c);
    EXPECT("_hid", 0, "_hidden");
    assert_null(complete_at("12", -1, &start)); /* a number */
    assert_null(complete_at("zzz_nothing", -1, &start));
}

static void test_attributes(void **state)
{
    size_t start;
    char **c = complete_at("net.", -1, &start);
    assert_int_equal(start, 4);
    assert_true(contains(c, "fc1") && contains(c, "act") && contains(c, "forward"));
    repl_complete_free(c);
    EXPECT("y = net.fo", 8, "forward");
    EXPECT("net.fc", 4, "fc1");
    /* the cursor in the middle of the line: only what is left of it counts */
    c = complete_at("net.fo + 1", 6, &start);
    assert_int_equal(start, 4);
    assert_true(contains(c, "forward"));
    repl_complete_free(c);
    assert_null(complete_at("'abc'.upp", -1, &start)); /* a literal is not a name chain */
    /* the attributes of built-in modules: torch., torch.nn. */
    EXPECT("torch.manual_se", 6, "manual_seed");
    c = complete_at("torch.nn.Li", -1, &start);
    assert_int_equal(start, 9);
    assert_true(contains(c, "Linear"));
    repl_complete_free(c);
}

static void test_no_calls_or_subscripts(void **state)
{
    size_t start;
    assert_null(complete_at("make_net().", -1, &start));
    assert_null(complete_at("make_net().fo", -1, &start));
    assert_null(complete_at("nets[0].fo", -1, &start));
    assert_null(complete_at("undefined_name.x", -1, &start));
    assert_int_equal(nn_int_value(repl_get_global(interp, "calls")), 0); /* nothing was called */
}

static void test_keyword_arguments(void **state)
{
    EXPECT("scale(1, fa", 9, "factor=");
    size_t start;
    char **c = complete_at("scale(1, o", -1, &start);
    assert_int_equal(start, 9);
    assert_true(contains(c, "offset=") && contains(c, "or"));
    repl_complete_free(c);
    c = complete_at("y = scale(", -1, &start);
    assert_true(contains(c, "value=") && contains(c, "factor=") && contains(c, "offset="));
    assert_false(contains(c, "rest=") || contains(c, "options="));
    repl_complete_free(c);
    /* built-ins: from their documented signature; a class: its constructor's */
    EXPECT("x = torch.zeros(2, requ", 19, "requires_grad=");
    EXPECT("nn.Linear(2, 3, bi", 16, "bias=", "bin");
    EXPECT("print(1, se", 9, "sep=", "set", "setattr");
    /* inside a nested bracket of the call: no keywords of scale */
    c = complete_at("scale([fa", -1, &start);
    assert_false(contains(c, "factor="));
    repl_complete_free(c);
    /* a call through a call is never evaluated */
    c = complete_at("make_net()(", -1, &start);
    assert_false(contains(c, "x="));
    repl_complete_free(c);
    assert_int_equal(nn_int_value(repl_get_global(interp, "calls")), 0);
}

static void test_magics(void **state)
{
    size_t start;
    char **c = complete_at("%", -1, &start);
    assert_int_equal(start, 1);
    size_t n = 0;
    for (const repl_magic *m = repl_magics_core; m->name; m++, n++) assert_true(contains(c, m->name));
    assert_true(n > 0);
    repl_complete_free(c);
    c = complete_at("%ti", -1, &start);
    for (char **p = c; p && *p; p++) assert_true(!strncmp(*p, "ti", 2));
    assert_true(contains(c, "timeit"));
    repl_complete_free(c);
    /* after a magic's name: its code is completed */
    EXPECT("%timeit value_o", 8, "value_one");
}

static void test_files(void **state)
{
    char dir[] = "/tmp/nnscope_complete_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/data", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/data.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/.secret", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);

    char line[512];
    size_t body = strlen("open('"), dirlen = strlen(dir);
    snprintf(line, sizeof line, "open('%s/da", dir);
    EXPECT(line, body + dirlen + 1, "data.txt", "data/");
    snprintf(line, sizeof line, "open(\"%s/", dir);
    EXPECT(line, body + dirlen + 1, "data.txt", "data/"); /* no dot files unless asked */
    snprintf(line, sizeof line, "open(\"%s/.s", dir);
    EXPECT(line, body + dirlen + 1, ".secret");
    snprintf(line, sizeof line, "%%run %s/data.t", dir);
    EXPECT(line, strlen("%run ") + dirlen + 1, "data.txt");

    snprintf(path, sizeof path, "%s/data.txt", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/.secret", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/data", dir);
    rmdir(path);
    rmdir(dir);
}

static void test_comments_and_strings(void **state)
{
    size_t start;
    assert_null(complete_at("x = 1  # val", -1, &start));
    /* a closed string is code again */
    EXPECT("s = 'a#b' + value_o", 12, "value_one");
}

/* a Sequential's children 0, 1 are in dir() but are no attribute one can type */
static void test_no_numeric_attributes(void **state)
{
    size_t start;
    char **c = complete_at("layers.", -1, &start);
    assert_true(contains(c, "forward") && contains(c, "append"));
    for (char **p = c; p && *p; p++) assert_false(isdigit((unsigned char)(*p)[0]));
    repl_complete_free(c);
}

static void test_allocation_failures(void **state)
{
    /* every allocation of a completion fails in turn: fewer candidates or none,
       never a crash, a leak or an error left set */
    for (tu_fail_at = 1;; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_set_allocator(tu_failing_alloc, NULL);
        size_t start;
        char **c = repl_complete(interp, "net.f", 5, &start);
        nn_set_allocator(NULL, NULL);
        bool done = tu_alloc_count < tu_fail_at;
        assert_int_equal(nn_error_current(), NN_OK);
        if (done) assert_true(contains(c, "fc1") && contains(c, "forward")); /* nothing failed */
        repl_complete_free(c);
        if (done) break;
    }
    tu_fail_at = -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_keywords),
        cmocka_unit_test(test_attributes),
        cmocka_unit_test(test_no_calls_or_subscripts),
        cmocka_unit_test(test_keyword_arguments),
        cmocka_unit_test(test_magics),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_comments_and_strings),
        cmocka_unit_test(test_no_numeric_attributes),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
