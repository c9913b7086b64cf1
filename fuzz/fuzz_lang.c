/*
 * fuzz_lang.c — libFuzzer target: the language. Each input is a program run in
 * a fresh interpreter for at most one second (then Ctrl-C, as a user would
 * press it), its traceback formatted, the interpreter freed. Programs that
 * would touch the file system outside the scratch directory or run commands
 * are skipped.
 */
#include "fuzz.h"

#include "repl/repl.h"

static void lang_discard(void *ud, const char *s, size_t n)
{
    (void)ud;
    (void)s;
    (void)n;
}

/* Whether the program may remove, rename or create files, change directory or run
   commands (a mutated subprocess.run could be any shell command, and forking a
   fuzzer's address space is slow enough to time out). */
static int lang_touches_files(const char *src)
{
    static const char *words[] = {"remove", "unlink", "rmdir", "rename", "chdir", "mkdir", "makedirs", "environ"};
    if (strstr(src, "subprocess") || strstr(src, "system")) return 1;
    if (!strstr(src, "os")) return 0;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strstr(src, words[i])) return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_setup();
    if (size > 4096) return 0;
    char *src = fuzz_cstr(data, size);
    if (strlen(src) != size || lang_touches_files(src)) {
        free(src);
        return 0;
    }
    repl_interp *in = repl_interp_new();
    if (in) {
        repl_set_writer(in, lang_discard, NULL);
        fuzz_start(1);
        if (repl_exec(in, src, "<fuzz>", REPL_PARSE_FILE, NULL) < 0) {
            char *tb = repl_traceback(in);
            nn_free(tb);
        }
        fuzz_stop();
        repl_interp_free(in);
    }
    nn_error_clear();
    free(src);
    return 0;
}
