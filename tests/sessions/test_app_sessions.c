/*
 * test_app_sessions.c — the session magics and command-line actions end to end,
 * as a user drives them: cells run through repl_app_run_cell into a database in
 * a temporary directory, then %sessions %name %snapshot %snapshots %restore
 * %replay (--verify, --from) %export %export_snapshot %search, the --list /
 * --replay / --export actions (their exit status), recording warnings, bad input.
 */
#include "test_util.h"

#include <fcntl.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app.h"
#include "bind.h"
#include "sessions/sess.h"
#include "raw_sql.h"

/* ------------------------------------------------------------------ helpers */

static char tmpdir[256];

/* name in the temporary directory (one of 16 rotating buffers: copy what must last) */
static const char *tpath(const char *name)
{
    static char buf[16][400];
    static int k;
    k = (k + 1) % 16;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static int setup(void **state)
{
    (void)state;
    repl_bindings_install();
    unsetenv("NNSCOPE_DB"); /* the options' path only */
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nnscope_app_sess_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    repl_bindings_shutdown();
    return system(cmd) == 0 ? 0 : -1;
}

/* What an app wrote: its output and its errors, each a growing string. */
typedef struct text {
    char *s;
    size_t len;
} text;

static void append(void *ud, const char *s, size_t n)
{
    text *t = ud;
    t->s = realloc(t->s, t->len + n + 1);
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void text_reset(text *t)
{
    free(t->s);
    t->s = NULL;
    t->len = 0;
}

static text out, err;

/* A notebook app (interactive cells) on the database at path, its output and errors
   collected in out and err. */
static repl_app *app_on(const char *path, bool record)
{
    repl_app_options opt = {.interactive = true, .quiet = true, .record = record, .db_path = path};
    repl_app *app = repl_app_new(&opt);
    assert_non_null(app);
    app->out_write = append;
    app->out_ud = &out;
    app->err_write = append;
    app->err_ud = &err;
    return app;
}

/* Runs a cell, expecting status want (0 or -1); returns what it printed (valid
   until the next call) after clearing out and err... err stays readable in err. */
static const char *run(repl_app *app, const char *source, int want)
{
    text_reset(&out);
    text_reset(&err);
    int rc = repl_app_run_cell(app, source, NULL);
    if (rc != want) fail_msg("cell %s: status %d, wanted %d; stderr: %s", source, rc, want, err.s ? err.s : "");
    return out.s ? out.s : "";
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle)) fail_msg("expected to find [%s] in [%s]", needle, hay ? hay : "(null)");
}

static void assert_not_contains(const char *hay, const char *needle)
{
    if (hay && strstr(hay, needle)) fail_msg("did not expect [%s] in [%s]", needle, hay);
}

/* Runs fn with stdout and stderr sent to files; returns its value and the two
   texts (malloc'd) in *o and *e. */
static int capture_std(int (*fn)(void *), void *arg, char **o, char **e)
{
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    const char *po = tpath("stdout.txt"), *pe = tpath("stderr.txt");
    int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fo, 1);
    dup2(fe, 2);
    int rc = fn(arg);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    close(fo);
    close(fe);
    *o = tu_read_file(po);
    *e = tu_read_file(pe);
    return rc;
}

/* A recorded lesson of seeded random work, ended (the app freed): 5 cells. */
static const char *const lesson[] = {
    "import torch",
    "torch.manual_seed(0)\nx = torch.randn(3)",
    "print(x)",
    "y = torch.rand(2) * 10\ny.sum()",
    "for i in range(2):\n    print(i, torch.randint(0, 100, (3,)))\n",
};

static void record_lesson(const char *path, const char *name)
{
    repl_app *app = app_on(path, true);
    for (size_t i = 0; i < sizeof lesson / sizeof *lesson; i++) run(app, lesson[i], 0);
    if (name) {
        char cell[128];
        snprintf(cell, sizeof cell, "%%name %s", name);
        assert_contains(run(app, cell, 0), "is named");
    }
    repl_app_free(app);
}

/* ------------------------------------------------------------------ recording */

static void test_cells_recorded_as_they_finish(void **state)
{
    (void)state;
    const char *path = tpath("record.db");
    repl_app *app = app_on(path, true);
    assert_non_null(app->sessions);
    run(app, "import torch", 0);
    run(app, "torch.manual_seed(3)\nprint(torch.rand(2))", 0);
    /* committed before the next cell: another connection sees it now */
    assert_int_equal(raw_int(path, "SELECT count(*) FROM cells"), 2);
    run(app, "1 / 0", -1);
    run(app, "%name it's \"quoted\"; DROP TABLE cells; --", 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM cells WHERE status = 'error'"
                                   " AND error LIKE '%ZeroDivisionError: division by zero'"), 1);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM sessions WHERE name = "
                                   "'it''s \"quoted\"; DROP TABLE cells; --'"), 1);
    /* the printed text and the generator state before the cell are recorded */
    assert_int_equal(raw_int(path, "SELECT count(*) FROM cells WHERE number = 2 AND output LIKE 'tensor([%'"
                                   " AND length(rng_state) > 5000"), 1);
    assert_int_equal(raw_int(path, "SELECT seed IS NOT NULL FROM sessions"), 1);
    const char *listing = run(app, "%sessions", 0);
    assert_contains(listing, "cells");
    assert_contains(listing, "it's \"quoted\"; DROP TABLE cells; --");
    assert_contains(listing, "(* this session)");
    repl_app_free(app);
    /* the ended session has its five cells (the %sessions cell included) and an end time */
    assert_int_equal(raw_int(path, "SELECT count(*) FROM cells"), 5);
    assert_int_equal(raw_int(path, "SELECT ended IS NOT NULL FROM sessions"), 1);
    assert_int_equal(raw_int(path, "SELECT script IS NULL FROM sessions"), 1);
    text_reset(&out);
    text_reset(&err);
}

static void test_script_is_one_session_of_one_cell(void **state)
{
    (void)state;
    const char *path = tpath("script.db");
    repl_app_options opt = {.interactive = false, .quiet = true, .record = true, .db_path = path,
                            .script = "demo.py", .session_name = "demo"};
    repl_app *app = repl_app_new(&opt);
    assert_non_null(app);
    app->out_write = append;
    app->out_ud = &out;
    text_reset(&out);
    assert_int_equal(repl_app_run_cell(app, "import torch\ntorch.manual_seed(5)\nprint(torch.randn(2))\n", "demo.py"), 0);
    repl_app_free(app);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM sessions WHERE script = 'demo.py' AND name = 'demo'"), 1);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM cells"), 1);
    /* replayed as a script (no Out echo), to the recorded output */
    repl_app *viewer = app_on(path, false);
    const char *shown = run(viewer, "%replay demo --verify", 0);
    assert_contains(shown, "In [1]: import torch\n   ...: torch.manual_seed(5)\n");
    assert_contains(shown, "verify: all 1 replayed cells match the recording");
    repl_app_free(viewer);
    text_reset(&out);
}

static int open_taken(void *path)
{
    repl_app_options opt = {.interactive = true, .quiet = true, .record = true, .db_path = path,
                            .session_name = "taken"};
    repl_app *app = repl_app_new(&opt);
    int recording = app && app->sessions;
    repl_app_free(app);
    return recording ? 0 : -1;
}

/* A name taken by another session: the work is recorded anyway, unnamed. */
static void test_taken_name_records_unnamed(void **state)
{
    (void)state;
    const char *path = tpath("taken.db");
    record_lesson(path, "taken");
    char *o, *e;
    assert_int_equal(capture_std(open_taken, (void *)path, &o, &e), 0);
    assert_contains(e, "warning: a session named 'taken' already exists; this session is recorded without a name");
    free(o), free(e);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM sessions WHERE name IS NULL"), 1);
}

/* A store that cannot be written: one warning on stderr, the cells still run. */
static int run_two_cells(void *arg)
{
    repl_app *app = arg;
    int a = repl_app_run_cell(app, "x = 1", NULL);
    int b = repl_app_run_cell(app, "x + 1", NULL);
    return a == 0 && b == 0 ? 0 : -1;
}

static void test_write_failure_warns_once(void **state)
{
    (void)state;
    const char *path = tpath("warn.db");
    repl_app_options opt = {.interactive = true, .quiet = true, .record = true, .db_path = path};
    repl_app *app = repl_app_new(&opt);
    assert_non_null(app);
    raw_exec(path, "DELETE FROM sessions"); /* the session's row vanishes under it */
    char *o, *e;
    assert_int_equal(capture_std(run_two_cells, app, &o, &e), 0);
    assert_contains(o, "Out[2]: 2");
    assert_contains(e, "warning: cell 1 was not recorded");
    assert_not_contains(e, "cell 2 was not recorded");
    free(o);
    free(e);
    repl_app_free(app);
}

/* A file that is not an nnscope database: the app runs unrecorded, the file unchanged. */
static void test_foreign_file_is_left_alone(void **state)
{
    (void)state;
    const char *path = tpath("notes.txt");
    FILE *f = fopen(path, "w");
    for (int i = 0; i < 100; i++) fprintf(f, "not a database, line %d\n", i);
    fclose(f);
    char *before = tu_read_file(path);
    fflush(stderr);
    int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    repl_app_options opt = {.interactive = true, .quiet = true, .record = true, .db_path = path};
    repl_app *app = repl_app_new(&opt);
    dup2(saved, 2);
    close(saved);
    close(devnull);
    assert_non_null(app);
    assert_null(app->sessions);
    app->out_write = append;
    app->out_ud = &out;
    app->err_write = append;
    app->err_ud = &err;
    assert_contains(run(app, "2 + 2", 0), "Out[1]: 4");
    run(app, "%sessions", -1);
    assert_contains(err.s, "is not an SQLite database");
    run(app, "%snapshot x", -1);
    assert_contains(err.s, "this session is not recorded");
    repl_app_free(app);
    char *after = tu_read_file(path);
    assert_string_equal(before, after);
    free(before);
    free(after);
    text_reset(&out);
    text_reset(&err);
}

/* ------------------------------------------------------------------ snapshots */

static void test_snapshot_restore_and_export(void **state)
{
    (void)state;
    const char *path = tpath("snap.db");
    repl_app *app = app_on(path, true);
    run(app, "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nmodel = nn.Linear(3, 2)", 0);
    char *weights = strdup(run(app, "print(model.weight, model.bias)", 0));
    assert_contains(run(app, "%snapshot model first", 0), "Snapshot 1: model.state_dict(), 2 tensors, tag 'first'.");
    run(app, "with torch.no_grad():\n    model.weight.fill_(7.0)\n", 0);
    assert_contains(run(app, "print(model.weight)", 0), "7.");
    assert_contains(run(app, "%restore model first", 0), "<All keys matched successfully>");
    assert_string_equal(run(app, "print(model.weight, model.bias)", 0), weights);

    /* another shape: an error naming each mismatching key, the model unchanged */
    run(app, "other = nn.Linear(4, 3)", 0);
    char *other_before = strdup(run(app, "print(other.weight, other.bias)", 0));
    run(app, "%restore other first", -1);
    assert_contains(err.s, "size mismatch for weight");
    assert_contains(err.s, "size mismatch for bias");
    assert_string_equal(run(app, "print(other.weight, other.bias)", 0), other_before);
    /* a module with other keys: strict, missing and unexpected keys named */
    run(app, "seq = nn.Sequential(nn.Linear(3, 2))", 0);
    run(app, "%restore seq first", -1);
    assert_contains(err.s, "Missing key(s) in state_dict: \"0.weight\", \"0.bias\"");
    assert_contains(err.s, "Unexpected key(s) in state_dict: \"bias\", \"weight\"");
    /* bad arguments and unknown names */
    run(app, "%restore model nosuchtag", -1);
    assert_contains(err.s, "KeyError");
    assert_contains(err.s, "nosuchtag");
    run(app, "%snapshot 3 + 4", -1);
    assert_contains(err.s, "UsageError");
    char *long_cell = malloc(3000);
    memcpy(long_cell, "%snapshot ", 10);
    memset(long_cell + 10, 'm', 2500);
    long_cell[2510] = '\0';
    run(app, long_cell, -1);
    assert_contains(err.s, "UsageError: usage: %snapshot MODEL [TAG]");
    free(long_cell);
    run(app, "%snapshot nothing_here", -1);
    assert_contains(err.s, "NameError");
    run(app, "t = torch.ones(2)", 0);
    run(app, "%snapshot t", -1);
    assert_contains(err.s, "%snapshot needs an nn.Module, but 't' is a 'Tensor'");

    const char *listing = run(app, "%snapshots", 0);
    assert_contains(listing, "first");
    assert_contains(listing, "model");

    /* %diff: what changed between two snapshots (the numbers: test_sessions.c) */
    run(app, "with torch.no_grad():\n    model.bias.add_(0.5)\n", 0);
    run(app, "%snapshot model second", 0);
    const char *diff = run(app, "%diff first second", 0);
    assert_contains(diff, "A: snapshot 1 'first': model, session 1, In [");
    assert_contains(diff, "bias    [2]             0.5");
    assert_contains(diff, "1 of 2 common tensors changed");
    run(app, "%diff first", -1);
    assert_contains(err.s, "UsageError: usage: %diff SNAPSHOT_A SNAPSHOT_B");
    run(app, "%diff first nosuch", -1);
    assert_contains(err.s, "KeyError");
    assert_contains(err.s, "nosuch");

    /* %export_snapshot writes the stored bytes: the file loads to the same tensors */
    char cell[600];
    snprintf(cell, sizeof cell, "%%export_snapshot first %s", tpath("first.safetensors"));
    assert_contains(run(app, cell, 0), "Wrote snapshot 'first'");
    sess_db *db;
    assert_int_equal(sess_open(path, 0, &db), SESS_OK);
    void *stored;
    size_t stored_len;
    assert_int_equal(sess_snapshot_bytes(db, "first", &stored, &stored_len), SESS_OK);
    sess_close(db);
    FILE *f = fopen(tpath("first.safetensors"), "rb");
    char *file = malloc(stored_len + 1);
    assert_int_equal(fread(file, 1, stored_len + 1, f), stored_len);
    fclose(f);
    assert_memory_equal(file, stored, stored_len);
    free(file);
    nn_free(stored);
    free(weights);
    free(other_before);
    repl_app_free(app);
    text_reset(&out);
    text_reset(&err);
}

/* ------------------------------------------------------------------ replay */

static void test_replay_is_deterministic_and_verifies(void **state)
{
    (void)state;
    const char *path = tpath("replay.db");
    record_lesson(path, "lesson");
    repl_app *app = app_on(path, false);
    assert_null(app->sessions);
    /* the caller's generator is left as it was */
    run(app, "import torch\ntorch.manual_seed(99)", 0);
    unsigned char *rng_before = malloc(nn_generator_state_size()), *rng_after = malloc(nn_generator_state_size());
    nn_generator_get_state(nn_default_generator(), rng_before);
    char *first = strdup(run(app, "%replay lesson", 0));
    nn_generator_get_state(nn_default_generator(), rng_after);
    assert_memory_equal(rng_before, rng_after, nn_generator_state_size());
    assert_contains(first, "In [1]: import torch\n\nIn [2]: torch.manual_seed(0)\n   ...: x = torch.randn(3)\n");
    assert_contains(first, "In [3]: print(x)\ntensor([ 1.5410, -0.2934, -2.1788])\n");
    assert_contains(first, "Out[4]: ");
    assert_string_equal(run(app, "%replay lesson", 0), first); /* the same text twice */

    assert_contains(run(app, "%replay lesson --verify", 0), "verify: all 5 replayed cells match the recording (1 cell shown as recorded, not re-run)");
    const char *from = run(app, "%replay --from 3 lesson", 0);
    assert_not_contains(from, "In [2]");
    assert_contains(from, "In [3]: print(x)\ntensor([ 1.5410, -0.2934, -2.1788])\n");

    /* a deliberately changed cell: verify flags it and every later cell that differs */
    raw_exec(path, "UPDATE cells SET source = 'torch.manual_seed(1)' || substr(source, 21) WHERE number = 2");
    const char *report = run(app, "%replay lesson --verify", 0);
    assert_contains(report, "!! In [3] differs from the recording:\n!!   output line 1, recorded: tensor([ 1.5410");
    assert_not_contains(report, "!! In [2]");
    assert_contains(report, "verify: 1 of 5 replayed cells differ from the recording, the first In [3]");

    /* a cell interrupted when recorded runs again, is said to be so, and is not compared */
    raw_exec(path, "UPDATE cells SET status = 'interrupted' WHERE number = 5");
    const char *shown = run(app, "%replay lesson --from 5 --verify", 0);
    assert_contains(shown, "In [5]: for i in range(2):\n   ...:     print(i, torch.randint(0, 100, (3,)))\n"
                           "0 tensor([ 1, 66, 56])\n");
    assert_contains(shown, "[interrupted when recorded: run to its end here, not compared]\n");
    assert_contains(shown, "verify: all 0 replayed cells match the recording (1 cell shown as recorded, not re-run)"
                           " (1 cell interrupted when recorded, run but not compared)");

    /* bad input */
    run(app, "%replay lesso", -1);
    assert_contains(err.s, "no session named 'lesso'; did you mean 'lesson'?");
    run(app, "%replay", -1);
    assert_contains(err.s, "UsageError");
    run(app, "%replay lesson --from 0", -1);
    assert_contains(err.s, "--from needs a cell number");
    free(first);
    free(rng_before);
    free(rng_after);
    repl_app_free(app);
    text_reset(&out);
    text_reset(&err);
}

/* ------------------------------------------------------------------ search, export */

static void test_search_and_export(void **state)
{
    (void)state;
    const char *path = tpath("search.db");
    record_lesson(path, "lesson");
    repl_app *app = app_on(path, false);
    assert_string_equal(run(app, "%search randint", 0), "1/5:     print(i, torch.randint(0, 100, (3,)))\n");
    assert_contains(run(app, "%search no_such_word_anywhere", 0), "No cell matches");
    char cell[600];
    snprintf(cell, sizeof cell, "%%export lesson %s", tpath("lesson.ipynb"));
    assert_contains(run(app, cell, 0), "Exported session 1 (6 cells) to ");
    snprintf(cell, sizeof cell, "%%export lesson %s", tpath("lesson.py"));
    assert_contains(run(app, cell, 0), "(6 cells)");
    snprintf(cell, sizeof cell, "%%export lesson %s", tpath("lesson.txt"));
    run(app, cell, -1);
    assert_contains(err.s, "must end in .py or .ipynb");
    repl_app_free(app);
    char *py = tu_read_file(tpath("lesson.py"));
    assert_contains(py, "# %% [3]\nprint(x)\n");
    free(py);
    /* Jupyter's own JSON reader, where Python is installed */
    if (access("/usr/bin/python3", X_OK) == 0) {
        char cmd[800];
        snprintf(cmd, sizeof cmd,
                 "/usr/bin/python3 -c 'import json,sys; nb=json.load(open(sys.argv[1])); "
                 "assert nb[\"nbformat\"]==4 and nb[\"cells\"][2][\"execution_count\"]==3 and "
                 "nb[\"cells\"][2][\"outputs\"][0][\"text\"]==[\"tensor([ 1.5410, -0.2934, -2.1788])\\n\"]' %s",
                 tpath("lesson.ipynb"));
        assert_int_equal(system(cmd), 0);
    }
    text_reset(&out);
    text_reset(&err);
}

/* ------------------------------------------------------------------ command line */

static repl_app_options cli_opt;
static const char *cli_session, *cli_path;
static bool cli_verify;

static int call_list(void *arg) { return repl_app_cli_list(&cli_opt); }
static int call_replay(void *arg) { return repl_app_cli_replay(&cli_opt, cli_session, cli_verify, 1); }
static int call_export(void *arg) { return repl_app_cli_export(&cli_opt, cli_session, cli_path); }

static void test_command_line_actions(void **state)
{
    (void)state;
    char path[400];
    snprintf(path, sizeof path, "%s", tpath("cli.db"));
    cli_opt = (repl_app_options){.db_path = path};
    char *o, *e;
    /* no database yet: nothing is created */
    assert_int_equal(capture_std(call_list, NULL, &o, &e), 0);
    assert_string_equal(o, "No sessions recorded yet.\n");
    free(o), free(e);
    struct stat sb;
    assert_int_equal(stat(path, &sb), -1);

    record_lesson(path, "cli lesson");
    assert_int_equal(capture_std(call_list, NULL, &o, &e), 0);
    assert_contains(o, "cli lesson");
    free(o), free(e);

    cli_session = "cli lesson";
    cli_verify = true;
    assert_int_equal(capture_std(call_replay, NULL, &o, &e), 0);
    assert_contains(o, "verify: all 5 replayed cells match the recording");
    free(o), free(e);
    raw_exec(path, "UPDATE cells SET output = 'something else' || char(10) WHERE number = 3");
    assert_int_equal(capture_std(call_replay, NULL, &o, &e), 1);
    assert_contains(o, "!!   output line 1, recorded: something else");
    free(o), free(e);
    cli_session = "1";
    char ipynb[400];
    snprintf(ipynb, sizeof ipynb, "%s", tpath("cli.ipynb"));
    cli_path = ipynb;
    assert_int_equal(capture_std(call_export, NULL, &o, &e), 0);
    assert_int_equal(stat(cli_path, &sb), 0);
    free(o), free(e);
    cli_session = "nope";
    assert_int_equal(capture_std(call_replay, NULL, &o, &e), 1);
    assert_contains(e, "nnscope: no session named 'nope'");
    free(o), free(e);
    /* a newer schema: refused, unchanged */
    raw_exec(path, "PRAGMA user_version = 99");
    char *before = tu_read_file(path);
    assert_int_equal(capture_std(call_list, NULL, &o, &e), 1);
    assert_contains(e, "newer nnscope");
    free(o), free(e);
    char *after = tu_read_file(path);
    assert_string_equal(before, after);
    free(before), free(after);
}

/* The nnscope program itself ($BUILD/nnscope, as make test builds it): a script
   run is one recorded session; --list, --replay --verify (exit status), --export. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_nnscope_program(void **state)
{
    (void)state;
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    char prog[600], db[400], cmd_db[500];
    snprintf(prog, sizeof prog, "%s%s/nnscope", build[0] == '/' ? "" : "../", build); /* tests run in tests/ */
    if (access(prog, X_OK) != 0) {
        fprintf(stderr, "test_nnscope_program: %s not built, skipped\n", prog);
        skip();
    }
    snprintf(db, sizeof db, "%s", tpath("prog.db"));
    snprintf(cmd_db, sizeof cmd_db, "NNSCOPE_DB='%s'", db);
    assert_int_equal(sh("%s %s --name prog -c 'import torch; torch.manual_seed(0); print(torch.randn(3))' > %s",
                        cmd_db, prog, tpath("run.out")), 0);
    assert_int_equal(sh("%s %s --no-record -c 'print(1)' > /dev/null", cmd_db, prog), 0);
    assert_int_equal(raw_int(db, "SELECT count(*) FROM sessions"), 1);
    assert_int_equal(raw_int(db, "SELECT count(*) FROM cells WHERE output = 'tensor([ 1.5410, -0.2934, -2.1788])'"
                                 " || char(10)"), 1);
    assert_int_equal(sh("%s %s --list | grep -q ' prog '", cmd_db, prog), 0);
    assert_int_equal(sh("%s %s --replay prog --verify > %s", cmd_db, prog, tpath("replay.out")), 0);
    char *replayed = tu_read_file(tpath("replay.out"));
    assert_contains(replayed, "tensor([ 1.5410, -0.2934, -2.1788])\n");
    assert_contains(replayed, "verify: all 1 replayed cells match the recording");
    free(replayed);
    /* --db names another file; a cell changed in the database fails verification */
    raw_exec(db, "UPDATE cells SET source = replace(source, 'manual_seed(0)', 'manual_seed(1)')");
    assert_int_equal(sh("%s --db '%s' --replay prog --verify > /dev/null", prog, db), 1);
    assert_int_equal(sh("%s %s --replay no_such_session 2> %s", cmd_db, prog, tpath("err.out")), 1);
    char *errors = tu_read_file(tpath("err.out"));
    assert_contains(errors, "no session named 'no_such_session'");
    free(errors);
    /* --diff: two snapshots of a session recorded by a script */
    sess_db *sdb;
    assert_int_equal(sess_open(db, 0, &sdb), SESS_OK);
    int64_t sid;
    assert_int_equal(sess_session_begin(sdb, "snaps", NULL, NULL, &sid), SESS_OK);
    nn_object *sd = nn_dict_new();
    nn_tensor *w = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, 2));
    assert_int_equal(nn_dict_set_str(sd, "w", &w->ob), 0);
    assert_int_equal(sess_snapshot_save(sdb, sid, 1, "m", "before", sd, NULL), SESS_OK);
    NN_RELEASE(w);
    w = tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(1, 4));
    assert_int_equal(nn_dict_set_str(sd, "w", &w->ob), 0);
    assert_int_equal(sess_snapshot_save(sdb, sid, 2, "m", "after", sd, NULL), SESS_OK);
    NN_RELEASE(w);
    NN_RELEASE(sd);
    sess_close(sdb);
    assert_int_equal(sh("%s %s --diff snaps:before after > %s", cmd_db, prog, tpath("diff.out")), 0);
    char *diffed = tu_read_file(tpath("diff.out"));
    assert_contains(diffed, "w    [2]              2            1            2\n");
    assert_contains(diffed, "1 of 1 common tensors changed");
    free(diffed);
    assert_int_equal(sh("%s %s --diff before nosuch 2> %s", cmd_db, prog, tpath("err.out")), 1);
    errors = tu_read_file(tpath("err.out"));
    assert_contains(errors, "nnscope: no snapshot with id, tag or name 'nosuch'");
    free(errors);
    /* the notebook export is JSON with nbformat 4 keys (checked by Python's json where present) */
    assert_int_equal(sh("%s %s --export prog '%s' > /dev/null", cmd_db, prog, tpath("prog.ipynb")), 0);
    if (access("/usr/bin/python3", X_OK) == 0)
        assert_int_equal(sh("/usr/bin/python3 -c 'import json,sys; nb=json.load(open(sys.argv[1])); "
                            "assert nb[\"nbformat\"]==4 and \"nbformat_minor\" in nb and \"metadata\" in nb "
                            "and nb[\"cells\"][0][\"cell_type\"]==\"code\"' '%s'", tpath("prog.ipynb")), 0);
}

/* The classes of issue 15 through the notebook: a dict subclass (AttrDict), a
   metaclass with __new__ and __call__, __eq__ without __hash__, the live globals();
   %reset -f forgets them all (globals() sees the empty namespace, the classes can
   be made again); the session replays and verifies. */
static const char *const class_cells[] = {
    "class AttrDict(dict):\n    def __init__(self, *a, **k):\n        super().__init__(*a, **k)\n        self.__dict__ = self\n",
    "cfg = AttrDict(lr=0.1)\ncfg.epochs = 3\nprint(cfg, cfg.lr, isinstance(cfg, dict))",
    "class Once(type):\n    def __call__(cls, *a):\n        if not hasattr(cls, 'one'):\n            cls.one = super().__call__(*a)\n"
    "        return cls.one\n    def __new__(mcs, name, bases, ns):\n        ns['made_by'] = mcs.__name__\n"
    "        return super().__new__(mcs, name, bases, ns)\n",
    "class Model(metaclass=Once):\n    pass\nprint(Model() is Model(), Model.made_by, type(Model).__name__)",
    "class V:\n    def __eq__(self, o):\n        return True\nprint(V.__hash__)",
    "globals()['made'] = 7\nglobals().update(more=8)\nprint(made + more, 'cfg' in globals())",
};

static void test_classes_in_cells_reset_and_replay(void **state)
{
    (void)state;
    const char *path = tpath("classes.db");
    repl_app *app = app_on(path, true);
    const char *want[] = {"", "{'lr': 0.1, 'epochs': 3} 0.1 True\n", "", "True Once Once\n", "None\n", "15 True\n"};
    for (size_t i = 0; i < sizeof class_cells / sizeof *class_cells; i++)
        assert_string_equal(run(app, class_cells[i], 0), want[i]);
    run(app, "hash(V())", -1);
    assert_contains(err.s, "TypeError: unhashable type: 'V'");
    run(app, "%name classes", 0);
    run(app, "%reset -f", 0);
    assert_string_equal(run(app, "print('made' in globals(), 'cfg' in globals())", 0), "False False\n");
    run(app, "AttrDict", -1);
    assert_contains(err.s, "NameError: name 'AttrDict' is not defined");
    assert_string_equal(run(app, "class D(dict):\n    pass\nprint(D(a=1), len(globals()) > 0)", 0), "{'a': 1} True\n");
    repl_app_free(app);

    app = app_on(path, false);
    const char *rep = run(app, "%replay classes --verify", 0);
    assert_contains(rep, "In [10]: print('made' in globals(), 'cfg' in globals())\nFalse False\n");
    assert_contains(rep, "verify: all 11 replayed cells match the recording (1 cell shown as recorded, not re-run)");
    repl_app_free(app);
    text_reset(&out);
    text_reset(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells_recorded_as_they_finish),
        cmocka_unit_test(test_script_is_one_session_of_one_cell),
        cmocka_unit_test(test_taken_name_records_unnamed),
        cmocka_unit_test(test_write_failure_warns_once),
        cmocka_unit_test(test_foreign_file_is_left_alone),
        cmocka_unit_test(test_snapshot_restore_and_export),
        cmocka_unit_test(test_replay_is_deterministic_and_verifies),
        cmocka_unit_test(test_search_and_export),
        cmocka_unit_test(test_command_line_actions),
        cmocka_unit_test(test_classes_in_cells_reset_and_replay),
        cmocka_unit_test(test_nnscope_program),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
