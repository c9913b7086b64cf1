/*
 * tui.c — the ncurses front end: one event loop that owns the terminal (opened
 * on /dev/tty with newterm, wide characters, colors when the terminal has them
 * and NO_COLOR is unset), maps curses keys to the view's keys, copies the
 * virtual screen to the terminal, and redraws live from the hooks while a
 * statement typed in the command line runs (at most INSP_REDRAW_HZ times a
 * second). Every exit path restores the terminal, the locale and SIGINT.
 */
#include "insp_int.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>

bool insp_tui_available(void)
{
    const char *term = getenv("TERM");
    if (!term || !*term || !strcmp(term, "dumb")) return false;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return false;
    FILE *tty = fopen("/dev/tty", "r+");
    if (!tty) return false;
    fclose(tty);
    return true;
}

/* The driver's state for one run of the loop. */
typedef struct tui {
    insp_session *s;
    insp_view *view;
    insp_screen screen;
    insp_throttle throttle;
    bool colors;
    int tty_fd;
} tui;

/* Set by SIGWINCH; draw() takes the terminal's new size. The view installs its
   own handler: curses installs one only once per process, and only over none,
   while the REPL's readline keeps one of its own. */
static volatile sig_atomic_t resize_pending;
static void on_sigwinch(int sig)
{
    (void)sig;
    resize_pending = 1;
}

/* Gives curses the terminal's size after a resize (it queues KEY_RESIZE). */
static void take_new_size(tui *t)
{
    resize_pending = 0;
    struct winsize ws;
    if (ioctl(t->tty_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) resize_term(ws.ws_row, ws.ws_col);
}

/* Color pairs, one per insp_color (pair 0 is the terminal's default). */
static void init_colors(void)
{
    static const short fg[INSP_COLOR_COUNT] = {
        [INSP_COLOR_TITLE] = COLOR_CYAN,  [INSP_COLOR_SELECTED] = COLOR_YELLOW, [INSP_COLOR_DIM] = COLOR_BLUE,
        [INSP_COLOR_GOOD] = COLOR_GREEN,  [INSP_COLOR_WARN] = COLOR_YELLOW,     [INSP_COLOR_BAD] = COLOR_RED,
        [INSP_COLOR_CURVE] = COLOR_GREEN, [INSP_COLOR_DERIV] = COLOR_MAGENTA,   [INSP_COLOR_HIST] = COLOR_BLUE,
    };
    start_color();
    use_default_colors();
    for (int c = 1; c < INSP_COLOR_COUNT; c++) init_pair((short)c, fg[c], -1);
}

/* Copies the virtual screen to curses' screen and refreshes. */
static void blit(tui *t)
{
    const insp_screen *sc = &t->screen;
    for (int r = 0; r < sc->h; r++) {
        for (int c = 0; c < sc->w; c++) {
            const insp_cell *cell = &sc->cells[r * sc->w + c];
            wchar_t wc[2] = {(wchar_t)cell->ch, 0};
            attr_t attr = (cell->attr & INSP_ATTR_BOLD ? A_BOLD : 0) | (cell->attr & INSP_ATTR_REVERSE ? A_REVERSE : 0);
            short pair = t->colors ? (short)cell->color : 0;
            if (!t->colors && cell->color == INSP_COLOR_SELECTED) attr |= A_BOLD;
            if (!t->colors && cell->color == INSP_COLOR_BAD) attr |= A_UNDERLINE;
            cchar_t cc;
            setcchar(&cc, wc, attr, pair, NULL);
            mvadd_wch(r, c, &cc);
        }
    }
    /* the cursor stays out of the way in the bottom right corner */
    move(sc->h - 1, sc->w - 1);
    refresh();
}

/* Draws the view at the terminal's current size. Errors (MemoryError) leave the
   previous picture; the current error is as before. */
static void draw(tui *t)
{
    if (resize_pending) take_new_size(t);
    int h, w;
    getmaxyx(stdscr, h, w);
    nn_error_kind kind = nn_error_current();
    char message[512];
    snprintf(message, sizeof message, "%s", nn_error_message());
    nn_error_clear();
    if (w != t->screen.w || h != t->screen.h) {
        insp_screen_free(&t->screen);
        if (insp_screen_init(&t->screen, w, h) < 0) goto restore;
        /* the terminal reflowed what it showed: repaint every cell, not the difference */
        clearok(curscr, TRUE);
    }
    if (insp_view_draw(t->view, &t->screen) == 0) blit(t);
restore:
    if (kind == NN_OK) nn_error_clear();
    else nn_error_set(kind, "%s", message);
}

/* A curses key as the view's key. */
static int view_key(int rc, wint_t ch)
{
    if (rc == OK) return ch == '\r' ? '\n' : (int)ch;
    switch (ch) {
    case KEY_UP: return INSP_KEY_UP;
    case KEY_DOWN: return INSP_KEY_DOWN;
    case KEY_LEFT: return INSP_KEY_LEFT;
    case KEY_RIGHT: return INSP_KEY_RIGHT;
    case KEY_PPAGE: return INSP_KEY_PGUP;
    case KEY_NPAGE: return INSP_KEY_PGDN;
    case KEY_HOME: return INSP_KEY_HOME;
    case KEY_END: return INSP_KEY_END;
    case KEY_BACKSPACE: return INSP_KEY_BACKSPACE;
    case KEY_DC: return INSP_KEY_DELETE;
    case KEY_ENTER: return '\n';
    case KEY_RESIZE: return INSP_KEY_RESIZE;
    default: return -1;
    }
}

/* A mouse event: the wheel scrolls the pane under the pointer (ncurses reports
   wheel up as button 4, down as button 5). True when the view changed. */
static bool mouse_event(tui *t)
{
    MEVENT ev;
    if (getmouse(&ev) != OK) return false;
    int lines = ev.bstate & BUTTON4_PRESSED ? -3 : ev.bstate & BUTTON5_PRESSED ? 3 : 0;
    return insp_view_wheel(t->view, ev.y, ev.x, lines) == INSP_ACT_REDRAW;
}

/* After each pass a hook records while a statement runs: redraw when the
   throttle allows, and let the view take the keys typed meanwhile (moving,
   views, time travel; a second statement waits). */
static void on_pass(void *ud)
{
    tui *t = ud;
    if (!insp_should_redraw(&t->throttle)) return;
    wint_t ch;
    int rc;
    while ((rc = get_wch(&ch)) != ERR) {
        if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
            mouse_event(t);
            continue;
        }
        int key = view_key(rc, ch);
        if (key >= 0 && key != 'q' && key != '\n') insp_view_key(t->view, key);
    }
    draw(t);
}

/* Ctrl-C: the flag core and the evaluator check (the running statement stops). */
static void on_sigint(int sig)
{
    (void)sig;
    nn_interrupt_requested = 1;
}

/* Runs a statement with live redraws from the hooks. */
typedef struct run_ctx {
    tui *t;
    insp_run_fn run;
    void *ctx;
} run_ctx;

static int run_live(void *ud, const char *source, char **output)
{
    run_ctx *r = ud;
    tui *t = r->t;
    draw(t); /* shows "running: ..." */
    nodelay(stdscr, TRUE);
    insp_set_pass_callback(t->s, on_pass, t);
    insp_set_live(t->s, true);
    nn_interrupt_requested = 0;
    int rc = r->run(r->ctx, source, output);
    nn_interrupt_requested = 0;
    insp_set_live(t->s, false);
    insp_set_pass_callback(t->s, NULL, NULL);
    nodelay(stdscr, FALSE);
    return rc;
}

static const char *const *history_entries;
static size_t history_n;

void insp_tui_set_history(const char *const *entries, size_t n)
{
    history_entries = entries;
    history_n = entries ? n : 0;
}

int insp_tui_run(insp_session *s, insp_run_fn run, insp_complete_fn complete, void *ctx)
{
    if (!insp_tui_available())
        return nn_error_set(NN_ERR_RUNTIME, "inspect: no terminal here (not a tty, or TERM is dumb or unset)");
    insp_view *view = insp_view_new(s);
    if (!view) return -1;
    for (size_t i = 0; i < history_n; i++)
        if (insp_view_history_add(view, history_entries[i]) < 0) nn_error_clear();
    insp_view_set_complete(view, complete, ctx);
    tui t = {.s = s, .view = view};
    insp_throttle_init(&t.throttle, INSP_REDRAW_HZ);

    /* wide characters need a UTF-8 LC_CTYPE; numbers keep the C locale */
    char *old_ctype = nn_strdup(setlocale(LC_CTYPE, NULL));
    if (!old_ctype) {
        insp_view_free(view);
        return -1;
    }
    const char *ctype = setlocale(LC_CTYPE, "");
    if (!ctype || (!strstr(ctype, "UTF-8") && !strstr(ctype, "utf8"))) setlocale(LC_CTYPE, "C.UTF-8");
    /* the view's SIGWINCH handler, without SA_RESTART so that a resize wakes the
       key wait; the REPL's (readline's) comes back after */
    struct sigaction old_winch, winch = {0};
    winch.sa_handler = on_sigwinch;
    sigemptyset(&winch.sa_mask);
    /* the size comes from the terminal (TIOCGWINSZ) at start and at every resize:
       readline exports LINES and COLUMNS, which go stale when the terminal is
       resized while no prompt is shown, and curses would trust them */
    use_env(TRUE);
    use_tioctl(TRUE);
    FILE *tty = fopen("/dev/tty", "r+");
    SCREEN *term = tty ? newterm(NULL, tty, tty) : NULL;
    if (!term) {
        if (tty) fclose(tty);
        setlocale(LC_CTYPE, old_ctype);
        nn_free(old_ctype);
        insp_view_free(view);
        return nn_error_set(NN_ERR_RUNTIME, "inspect: cannot open the terminal (TERM=%s)", getenv("TERM"));
    }
    set_term(term);
    t.tty_fd = fileno(tty);
    resize_pending = 0;
    sigaction(SIGWINCH, &winch, &old_winch);
    struct sigaction old_int, sa = {0};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    cbreak(); /* keeps Ctrl-C a signal */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    /* Home and End as terminals send them whatever TERM says (tmux and screen:
       \e[1~ \e[4~, rxvt: \e[7~ \e[8~, xterm outside keypad mode: \e[H \e[F), as
       htop and less accept them */
    static const char *const homes[] = {"\033[1~", "\033[7~", "\033[H", "\033OH"};
    static const char *const ends[] = {"\033[4~", "\033[8~", "\033[F", "\033OF"};
    for (size_t k = 0; k < sizeof homes / sizeof *homes; k++) {
        if (key_defined(homes[k]) == 0) define_key(homes[k], KEY_HOME);
        if (key_defined(ends[k]) == 0) define_key(ends[k], KEY_END);
    }
    set_escdelay(25);
    /* the wheel (the terminal then reports clicks too, which the view ignores;
       Shift selects text in most terminals) */
    mousemask(BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    curs_set(0);
    t.colors = has_colors() && !getenv("NO_COLOR");
    if (t.colors) init_colors();

    run_ctx rc_ctx = {&t, run, ctx};
    for (;;) {
        draw(&t);
        wint_t ch;
        int rc = get_wch(&ch);
        if (rc == ERR) {
            nn_interrupt_requested = 0; /* Ctrl-C at rest stops nothing */
            continue;
        }
        if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
            mouse_event(&t);
            continue;
        }
        int key = view_key(rc, ch);
        if (key < 0) continue;
        if (insp_view_handle(view, key, run ? run_live : NULL, &rc_ctx) == INSP_ACT_QUIT) break;
    }

    endwin();
    delscreen(term);
    fclose(tty);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGWINCH, &old_winch, NULL);
    nn_interrupt_requested = 0;
    setlocale(LC_CTYPE, old_ctype);
    nn_free(old_ctype);
    insp_screen_free(&t.screen);
    insp_view_free(view);
    return 0;
}
