/*
 * spawn.c — a child process whose stdout and stderr come back through one pipe,
 * as it writes them: the notebook's `!cmd` (/bin/sh -c) and `%replay`'s child
 * nnscope. Ctrl-C reaches the child too (it shares the terminal's process group)
 * and stops it; the reading goes on until the child closes the pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app.h"

int repl_spawn_piped(const char *what, const char *path, const char *const *argv, bool null_stdin, repl_spawn_sink sink,
                     void *ud, int *status)
{
    int fds[2];
    if (pipe(fds) < 0) return nn_error_set(NN_ERR_RUNTIME, "%s: cannot make a pipe: %s", what, strerror(errno));
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return nn_error_set(NN_ERR_RUNTIME, "%s: cannot start a process: %s", what, strerror(errno));
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL); /* the notebook blocks SIGINT at times */
        signal(SIGINT, SIG_DFL);
        if (null_stdin) {
            int devnull = open("/dev/null", O_RDONLY);
            if (devnull >= 0) dup2(devnull, STDIN_FILENO); /* no terminal: nothing interactive */
        }
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(path, (char *const *)argv);
        dprintf(STDERR_FILENO, "nnscope: cannot run %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    char buf[4096];
    for (;;) {
        ssize_t got = read(fds[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        sink(ud, buf, (size_t)got);
    }
    close(fds[0]);
    *status = 0;
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
    return 0;
}
