/*
 * main.c — the nnscope program: parses the command line and hands over to the
 * front end (app.h). On a terminal with no script it starts the notebook;
 * `nnscope FILE.py`, `-c CODE` and a script on a non-tty standard input run
 * as python runs them (one cell, no Out echo); --list, --replay and --export
 * act on the recorded sessions. An uncaught exception prints its traceback
 * to stderr and exits 1.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "bind.h"
#include "lesson.h"
#include "source_text.h"

static const char usage[] =
    "usage: nnscope [option] ... [FILE.py [arg] ... | -c CODE | -]\n"
    "Without a script on a terminal: the interactive notebook (In [n]: / Out[n]:, %help lists the magics).\n"
    "  FILE.py          run the script in FILE.py\n"
    "  -c CODE          run CODE (a string of statements)\n"
    "  -                run the script read from standard input (also when stdin is not a terminal)\n"
    "  -q               start the notebook without its banner\n"
    "  --db PATH        the sessions database (default: $NNSCOPE_DB, else\n"
    "                   ~/.local/share/nnscope/sessions.db)\n"
    "  --no-record      do not record this run's cells\n"
    "  --name NAME      name the recorded session NAME\n"
    "  --lesson NAME    play a lesson of tutorials/ cell by cell in the notebook (Enter runs the\n"
    "                   cell shown); without a terminal, run its cells in turn\n"
    "  --list           list the recorded sessions and exit\n"
    "  --replay NAME|ID [--verify] [--from N]\n"
    "                   run a recorded session's cells again (from cell N); --verify compares\n"
    "                   each cell's output with the recorded one\n"
    "  --export NAME|ID FILE\n"
    "                   write a recorded session as a script to FILE and exit\n"
    "  --diff SNAPSHOT_A SNAPSHOT_B\n"
    "                   print what changed between two snapshots (id, tag, name or SESSION:TAG)\n"
    "  --help, -h       show this help and exit\n"
    "  --version        print nnscope's version and exit\n";

/* The whole of a stream as a new malloc'd string, or NULL. */
static char *read_all(FILE *f)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) break;
        if (len + 1 == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                return NULL;
            }
            buf = grown;
        }
    }
    if (buf) buf[len] = '\0';
    return buf;
}

/* Ctrl-C while code runs: a flag core and the evaluator check. */
static void on_sigint(int sig)
{
    (void)sig;
    nn_interrupt_requested = 1;
}

typedef enum action { RUN, LIST, REPLAY, EXPORT, DIFF } action;

typedef struct command_line {
    repl_app_options opt;
    action what;
    const char *code, *path;         /* -c CODE / FILE.py or "-" */
    char **script_args; int n_script_args; /* what follows the script or CODE: its sys.argv[1:] */
    const char *session, *export_to; /* --replay / --export */
    const char *lesson;              /* --lesson NAME */
    bool verify;
    int64_t from;
} command_line;

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "nnscope: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    return 2;
}

/* Fills cl from argv. Returns -1 to go on, else the exit status (help, version, errors). */
static int parse_command_line(int argc, char **argv, command_line *cl)
{
    cl->opt.record = true;
    cl->from = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("nnscope %s\n", NN_VERSION);
            return 0;
        } else if (!strcmp(a, "-q")) {
            cl->opt.quiet = true;
        } else if (!strcmp(a, "--no-record")) {
            cl->opt.record = false;
        } else if (!strcmp(a, "--verify")) {
            cl->verify = true;
        } else if (!strcmp(a, "--list")) {
            cl->what = LIST;
        } else if (!strcmp(a, "--db") || !strcmp(a, "--name") || !strcmp(a, "--replay") || !strcmp(a, "--from") ||
                   !strcmp(a, "-c") || !strcmp(a, "--lesson")) {
            if (!has_value) return usage_error("argument expected for the %s option", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--db")) cl->opt.db_path = v;
            else if (!strcmp(a, "--name")) cl->opt.session_name = v;
            else if (!strcmp(a, "--replay")) cl->what = REPLAY, cl->session = v;
            else if (!strcmp(a, "--lesson")) cl->lesson = v;
            else if (!strcmp(a, "-c")) {
                cl->code = v;
                cl->script_args = argv + i + 1, cl->n_script_args = argc - i - 1;
                return -1; /* the rest are the script's arguments */
            } else {
                char *end;
                long long n = strtoll(v, &end, 10);
                if (end == v || *end || n < 1) return usage_error("--from needs a cell number >= 1, not '%s'", v);
                cl->from = n;
            }
        } else if (!strcmp(a, "--export")) {
            if (i + 2 >= argc) return usage_error("%s needs a session and a file: --export NAME|ID FILE", a);
            cl->what = EXPORT;
            cl->session = argv[++i];
            cl->export_to = argv[++i];
        } else if (!strcmp(a, "--diff")) {
            if (i + 2 >= argc) return usage_error("%s needs two snapshots: --diff SNAPSHOT_A SNAPSHOT_B", a);
            cl->what = DIFF;
            cl->session = argv[++i];
            cl->export_to = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option %s", a);
        } else {
            cl->path = a;
            cl->script_args = argv + i + 1, cl->n_script_args = argc - i - 1;
            return -1; /* the rest are the script's arguments */
        }
    }
    return -1;
}

/* path made absolute as CPython's _Py_abspath does it: the working directory, a
   slash and path, as typed; a new nn_malloc'd string, NULL without a directory */
static char *joined_to_cwd(const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd)) return NULL;
    size_t n = (path[0] == '/' ? 0 : strlen(cwd) + 1) + strlen(path) + 1;
    char *r = nn_malloc(n);
    if (r && path[0] == '/') memcpy(r, path, n);
    else if (r) snprintf(r, n, "%s/%s", cwd, path);
    return r;
}

/* Runs a script (FILE.py, -c CODE, standard input) as one cell. */
static int run_script(repl_app *app, const command_line *cl)
{
    char *source = NULL, *absolute = NULL;
    const char *filename = "<string>";
    if (cl->code) {
        source = strdup(cl->code);
    } else if (cl->path && strcmp(cl->path, "-") != 0) {
        FILE *f = fopen(cl->path, "r");
        if (!f) {
            fprintf(stderr, "nnscope: can't open file '%s': ", cl->path);
            perror(NULL);
            return 2;
        }
        source = read_all(f);
        fclose(f);
        /* as CPython 3.11: the script's absolute path names it in tracebacks and is
           __file__, the working directory joined to it as given (not normalized:
           ./x.py gives /dir/./x.py) */
        absolute = joined_to_cwd(cl->path); /* NULL when the working directory is gone */
        nn_object *file = nn_str_new(absolute ? absolute : cl->path);
        if (!file || repl_set_global(app->interp, "__file__", file) < 0) nn_error_clear();
        NN_RELEASE(file);
        filename = absolute ? absolute : cl->path;
    } else {
        source = read_all(stdin);
        filename = "<stdin>";
    }
    if (!source) {
        fprintf(stderr, "nnscope: out of memory reading the script\n");
        return 1;
    }
    /* a file's bytes as CPython's tokenizer reads them: byte order mark, coding declaration, UTF-8 */
    char msg[1024], *decoded = NULL;
    const char *text = cl->code ? source : repl_source_text(source, filename, &decoded, msg, sizeof msg);
    if (!text) {
        fprintf(stderr, "SyntaxError: %s\n", msg[0] ? msg : "out of memory");
        free(source);
        nn_free(absolute);
        return 1;
    }
    int rc = repl_app_run_cell(app, text, filename);
    repl_green_at_exit(); /* as CPython's threading._shutdown: the threads left run to their end */
    nn_free(decoded);
    free(source);
    nn_free(absolute);
    if (app->exit_requested) return app->exit_status; /* sys.exit(status) */
    return rc == 0 ? 0 : 1;
}

/* --lesson NAME: the notebook with the lesson's first cell at the prompt, or
   without a terminal its cells run in turn. */
static int run_lesson(repl_app *app, const char *name)
{
    if (!app->opt.interactive) return repl_lesson_play(app, name);
    if (repl_lesson_start(app, name, 1) < 0) {
        fprintf(stderr, "nnscope: %s\n", nn_error_message());
        return 2;
    }
    return repl_app_interactive(app);
}

int main(int argc, char **argv)
{
    command_line cl = {0};
    int status = parse_command_line(argc, argv, &cl);
    if (status >= 0) return status;
    if (!cl.opt.db_path) cl.opt.db_path = getenv("NNSCOPE_DB");
    repl_devices_init(); /* NNSCOPE_TEST_DEVICE=loopback: every tensor on the test device from the start */
    switch (cl.what) {
    case LIST: return repl_app_cli_list(&cl.opt);
    case REPLAY: return repl_app_cli_replay(&cl.opt, cl.session, cl.verify, cl.from);
    case EXPORT: return repl_app_cli_export(&cl.opt, cl.session, cl.export_to);
    case DIFF: return repl_app_cli_diff(&cl.opt, cl.session, cl.export_to);
    case RUN: break;
    }
    cl.opt.interactive = !cl.code && !cl.path && isatty(STDIN_FILENO);
    /* python -u's order of what a script prints and its errors in a shared pipe (line by line) */
    if (!cl.opt.interactive && repl_python_unbuffered()) setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    if (!cl.opt.interactive) cl.opt.script = cl.code ? "-c" : cl.path ? cl.path : cl.lesson ? cl.lesson : "-";
    if (cl.lesson && (cl.code || cl.path)) return usage_error("--lesson %s runs no script besides", cl.lesson);

    /* sys.argv as python's: [FILE.py | -c | -, args...]; the notebook and a
       script piped in without "-" keep ['']. */
    const char **sys_argv = NULL;
    if (cl.code || cl.path) {
        sys_argv = malloc((size_t)(cl.n_script_args + 1) * sizeof *sys_argv);
        if (!sys_argv) {
            fprintf(stderr, "nnscope: out of memory\n");
            return 1;
        }
        sys_argv[0] = cl.code ? "-c" : cl.path;
        for (int i = 0; i < cl.n_script_args; i++) sys_argv[i + 1] = cl.script_args[i];
        repl_bind_set_argv(cl.n_script_args + 1, sys_argv);
    }

    cl.opt.program = "/proc/self/exe"; /* %replay runs in a child nnscope */
    signal(SIGINT, on_sigint);
    repl_bindings_install();
    repl_app *app = repl_app_new(&cl.opt);
    if (!app) {
        fprintf(stderr, "MemoryError: %s\n", nn_error_message());
        status = 1;
    } else {
        status = cl.lesson ? run_lesson(app, cl.lesson)
               : cl.opt.interactive ? repl_app_interactive(app) : run_script(app, &cl);
    }
    fflush(stdout);
    repl_app_free(app);
    repl_bindings_shutdown();
    free(sys_argv);
    return status;
}
