/*
 * interactive.c — the notebook on a terminal (contract: app.h): the banner,
 * IPython's In [n]: / ...: prompts, GNU readline through its callback
 * interface (so that Ctrl-C at the prompt clears the line instead of killing
 * the program), Tab completion (complete.c), auto-indentation, and the
 * persistent history in ~/.nnscope_history. Each complete cell goes to
 * repl_app_run_cell; what a cell prints and echoes is app.c's.
 * Not here: cells, magics, Out echo (app.c), the language (repl.h).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>
#include <term.h>

#include "app.h"
#include "complete.h"
#include "lesson.h"

enum { HISTORY_MAX = 1000, INDENT_WIDTH = 4 };

/* The notebook's state; readline's callbacks carry no user data, so the one
   running notebook is reached through `active`. */
typedef struct notebook {
    repl_app *app;
    char *cell;            /* the lines of the cell typed so far, '\n'-separated */
    size_t cell_len, cell_cap;
    char *line;            /* the line readline just returned (malloc'd; NULL: Ctrl-D) */
    bool line_ready;
    bool exit_requested;   /* exit or quit was typed */
    bool color;
    bool lesson_shown;     /* the prompt was filled with a lesson's cell and the line was never emptied */
    char *history_path;    /* NULL: no persistent history ($HOME unset) */
    char prompt[160];
} notebook;

static notebook *active;
static volatile sig_atomic_t sigint_seen;

/* SIGINT is blocked except while waiting for a key (ppoll) and while a cell
   runs: at the prompt it clears the line, in a cell the evaluator raises
   KeyboardInterrupt (nn_interrupt_requested, cleared by app.c per cell). */
static void on_sigint(int sig)
{
    (void)sig;
    sigint_seen = 1;
    nn_interrupt_requested = 1;
}

/* ------------------------------------------------------------ prompts */

/* Colors only on a terminal that has them, and not with NO_COLOR set. */
static bool use_color(void)
{
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
    if ((no_color && *no_color) || !isatty(STDOUT_FILENO) || !term || !strcmp(term, "dumb")) return false;
    int err = 0;
    if (setupterm(NULL, STDOUT_FILENO, &err) < 0) return false; /* ERR */
    bool has = tigetnum("colors") >= 8;
    del_curterm(cur_term);
    return has;
}

/* IPython 8's prompts: "In [n]: " (green, the number bold bright green) and
   "...: " right-aligned to its width. \001..\002 hide the escapes from
   readline's width count. */
static void set_prompt(notebook *nb, bool continuation)
{
    char in_text[48];
    int width = snprintf(in_text, sizeof in_text, "In [%lld]: ", (long long)nb->app->next_cell);
    const char *green = nb->color ? "\001\033[32m\002" : "", *reset = nb->color ? "\001\033[0m\002" : "";
    if (continuation) {
        snprintf(nb->prompt, sizeof nb->prompt, "%s%*s...: %s", green, width - 5, "", reset);
    } else if (nb->color) {
        snprintf(nb->prompt, sizeof nb->prompt, "%sIn [\001\033[1;92m\002%lld\001\033[0;32m\002]: %s", green,
                 (long long)nb->app->next_cell, reset);
    } else {
        memcpy(nb->prompt, in_text, (size_t)width + 1);
    }
}

/* ------------------------------------------------------------ history */

/* The history file holds one entry per line: a multi-line cell's newlines are
   written "\n" and backslashes "\\" (docs/repl.md). */
static void write_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n') fputs("\\n", f);
        else if (*s == '\\') fputs("\\\\", f);
        else fputc(*s, f);
    }
    fputc('\n', f);
}

static void unescape(char *s)
{
    char *out = s;
    for (; *s; s++) {
        if (*s == '\\' && (s[1] == 'n' || s[1] == '\\')) *out++ = *++s == 'n' ? '\n' : '\\';
        else *out++ = *s;
    }
    *out = '\0';
}

static void history_load(notebook *nb)
{
    stifle_history(HISTORY_MAX);
    const char *home = getenv("HOME");
    if (!home || !*home) return;
    size_t n = strlen(home) + sizeof "/.nnscope_history";
    if (!(nb->history_path = nn_malloc(n))) {
        nn_error_clear();
        return;
    }
    snprintf(nb->history_path, n, "%s/.nnscope_history", home);
    history_truncate_file(nb->history_path, HISTORY_MAX); /* one entry per line */
    FILE *f = fopen(nb->history_path, "r");
    if (!f) return;
    char *entry = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&entry, &cap, f)) > 0) {
        if (entry[len - 1] == '\n') entry[len - 1] = '\0';
        unescape(entry);
        if (*entry) add_history(entry);
    }
    free(entry);
    fclose(f);
}

/* Adds a cell (its source without trailing newlines) to the history and the
   file, unless it repeats the last entry. */
static void history_add(notebook *nb, const char *source)
{
    size_t n = strlen(source);
    while (n > 0 && (source[n - 1] == '\n' || source[n - 1] == ' ')) n--;
    char *entry = strndup(source, n);
    if (!entry) return;
    HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
    if (n > 0 && !(last && !strcmp(last->line, entry))) {
        add_history(entry);
        FILE *f = nb->history_path ? fopen(nb->history_path, "a") : NULL;
        if (f) {
            write_escaped(f, entry);
            fclose(f);
        }
    }
    free(entry);
}

void repl_app_history_add(const char *source)
{
    if (active) history_add(active, source);
}

size_t repl_app_history_recent(const char **out, size_t max)
{
    if (!active) return 0;
    size_t n = history_length > 0 ? (size_t)history_length : 0, first = n > max ? n - max : 0, k = 0;
    for (size_t i = first; i < n; i++) {
        HIST_ENTRY *e = history_get(history_base + (int)i);
        if (e && e->line) out[k++] = e->line;
    }
    return k;
}

/* ------------------------------------------------------------ completion */

/* readline replaces the whole line left of the cursor (no word-break
   characters): each match is line[0..word_start) + a candidate, and the
   listing shows the candidates alone. */
static size_t match_prefix_len;

/* A malloc'd copy (readline frees matches) of line[0..prefix_len) + cand[0..cand_len). */
static char *prefixed(size_t prefix_len, const char *cand, size_t cand_len)
{
    char *s = malloc(prefix_len + cand_len + 1);
    if (!s) return NULL;
    memcpy(s, rl_line_buffer, prefix_len);
    memcpy(s + prefix_len, cand, cand_len);
    s[prefix_len + cand_len] = '\0';
    return s;
}

static char **attempt_completion(const char *text, int start, int end)
{
    (void)text;
    (void)start;
    rl_attempted_completion_over = 1; /* never readline's file names */
    rl_completion_suppress_append = 1;
    size_t word_start;
    char **cands = repl_complete(active->app->interp, rl_line_buffer, (size_t)end, &word_start);
    if (!cands) return NULL;
    /* readline's form: matches[0] is what replaces the text (the candidates'
       common prefix, the candidate itself when unique), then the candidates */
    size_t n = 0, common = strlen(cands[0]);
    for (; cands[n]; n++)
        for (size_t i = 0; i < common; i++)
            if (cands[n][i] != cands[0][i]) common = i;
    size_t count = n == 1 ? 1 : n + 1;
    char **matches = calloc(count + 1, sizeof *matches);
    bool ok = matches && (matches[0] = prefixed(word_start, cands[0], common));
    for (size_t i = 1; ok && i < count; i++) ok = (matches[i] = prefixed(word_start, cands[i - 1], strlen(cands[i - 1])));
    if (!ok && matches) {
        for (size_t i = 0; i < count; i++) free(matches[i]);
        free(matches);
        matches = NULL;
    }
    match_prefix_len = word_start;
    repl_complete_free(cands);
    return matches;
}

static void display_matches(char **matches, int n, int max_length)
{
    char **shown = calloc((size_t)n + 2, sizeof *shown);
    if (!shown) return;
    for (int i = 0; i <= n; i++) shown[i] = matches[i] + match_prefix_len;
    rl_display_match_list(shown, n, max_length - (int)match_prefix_len);
    free(shown);
    rl_forced_update_display();
}

/* Tab: indentation when only blanks precede the cursor (as IPython), else completion. */
static int on_tab(int count, int key)
{
    for (int i = 0; i < rl_point; i++) {
        if (rl_line_buffer[i] == ' ' || rl_line_buffer[i] == '\t') continue;
        /* readline lists the candidates on a second Tab, which it recognizes
           by the last command being rl_complete */
        if (rl_last_func == on_tab) rl_last_func = rl_complete;
        return rl_complete(count, key);
    }
    return rl_insert_text("    ") < 0 ? 1 : 0;
}

/* ------------------------------------------------------------ the loop */

static void on_line(char *line)
{
    /* handled in the loop, with readline's handler removed so that it does
       not redraw a prompt before the cell's output */
    rl_callback_handler_remove();
    active->line = line;
    active->line_ready = true;
}

/* Whether line ends with ':' outside strings and comments: a block header
   (or an open bracket), so the cell cannot be complete yet. The front end
   decides this itself, as IPython's check_complete does, so that a nested
   header ("class A:" then "def f(self):") asks for its block. */
static bool ends_with_colon(const char *line)
{
    char quote = 0, last = 0;
    for (const char *p = line; *p; p++) {
        if (quote) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == quote) quote = 0;
            last = *p;
        } else if (*p == '#') {
            break;
        } else if (*p == '\'' || *p == '"') {
            quote = *p;
            last = *p;
        } else if (*p != ' ' && *p != '\t' && *p != '\r') {
            last = *p;
        }
    }
    return !quote && last == ':';
}

size_t repl_next_indent(const char *cell)
{
    const char *last = strrchr(cell, '\n');
    last = last ? last + 1 : cell;
    size_t indent = strspn(last, " ");
    if (ends_with_colon(last)) return indent + INDENT_WIDTH;
    static const char *const dedent_after[] = {"return", "pass", "break", "continue", "raise"};
    for (size_t i = 0; i < sizeof dedent_after / sizeof dedent_after[0]; i++) {
        size_t k = strlen(dedent_after[i]);
        if (!strncmp(last + indent, dedent_after[i], k) && (last[indent + k] == '\0' || last[indent + k] == ' '))
            return indent >= INDENT_WIDTH ? indent - INDENT_WIDTH : 0;
    }
    return indent;
}

/* Whether input is already waiting: typed ahead faster than a person types,
   i.e. pasted. */
static bool input_pending(void)
{
    struct pollfd in = {.fd = fileno(rl_instream), .events = POLLIN};
    return poll(&in, 1, 0) > 0;
}

/* Shows the next prompt: a new cell's (after an empty line, as IPython) or a
   continuation, pre-filled with %load's text or the indentation. */
static void show_prompt(notebook *nb)
{
    bool continuation = nb->cell_len > 0;
    if (!continuation) fputs("\n", stdout);
    if (!continuation) nb->lesson_shown = repl_lesson_before_prompt(nb->app);
    fflush(stdout);
    set_prompt(nb, continuation);
    rl_callback_handler_install(nb->prompt, on_line);
    if (!continuation && nb->app->pending_input) {
        rl_insert_text(nb->app->pending_input);
        nn_free(nb->app->pending_input);
        nb->app->pending_input = NULL;
    } else if (continuation && !nb->app->autoindent_off && !input_pending()) {
        /* no indentation added to pasted text: bracketed paste comes as one line,
           a paste without it as lines already waiting when the prompt shows */
        for (size_t i = repl_next_indent(nb->cell); i > 0; i--) rl_insert_text(" ");
    }
    rl_redisplay();
}

static bool append_to_cell(notebook *nb, const char *line)
{
    size_t n = strlen(line), need = nb->cell_len + n + 2;
    if (need > nb->cell_cap) {
        size_t cap = nb->cell_cap ? nb->cell_cap : 256;
        while (cap < need) cap *= 2;
        char *grown = nn_realloc(nb->cell, cap);
        if (!grown) {
            nn_error_clear();
            return false;
        }
        nb->cell = grown;
        nb->cell_cap = cap;
    }
    if (nb->cell_len > 0) nb->cell[nb->cell_len++] = '\n';
    memcpy(nb->cell + nb->cell_len, line, n + 1);
    nb->cell_len += n;
    return true;
}

static bool is_blank(const char *s) { return s[strspn(s, " \t\r")] == '\0'; }

/* `exit` / `quit` (with or without parentheses) leave the notebook, as in
   IPython, unless the user bound the name. */
static bool is_exit_request(notebook *nb, const char *line)
{
    line += strspn(line, " ");
    static const char *const words[] = {"exit", "quit"};
    for (size_t i = 0; i < 2; i++) {
        size_t k = strlen(words[i]);
        if (strncmp(line, words[i], k) != 0 || repl_get_global(nb->app->interp, words[i])) continue;
        const char *rest = line + k;
        if (!strncmp(rest, "()", 2)) rest += 2;
        if (is_blank(rest)) return true;
    }
    return false;
}

/* Runs the cell with SIGINT let through (Ctrl-C raises KeyboardInterrupt in it). */
static int run_cell(notebook *nb, const char *source)
{
    sigset_t sigint;
    sigemptyset(&sigint);
    sigaddset(&sigint, SIGINT);
    sigprocmask(SIG_UNBLOCK, &sigint, NULL);
    int rc = repl_app_run_cell(nb->app, source, NULL);
    sigprocmask(SIG_BLOCK, &sigint, NULL);
    sigint_seen = 0;
    return rc;
}

/* One line from readline: adds it to the cell and runs the cell when complete. */
static void handle_line(notebook *nb, char *line)
{
    bool starting = nb->cell_len == 0;
    if (starting && is_blank(line)) return;
    if (starting && is_exit_request(nb, line)) {
        history_add(nb, line);
        nb->exit_requested = true;
        return;
    }
    /* a line with newlines in it (a recalled cell, a paste, %load) is a whole
       block: it ends as if followed by an empty line */
    bool block_ended = !starting && is_blank(line);
    if (!append_to_cell(nb, block_ended ? "" : line)) return;
    if (!block_ended && strchr(line, '\n')) block_ended = append_to_cell(nb, "");
    /* incomplete (a block not ended yet, an open bracket): a continuation line */
    if (!block_ended && ends_with_colon(line)) return;
    if (!block_ended && !strncmp(nb->cell, "%%", 2)) return; /* a cell magic's cell ends with an empty line */
    int rc = run_cell(nb, nb->cell);
    if (rc == -2) return;
    history_add(nb, nb->cell);
    nb->cell_len = 0;
    repl_lesson_after_cell(nb->app, nb->lesson_shown, rc != 0);
    nb->lesson_shown = false;
}

/* Ctrl-C at the prompt: the line is cleared in place (IPython prints nothing);
   in a continuation the whole cell is dropped and a fresh In [n]: shown. */
static void cancel_input(notebook *nb)
{
    rl_callback_sigcleanup();
    nb->lesson_shown = false;
    if (nb->cell_len == 0) {
        rl_replace_line("", 0);
        rl_redisplay();
        return;
    }
    rl_replace_line("", 0);
    rl_callback_handler_remove();
    fputs("\n", stdout);
    nb->cell_len = 0;
    set_prompt(nb, false);
    rl_callback_handler_install(nb->prompt, on_line);
}

int repl_app_interactive(repl_app *app)
{
    notebook nb = {.app = app, .color = use_color()};
    app->color = nb.color;
    active = &nb;
    if (!app->opt.quiet) fputs(repl_app_banner(), stdout);

    rl_readline_name = "nnscope"; /* for $if nnscope in ~/.inputrc */
    rl_catch_signals = 0;
    rl_completer_word_break_characters = "";
    rl_attempted_completion_function = attempt_completion;
    rl_completion_display_matches_hook = display_matches;
    rl_bind_key('\t', on_tab);
    history_load(&nb);

    sigset_t sigint, unblocked;
    sigemptyset(&sigint);
    sigaddset(&sigint, SIGINT);
    struct sigaction sa = {.sa_handler = on_sigint}, saved;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &saved); /* no SA_RESTART: ppoll returns EINTR */
    sigprocmask(SIG_BLOCK, &sigint, &unblocked);
    sigdelset(&unblocked, SIGINT);

    show_prompt(&nb);
    for (;;) {
        struct pollfd in = {.fd = fileno(rl_instream), .events = POLLIN};
        int ready = ppoll(&in, 1, NULL, &unblocked);
        if (ready < 0 && errno == EINTR) {
            if (sigint_seen) {
                sigint_seen = 0;
                nn_interrupt_requested = 0;
                cancel_input(&nb);
            }
            continue;
        }
        if (ready < 0) break;
        rl_callback_read_char();
        if (!nb.line_ready && rl_end == 0) nb.lesson_shown = false; /* the lesson's cell was set aside */
        if (!nb.line_ready) continue;
        nb.line_ready = false;
        if (!nb.line) break; /* Ctrl-D on an empty line */
        handle_line(&nb, nb.line);
        if (nb.exit_requested) break; /* nb.line is freed below */
        free(nb.line);
        nb.line = NULL;
        show_prompt(&nb);
    }
    rl_callback_handler_remove();
    if (!nb.line) fputs("\n", stdout); /* Ctrl-D: end the prompt's line */
    fflush(stdout);
    if (nb.history_path) history_truncate_file(nb.history_path, HISTORY_MAX);
    sigprocmask(SIG_UNBLOCK, &sigint, NULL);
    sigaction(SIGINT, &saved, NULL);
    clear_history();
    free(nb.line);
    nn_free(nb.history_path);
    nn_free(nb.cell);
    active = NULL;
    return 0;
}
