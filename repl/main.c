/*
 * main.c — the nnscope program, as python runs scripts: `nnscope FILE.py`,
 * `nnscope -c CODE`, a script on a non-tty standard input; --help, --version.
 * An uncaught exception prints its traceback to stderr and exits 1.
 * The interactive notebook front end comes with its own issue.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bind.h"
#include "repl.h"

static const char usage[] =
    "usage: nnscope [option] [FILE.py | -c CODE | -]\n"
    "Runs nnscope code: a Python subset in which PyTorch code runs as written.\n"
    "  FILE.py     run the script in FILE.py\n"
    "  -c CODE     run CODE (a string of statements)\n"
    "  -           run the script read from standard input (also when stdin is not a terminal)\n"
    "  --help, -h  show this help and exit\n"
    "  --version   print nnscope's version and exit\n";

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

/* Ctrl-C while a script runs: a flag core and the evaluator check. */
static void on_sigint(int sig)
{
    (void)sig;
    nn_interrupt_requested = 1;
}

int main(int argc, char **argv)
{
    const char *code = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("nnscope %s\n", NN_VERSION);
            return 0;
        }
        if (!strcmp(argv[i], "-c")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "Argument expected for the -c option\n%s", usage);
                return 2;
            }
            code = argv[i + 1];
            break; /* the rest are the script's arguments */
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "unknown option %s\n%s", argv[i], usage);
            return 2;
        }
        path = argv[i];
        break;
    }

    char *source = NULL;
    const char *filename = "<string>";
    if (code) {
        source = strdup(code);
    } else if (path && strcmp(path, "-") != 0) {
        FILE *f = fopen(path, "r");
        if (!f) {
            fprintf(stderr, "nnscope: can't open file '%s': ", path);
            perror(NULL);
            return 2;
        }
        source = read_all(f);
        fclose(f);
        filename = path;
    } else {
        if (!path && isatty(STDIN_FILENO)) {
            fprintf(stderr, "nnscope %s: the interactive notebook is not built yet; run a script:\n%s", NN_VERSION,
                    usage);
            return 2;
        }
        source = read_all(stdin);
        filename = "<stdin>";
    }
    if (!source) {
        fprintf(stderr, "nnscope: out of memory reading the script\n");
        return 1;
    }

    signal(SIGINT, on_sigint);
    repl_bindings_install();
    repl_interp *in = repl_interp_new();
    int status = 0;
    if (!in) {
        fprintf(stderr, "MemoryError: %s\n", nn_error_message());
        status = 1;
    } else if (repl_exec(in, source, filename, REPL_PARSE_FILE, NULL) != 0) {
        fflush(stdout);
        char *tb = repl_traceback(in);
        if (tb) fprintf(stderr, "%s\n", tb);
        else fprintf(stderr, "%s: %s\n", nn_error_kind_name(nn_error_current()), nn_error_message());
        nn_free(tb);
        status = 1;
    }
    fflush(stdout);
    repl_interp_free(in);
    repl_bindings_shutdown();
    free(source);
    return status;
}
