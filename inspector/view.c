/*
 * view.c — the interactive view's state and its keys: selection in the module
 * tree, expand/collapse, pane focus, the detail modes, time travel through the
 * recorded passes, find, help, the NaN breakpoint key and the command line with
 * its history and output area (a statement of several lines is typed as in the
 * notebook: Enter continues an incomplete one, asking the REPL through
 * insp_complete_fn). One key-to-action function; drawing is
 * render.c's, the terminal is tui.c's, so tests drive the view with plain keys.
 */
#include "insp_int.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- the tree */

bool insp_view_visible(const insp_view *v, size_t i)
{
    for (int p = v->parent[i]; p >= 0; p = v->parent[p])
        if (!v->expanded[p]) return false;
    return true;
}

/* The parent of module i: the module whose path is the longest proper prefix
   of i's at a dot ("" for top-level children), or -1 for the root. */
static int parent_of(const insp_session *s, size_t i)
{
    const char *path = s->mods[i].path;
    if (!*path) return -1;
    const char *dot = strrchr(path, '.');
    size_t len = dot ? (size_t)(dot - path) : 0;
    for (size_t j = 0; j < s->n_mods; j++)
        if (strlen(s->mods[j].path) == len && !strncmp(s->mods[j].path, path, len)) return (int)j;
    return -1;
}

insp_view *insp_view_new(insp_session *s)
{
    insp_view *v = nn_calloc(1, sizeof *v);
    size_t n = s->n_mods ? s->n_mods : 1;
    if (!v) return NULL;
    v->s = s;
    v->at = -1;
    v->parent = nn_calloc(n, sizeof *v->parent);
    v->expanded = nn_calloc(n, sizeof *v->expanded);
    v->has_children = nn_calloc(n, sizeof *v->has_children);
    if (!v->parent || !v->expanded || !v->has_children) {
        insp_view_free(v);
        return NULL;
    }
    for (size_t i = 0; i < s->n_mods; i++) {
        v->parent[i] = parent_of(s, i);
        v->expanded[i] = true;
        if (v->parent[i] >= 0) v->has_children[v->parent[i]] = true;
    }
    return v;
}

void insp_view_free(insp_view *v)
{
    if (!v) return;
    nn_free(v->parent);
    nn_free(v->expanded);
    nn_free(v->has_children);
    nn_free(v->line);
    nn_free(v->running);
    for (int i = 0; i < v->n_history; i++) nn_free(v->history[i]);
    for (int i = 0; i < v->n_out; i++) nn_free(v->out[i]);
    nn_free(v);
}

static void select_index(insp_view *v, size_t i)
{
    for (int p = v->parent[i]; p >= 0; p = v->parent[p]) v->expanded[p] = true;
    if (v->sel != i) v->detail_scroll = 0;
    v->sel = i;
}

int insp_view_select(insp_view *v, const char *path)
{
    int i = insp_module_find(v->s, path);
    if (i < 0) return -1;
    select_index(v, (size_t)i);
    return 0;
}

const char *insp_view_selected(const insp_view *v) { return v->s->n_mods ? v->s->mods[v->sel].path : ""; }
int64_t insp_view_at_step(const insp_view *v) { return v->at; }
insp_mode insp_view_mode(const insp_view *v) { return v->mode; }
bool insp_view_busy(const insp_view *v) { return v->busy; }
const char *insp_view_running(const insp_view *v) { return v->busy ? v->running : NULL; }

void insp_view_set_complete(insp_view *v, insp_complete_fn fn, void *ctx)
{
    v->complete = fn;
    v->complete_ctx = ctx;
}

/* Moves the selection by delta visible rows (clamped). */
static void move(insp_view *v, int delta)
{
    size_t i = v->sel;
    while (delta != 0) {
        size_t j = i;
        do j = delta > 0 ? j + 1 : j - 1;
        while (j < v->s->n_mods && !insp_view_visible(v, j));
        if (j >= v->s->n_mods) break; /* also the wrap below 0 */
        i = j;
        delta += delta > 0 ? -1 : 1;
    }
    select_index(v, i);
}

/* ---------------------------------------------------------- time travel */

/* The step of the selected module's pass just before (dir < 0) or after the one
   shown; after the last one the view goes live again. */
/* One pass of the selected module back or forth ('{' '}', and '[' ']' before any
   training step was seen). */
static void travel_pass(insp_view *v, int dir)
{
    const insp_session *s = v->s;
    uint64_t now = v->at < 0 ? UINT64_MAX : (uint64_t)v->at;
    if (v->at < 0 && dir < 0) { /* live shows the module's newest pass: back is the one before */
        for (size_t k = 0; k < insp_pass_count(s, v->sel); k++)
            if (now == UINT64_MAX || insp_pass_at(s, v->sel, k)->step > now) now = insp_pass_at(s, v->sel, k)->step;
    }
    int64_t best = -1;
    for (size_t k = 0; k < insp_pass_count(s, v->sel); k++) {
        uint64_t step = insp_pass_at(s, v->sel, k)->step;
        if (dir < 0 ? step < now && (best < 0 || step > (uint64_t)best) : v->at >= 0 && step > now && (best < 0 || step < (uint64_t)best))
            best = (int64_t)step;
    }
    if (dir < 0 && best < 0) {
        snprintf(v->message, sizeof v->message, "no earlier pass of this module is kept");
        return;
    }
    v->at = best;
}

/* One training step back or forth ('[' ']'): the view shows the step's last pass;
   forth past the newest step goes live. From the live view '[' pauses it on the
   step before the one shown (the newest step, or the step in progress: passes
   after the newest optimizer step belong to the next one). */
static void travel(insp_view *v, int dir)
{
    const insp_session *s = v->s;
    uint64_t n = insp_train_steps(s), now = v->at < 0 ? UINT64_MAX : (uint64_t)v->at;
    if (v->at < 0 && s->step) now = s->step - 1; /* the newest pass, which live shows */
    if (n == 0) {
        travel_pass(v, dir);
        return;
    }
    int64_t best = -1;
    for (uint64_t k = n; k >= 1; k--) { /* newest first: the ends decrease */
        uint64_t end = insp_train_step_end(s, k);
        if (end == UINT64_MAX) break;
        if (dir < 0 && end < now) {
            best = (int64_t)end;
            break;
        }
        if (dir > 0 && v->at >= 0 && end > now) best = (int64_t)end;
    }
    if (dir < 0 && best < 0) {
        snprintf(v->message, sizeof v->message, "no earlier training step is kept");
        return;
    }
    v->at = best;
}

/* ------------------------------------------------------------ the line */

static int line_set(insp_view *v, const char *text)
{
    size_t n = strlen(text);
    if (n + 1 > v->line_cap) {
        char *grown = nn_realloc(v->line, n + 64);
        if (!grown) return -1;
        v->line = grown;
        v->line_cap = n + 64;
    }
    memcpy(v->line, text, n + 1);
    v->line_len = n;
    return 0;
}

/* Appends code point key as UTF-8. */
static int line_add(insp_view *v, int key)
{
    char buf[5] = {0};
    uint32_t u = (uint32_t)key;
    if (u < 0x80) buf[0] = (char)u;
    else if (u < 0x800) buf[0] = (char)(0xc0 | u >> 6), buf[1] = (char)(0x80 | (u & 0x3f));
    else if (u < 0x10000)
        buf[0] = (char)(0xe0 | u >> 12), buf[1] = (char)(0x80 | ((u >> 6) & 0x3f)), buf[2] = (char)(0x80 | (u & 0x3f));
    else
        buf[0] = (char)(0xf0 | u >> 18), buf[1] = (char)(0x80 | ((u >> 12) & 0x3f)),
        buf[2] = (char)(0x80 | ((u >> 6) & 0x3f)), buf[3] = (char)(0x80 | (u & 0x3f));
    size_t n = strlen(buf);
    if (v->line_len + n + 1 > v->line_cap) {
        char *grown = nn_realloc(v->line, v->line_cap * 2 + 64);
        if (!grown) return -1;
        v->line = grown;
        v->line_cap = v->line_cap * 2 + 64;
    }
    memcpy(v->line + v->line_len, buf, n + 1);
    v->line_len += n;
    return 0;
}

static void line_backspace(insp_view *v)
{
    while (v->line_len > 0) {
        unsigned char c = (unsigned char)v->line[--v->line_len];
        if ((c & 0xc0) != 0x80) break;
    }
    if (v->line) v->line[v->line_len] = 0;
}

/* The next module (after the selection, wrapping) whose path or class contains
   the find text; selects it. */
static void find_next(insp_view *v)
{
    const insp_session *s = v->s;
    const char *text = v->line ? v->line : "";
    for (size_t k = 1; k <= s->n_mods; k++) {
        size_t i = (v->sel + k) % s->n_mods;
        if (strstr(s->mods[i].path, text) || strstr(nn_module_name(s->mods[i].module), text)) {
            select_index(v, i);
            v->message[0] = 0;
            return;
        }
    }
    snprintf(v->message, sizeof v->message, "no module matches '%.100s'", text);
}

int insp_view_history_add(insp_view *v, const char *entry)
{
    if (*entry && (v->n_history == 0 || strcmp(v->history[v->n_history - 1], entry))) {
        char *copy = nn_strdup(entry);
        if (!copy) return -1;
        if (v->n_history == INSP_HISTORY) {
            nn_free(v->history[0]);
            memmove(v->history, v->history + 1, (INSP_HISTORY - 1) * sizeof *v->history);
            v->n_history--;
        }
        v->history[v->n_history++] = copy;
    }
    v->history_pos = v->n_history;
    return 0;
}

char *insp_view_take_command(insp_view *v)
{
    char *cmd = nn_strdup(v->line ? v->line : "");
    if (!cmd) return NULL;
    if (insp_view_history_add(v, cmd) < 0) nn_error_clear();
    line_set(v, ""); /* shrinking never allocates once the line exists */
    return cmd;
}

/* Ctrl-U: empties the line being typed (the last of a statement's lines). */
static void line_clear_last(insp_view *v)
{
    char *last = v->line ? strrchr(v->line, '\n') : NULL;
    if (!last) {
        line_set(v, "");
        return;
    }
    v->line_len = (size_t)(last + 1 - v->line);
    v->line[v->line_len] = 0;
}

/* Enter in the command line: INSP_ACT_RUN when the text is a whole statement,
   else a continuation line starts, indented as the completeness test says. A
   continuation line of blanks counts as empty (its indentation is dropped):
   the empty line is what ends an indented block. */
static insp_action command_enter(insp_view *v)
{
    const char *last = strrchr(v->line, '\n');
    if (last && last[1 + strspn(last + 1, " ")] == 0) line_clear_last(v);
    int indent = v->complete ? v->complete(v->complete_ctx, v->line) : -1;
    if (indent < 0) return INSP_ACT_RUN;
    int rc = line_add(v, '\n');
    for (int i = 0; rc == 0 && i < indent; i++) rc = line_add(v, ' ');
    if (rc < 0) {
        nn_error_clear();
        snprintf(v->message, sizeof v->message, "out of memory");
    }
    return INSP_ACT_REDRAW;
}

/* Recalls history entry pos (n_history: an empty line); a statement of several
   lines comes back whole. */
static void recall(insp_view *v, int pos)
{
    if (pos < 0 || pos > v->n_history) return;
    v->history_pos = pos;
    line_set(v, pos == v->n_history ? "" : v->history[pos]);
}

int insp_view_add_output(insp_view *v, const char *text, bool error)
{
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *line = nn_malloc(n + 1);
        if (!line) return -1;
        memcpy(line, p, n);
        line[n] = 0;
        for (char *c = line; *c; c++)
            if (*c == '\t' || *c == '\r') *c = ' ';
        if (v->n_out == INSP_OUTPUT_LINES) {
            nn_free(v->out[0]);
            memmove(v->out, v->out + 1, (INSP_OUTPUT_LINES - 1) * sizeof *v->out);
            memmove(v->out_error, v->out_error + 1, (INSP_OUTPUT_LINES - 1) * sizeof *v->out_error);
            v->n_out--;
        }
        v->out[v->n_out] = line;
        v->out_error[v->n_out++] = error;
        if (v->output_scroll > 0) v->output_scroll++; /* scrolled back: the lines shown stay */
        p = end ? end + 1 : p + n;
    }
    return 0;
}

/* ---------------------------------------------------------------- keys */

/* The moving keys of the details, Problems and Output panes (focus there): true
   when key was one. insp_view_draw keeps the scroll within what there is. */
static bool scroll_key(insp_view *v, int key)
{
    int step = key == INSP_KEY_UP || key == 'k' ? -1 : key == INSP_KEY_DOWN || key == 'j' ? 1
             : key == INSP_KEY_PGUP ? -10 : key == INSP_KEY_PGDN ? 10 : key == INSP_KEY_HOME ? -(1 << 30)
             : key == INSP_KEY_END ? 1 << 30 : 0;
    if (!step) return false;
    int *scroll = v->focus == INSP_FOCUS_PROBLEMS ? &v->problem_scroll
                : v->focus == INSP_FOCUS_DETAILS  ? &v->detail_scroll
                                                  : &v->output_scroll;
    /* the Output pane scrolls back from the newest line: up is more */
    long next = (long)*scroll + (v->focus == INSP_FOCUS_OUTPUT ? -step : step);
    *scroll = next < 0 ? 0 : next > (1 << 30) ? 1 << 30 : (int)next;
    return true;
}

insp_action insp_view_wheel(insp_view *v, int row, int col, int lines)
{
    if (v->help || v->s->n_mods == 0 || lines == 0) return INSP_ACT_NONE;
    if (row > v->pane_out_sep && row < v->pane_cmd_row) { /* Output: up goes back */
        long next = (long)v->output_scroll - lines;
        v->output_scroll = next < 0 ? 0 : next > (1 << 30) ? 1 << 30 : (int)next;
    } else if (row > v->pane_prob_sep && row < v->pane_out_sep) {
        long next = (long)v->problem_scroll + lines;
        v->problem_scroll = next < 0 ? 0 : next > (1 << 30) ? 1 << 30 : (int)next;
    } else if (row > 0 && row < v->pane_prob_sep && col > v->pane_tree_w) { /* details */
        long next = (long)v->detail_scroll + lines;
        v->detail_scroll = next < 0 ? 0 : next > (1 << 30) ? 1 << 30 : (int)next;
    } else if (row > 0 && row < v->pane_prob_sep) { /* the tree moves the selection */
        move(v, lines);
    } else {
        return INSP_ACT_NONE;
    }
    return INSP_ACT_REDRAW;
}

/* Keys of the command line (focus there) and of the find prompt. */
static insp_action line_key(insp_view *v, int key)
{
    switch (key) {
    case 27: /* Escape */
        v->finding = false;
        v->focus = INSP_FOCUS_TREE;
        line_set(v, "");
        return INSP_ACT_REDRAW;
    case '\t':
        if (v->finding) return INSP_ACT_NONE;
        v->focus = INSP_FOCUS_TREE;
        return INSP_ACT_REDRAW;
    case '\n':
    case '\r':
        if (v->finding) {
            find_next(v);
            return INSP_ACT_REDRAW;
        }
        return v->line_len ? command_enter(v) : INSP_ACT_NONE;
    case INSP_KEY_BACKSPACE:
    case 127:
    case 8:
        if (v->finding && v->line_len == 0) v->finding = false;
        line_backspace(v);
        return INSP_ACT_REDRAW;
    case 21: /* Ctrl-U */
        line_clear_last(v);
        return INSP_ACT_REDRAW;
    case INSP_KEY_UP:
        if (!v->finding) recall(v, v->history_pos - 1);
        return INSP_ACT_REDRAW;
    case INSP_KEY_DOWN:
        if (!v->finding) recall(v, v->history_pos + 1);
        return INSP_ACT_REDRAW;
    default:
        if (key < 0x20 || key >= INSP_KEY_UP || key == 0x7f) return INSP_ACT_NONE;
        if (line_add(v, key) < 0) {
            nn_error_clear();
            snprintf(v->message, sizeof v->message, "out of memory");
        }
        return INSP_ACT_REDRAW;
    }
}

insp_action insp_view_key(insp_view *v, int key)
{
    if (v->s->n_mods == 0) return key == 'q' ? INSP_ACT_QUIT : INSP_ACT_NONE;
    if (key == INSP_KEY_RESIZE) return INSP_ACT_REDRAW;
    if (v->help) { /* any key closes the help */
        v->help = false;
        return INSP_ACT_REDRAW;
    }
    v->message[0] = 0;
    if (v->finding || v->focus == INSP_FOCUS_COMMAND) return line_key(v, key);
    if ((v->focus == INSP_FOCUS_PROBLEMS || v->focus == INSP_FOCUS_OUTPUT || v->focus == INSP_FOCUS_DETAILS) && scroll_key(v, key))
        return INSP_ACT_REDRAW;
    bool details = v->focus == INSP_FOCUS_DETAILS;
    switch (key) {
    case 'q':
        return INSP_ACT_QUIT;
    case INSP_KEY_UP:
    case 'k':
        if (details) v->detail_scroll -= v->detail_scroll > 0;
        else move(v, -1);
        return INSP_ACT_REDRAW;
    case INSP_KEY_DOWN:
    case 'j':
        if (details) v->detail_scroll++;
        else move(v, 1);
        return INSP_ACT_REDRAW;
    case INSP_KEY_PGUP:
        move(v, -10);
        return INSP_ACT_REDRAW;
    case INSP_KEY_PGDN:
        move(v, 10);
        return INSP_ACT_REDRAW;
    case INSP_KEY_HOME:
        select_index(v, 0);
        return INSP_ACT_REDRAW;
    case INSP_KEY_END:
        move(v, (int)v->s->n_mods);
        return INSP_ACT_REDRAW;
    case '\n':
    case '\r':
    case ' ':
        if (v->has_children[v->sel]) v->expanded[v->sel] = !v->expanded[v->sel];
        return INSP_ACT_REDRAW;
    case INSP_KEY_LEFT:
        if (v->has_children[v->sel] && v->expanded[v->sel]) v->expanded[v->sel] = false;
        else if (v->parent[v->sel] >= 0) select_index(v, (size_t)v->parent[v->sel]);
        return INSP_ACT_REDRAW;
    case INSP_KEY_RIGHT:
        if (v->has_children[v->sel]) v->expanded[v->sel] = true;
        return INSP_ACT_REDRAW;
    case '\t':
        v->focus = (insp_focus)(v->focus + 1); /* tree, details, problems, output, command line */
        return INSP_ACT_REDRAW;
    case ':':
        v->focus = INSP_FOCUS_COMMAND;
        return INSP_ACT_REDRAW;
    case 'p':
    case 'a':
    case 'g':
    case 'h':
    case 'f':
    case 'l':
    case 'u':
    case 's': {
        static const char keys[] = "paghflus";
        static const insp_mode modes[] = {INSP_MODE_PARAMS,     INSP_MODE_ACTIVATIONS, INSP_MODE_GRADIENTS, INSP_MODE_HISTOGRAMS,
                                          INSP_MODE_FLOW,       INSP_MODE_LAYERS,      INSP_MODE_UPDATES,   INSP_MODE_SCALARS};
        insp_mode m = modes[strchr(keys, key) - keys];
        v->mode = v->mode == m ? INSP_MODE_ALL : m;
        v->detail_scroll = 0;
        return INSP_ACT_REDRAW;
    }
    case 'L': /* the scalars' log scale */
        v->scalars_log = !v->scalars_log;
        return INSP_ACT_REDRAW;
    case '[':
        travel(v, -1);
        return INSP_ACT_REDRAW;
    case ']':
        travel(v, 1);
        return INSP_ACT_REDRAW;
    case '{':
    case '}':
        travel_pass(v, key == '}' ? 1 : -1);
        return INSP_ACT_REDRAW;
    case 'z':
    case 'Z': /* pause the live view where it is (htop's Z), or follow it again */
        v->at = v->at < 0 ? (v->s->step ? (int64_t)(v->s->step - 1) : -1) : -1;
        snprintf(v->message, sizeof v->message, "%s", v->at < 0 ? "following the live view" : "paused here: z follows the live view again");
        return INSP_ACT_REDRAW;
    case 'b':
        insp_break_nan(v->s, !v->s->break_nan);
        snprintf(v->message, sizeof v->message, "NaN/Inf breakpoint %s", v->s->break_nan ? "on" : "off");
        return INSP_ACT_REDRAW;
    case '/':
        v->finding = true;
        line_set(v, "");
        return INSP_ACT_REDRAW;
    case '?':
        v->help = true;
        return INSP_ACT_REDRAW;
    case '<':
    case '>': /* insp_view_draw keeps both panes usable whatever the sum */
        v->tree_widen += key == '>' ? 4 : -4;
        return INSP_ACT_REDRAW;
    default:
        return INSP_ACT_NONE;
    }
}

/* The echo of a statement in the output area: "» " before its first line,
   "... " before each continuation line, the empty line that ended a block left
   out. A new string, or NULL with MemoryError. */
static char *echo_of(const char *cmd)
{
    size_t len = strlen(cmd), lines = 1;
    while (len > 0 && cmd[len - 1] == '\n') len--;
    for (size_t i = 0; i < len; i++) lines += cmd[i] == '\n';
    char *echo = nn_malloc(len + 4 * lines + 1), *o = echo;
    if (!echo) return NULL;
    o += sprintf(o, "» ");
    for (size_t i = 0; i < len; i++) {
        *o++ = cmd[i];
        if (cmd[i] == '\n') o += sprintf(o, "... ");
    }
    *o = 0;
    return echo;
}

insp_action insp_view_handle(insp_view *v, int key, insp_run_fn run, void *ctx)
{
    insp_action act;
    if (key == 'b' && run && v->s->n_mods > 0 && !v->help && !v->finding && v->focus != INSP_FOCUS_COMMAND) {
        /* the breakpoint through the REPL, as the magic that does the same */
        v->message[0] = 0;
        if (line_set(v, v->s->break_nan ? "%break off" : "%break nan") < 0) {
            nn_error_clear();
            return INSP_ACT_NONE;
        }
        act = INSP_ACT_RUN;
    } else {
        act = insp_view_key(v, key);
    }
    if (act != INSP_ACT_RUN) return act;
    char *cmd = insp_view_take_command(v), *output = NULL, *echo = NULL;
    if (!cmd || !(echo = echo_of(cmd))) {
        nn_free(cmd);
        nn_error_clear();
        snprintf(v->message, sizeof v->message, "out of memory");
        return INSP_ACT_REDRAW;
    }
    insp_view_add_output(v, echo, false);
    nn_free(echo);
    v->busy = true;
    v->running = cmd;
    v->s->break_module = -1;
    int rc = run ? run(ctx, cmd, &output) : 0;
    v->busy = false;
    v->running = NULL;
    if (insp_view_add_output(v, output, rc != 0) < 0) nn_error_clear();
    nn_free(output);
    nn_free(cmd);
    if (v->s->break_module >= 0) {
        select_index(v, (size_t)v->s->break_module);
        v->at = -1;
        v->focus = INSP_FOCUS_TREE;
        snprintf(v->message, sizeof v->message, "stopped by the NaN/Inf breakpoint at %s",
                 *insp_view_selected(v) ? insp_view_selected(v) : "(root)");
    }
    return INSP_ACT_REDRAW;
}
