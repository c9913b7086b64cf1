/*
 * mod_subprocess.c — `import subprocess`: run(args, shell=..., capture_output=...,
 * text=..., check=...) returning a CompletedProcess (args, returncode, stdout,
 * stderr), as a .py export of a notebook's `!cmd` lines uses it. The child runs
 * through repl_spawn_piped (spawn.c): its stdout and stderr share one pipe, so
 * with capture_output both land in stdout (stderr is empty), as str (there is no
 * bytes type; text= is accepted); without, its output is printed where print()
 * writes.
 */
#include <string.h>
#include <sys/wait.h>

#include "app.h"
#include "stdlib_int.h"

typedef struct captured {
    sbuf text;
    bool capture;
} captured;

static void sink(void *ud, const char *data, size_t n)
{
    captured *c = ud;
    if (c->capture) repl_sb_add(&c->text, data, n);
    else repl_interp_write(data, n);
}

static nn_object *s_run(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    static const char *const names[] = {"shell", "capture_output", "text", "check", "universal_newlines", NULL};
    if (repl_mod_kwargs_only("run", kwargs, names) < 0 || repl_mod_nargs("run", args, NULL, 1, 1) < 0) return NULL;
    nn_object *cmd = nn_tuple_get(args, 0);
    nn_object *shell = repl_mod_kwarg(kwargs, "shell"), *cap = repl_mod_kwarg(kwargs, "capture_output");
    nn_object *check = repl_mod_kwarg(kwargs, "check");
    const char *argv[64];
    size_t argc = 0;
    if (shell && repl_truth(shell)) {
        if (!nn_is_str(cmd)) {
            repl_raise_exc(EXC_TypeError, "run() with shell=True needs a str command");
            return NULL;
        }
        argv[argc++] = "/bin/sh", argv[argc++] = "-c", argv[argc++] = nn_str_cstr(cmd);
    } else if (nn_is_list(cmd) || (cmd->type == &nn_tuple_type)) {
        size_t n = nn_is_list(cmd) ? nn_list_len(cmd) : nn_tuple_len(cmd);
        for (size_t i = 0; i < n; i++) {
            nn_object *a = nn_is_list(cmd) ? nn_list_get(cmd, i) : nn_tuple_get(cmd, i);
            if (!nn_is_str(a) || argc + 2 > sizeof argv / sizeof *argv) {
                repl_raise_exc(EXC_TypeError, "run() takes a list of at most 62 str arguments");
                return NULL;
            }
            argv[argc++] = nn_str_cstr(a);
        }
        if (!argc) {
            repl_raise_exc(EXC_IndexError, "list index out of range");
            return NULL;
        }
    } else if (nn_is_str(cmd)) {
        argv[argc++] = nn_str_cstr(cmd);
    } else {
        repl_raise_exc(EXC_TypeError, "expected str or a list of str, not %s", repl_value_type_name(cmd));
        return NULL;
    }
    argv[argc] = NULL;
    /* execv needs a path: a bare program name goes through the shell's PATH search */
    const char *sh_argv[] = {"/bin/sh", "-c", "exec \"$0\" \"$@\"", NULL};
    const char *const *run_argv = argv;
    const char *all[68];
    if (argv[0][0] != '/' && strcmp(argv[0], "/bin/sh")) {
        size_t k = 0;
        for (; k < 3; k++) all[k] = sh_argv[k];
        for (size_t i = 0; i <= argc; i++) all[k++] = argv[i];
        run_argv = all;
    }
    captured c = {.capture = cap && repl_truth(cap)};
    int status;
    if (repl_spawn_piped("subprocess.run", run_argv[0], run_argv, false, sink, &c, &status) < 0) {
        nn_free(c.text.buf);
        return NULL;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? -WTERMSIG(status) : 1;
    char *out = c.capture ? repl_sb_finish(&c.text) : NULL;
    if (c.capture && !out) return NULL;
    nn_object *result = NULL;
    class_obj *cls = repl_mod_class("subprocess", "CompletedProcess", NULL, NULL, 0);
    nn_object *done = cls ? repl_instance_new(cls) : NULL;
    /* no bytes type in the language: captured output is str, text=True or not */
    nn_object *sout = !c.capture ? nn_retain(nn_none()) : nn_str_new(out);
    nn_object *serr = !c.capture ? nn_retain(nn_none()) : nn_str_new("");
    nn_object *rc = nn_int_new(code);
    if (done && sout && serr && rc && repl_set_attr(done, "args", cmd) == 0 && repl_set_attr(done, "returncode", rc) == 0 &&
        repl_set_attr(done, "stdout", sout) == 0 && repl_set_attr(done, "stderr", serr) == 0)
        result = nn_retain(done);
    NN_RELEASE(cls);
    NN_RELEASE(done);
    NN_RELEASE(sout);
    NN_RELEASE(serr);
    NN_RELEASE(rc);
    nn_free(out);
    if (result && check && repl_truth(check) && code != 0) {
        NN_RELEASE(result);
        repl_raise_exc(EXC_RuntimeError, "Command '%s' returned non-zero exit status %d.",
                       nn_is_str(cmd) ? nn_str_cstr(cmd) : argv[0], code);
        return NULL;
    }
    return result;
}

static const repl_mod_fn subprocess_functions[] = {
    {"run", s_run, "run(args, *, shell=False, capture_output=False, text=False, check=False)\nRun command with "
                   "arguments and return a CompletedProcess instance (stderr shares stdout here)."},
};

nn_object *repl_mod_subprocess(void)
{
    nn_object *m = repl_module_new("subprocess");
    if (m && repl_mod_add_fns(m, subprocess_functions, 1) < 0) NN_SET(m, NULL);
    return m;
}
