/*
 * screen.c — the virtual screen every view draws on: a grid of cells holding one
 * code point (one terminal column) and a style (color, bold, reverse). The
 * ncurses driver copies it to the terminal; tests read it as text or as a grid
 * of color letters. Not here: what is drawn (render.c) or any terminal call.
 */
#include "insp_int.h"

#include <string.h>

int insp_screen_init(insp_screen *sc, int w, int h)
{
    sc->w = sc->h = 0;
    sc->cells = nn_malloc((size_t)(w > 0 ? w : 1) * (size_t)(h > 0 ? h : 1) * sizeof *sc->cells);
    if (!sc->cells) return -1;
    sc->w = w > 0 ? w : 1;
    sc->h = h > 0 ? h : 1;
    insp_screen_clear(sc);
    return 0;
}

void insp_screen_free(insp_screen *sc)
{
    nn_free(sc->cells);
    sc->cells = NULL;
    sc->w = sc->h = 0;
}

void insp_screen_clear(insp_screen *sc)
{
    for (int i = 0; i < sc->w * sc->h; i++) sc->cells[i] = (insp_cell){' ', INSP_COLOR_DEFAULT, 0};
}

/* Decodes one UTF-8 sequence at *s (advancing it); bad bytes read as '?'. */
static uint32_t utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t c = p[0];
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0) {
        (*s)++;
        return '?';
    }
    if (extra) c &= 0x3f >> extra;
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *s += i;
            return '?';
        }
        c = (c << 6) | (p[i] & 0x3f);
    }
    *s += 1 + extra;
    return c;
}

int insp_screen_put(insp_screen *sc, int row, int col, int maxw, insp_color color, unsigned attr, const char *s)
{
    if (row < 0 || row >= sc->h) return 0;
    int n = 0;
    while (*s && n < maxw && col + n < sc->w) {
        uint32_t c = utf8_next(&s);
        if (c == '\n') break;
        if (c < 0x20 || c == 0x7f) c = '?'; /* a control character would move the terminal's cursor */
        if (col + n >= 0) sc->cells[row * sc->w + col + n] = (insp_cell){c, (uint8_t)color, (uint8_t)attr};
        n++;
    }
    return n;
}

int insp_screen_put_fit(insp_screen *sc, int row, int col, int maxw, insp_color color, unsigned attr, const char *s)
{
    int room = sc->w - col < maxw ? sc->w - col : maxw, cells = 0, space = -1;
    const char *p = s;
    while (*p && *p != '\n' && cells < room) {
        if (*p == ' ' && cells > 0) space = cells; /* the last space before the room ends */
        utf8_next(&p);
        cells++;
    }
    if (!*p || *p == '\n' || room < 2) return insp_screen_put(sc, row, col, maxw, color, attr, s);
    int keep = space >= room / 2 ? space : room - 1;
    int n = insp_screen_put(sc, row, col, keep, color, attr, s);
    return n + insp_screen_put(sc, row, col + n, 1, color, attr, "…");
}

/* Whether a row may end before p: a space not followed by a value (a label and
   its figure, "max 0.02184", stay on one row). */
static bool label_break(const char *p)
{
    char c = p[1];
    return !(c >= '0' && c <= '9') && c != '-' && c != '+' && c != '.' && c != '[' && c != '(' && c != '"';
}

int insp_wrap_row(const char *s, int room, const char **next)
{
    int cells = 0, space = -1, label = -1;
    const char *p = s, *after_space = NULL, *after_label = NULL;
    if (room < 1) room = 1;
    while (*p && *p != '\n' && cells < room) {
        if (*p == ' ' && cells > 0) {
            space = cells, after_space = p;
            if (label_break(p)) label = cells, after_label = p;
        }
        utf8_next(&p);
        cells++;
    }
    if (!*p || *p == '\n') { /* the rest fits */
        *next = NULL;
        return cells;
    }
    if (*p == ' ') space = label = cells, after_space = after_label = p; /* the room ends at a space */
    if (label >= room / 3) cells = label, p = after_label;
    else if (space >= room / 3) cells = space, p = after_space;
    while (*p == ' ') p++;
    *next = *p && *p != '\n' ? p : NULL;
    return cells;
}

int insp_screen_put_wrapped(insp_screen *sc, int row, int col, int w, int max_rows, insp_color color, unsigned attr,
                            const char *s)
{
    int rows = 0;
    for (const char *t = s; t; rows++) {
        int indent = rows && w > 8 ? 2 : 0;
        const char *next;
        int cells = insp_wrap_row(t, w - indent, &next);
        if (max_rows >= 0 && rows < max_rows) insp_screen_put(sc, row + rows, col + indent, cells, color, attr, t);
        t = next;
    }
    return rows;
}

/* Appends code point u as UTF-8 at p; returns the end. */
static char *utf8_put(char *p, uint32_t u)
{
    if (u < 0x80) {
        *p++ = (char)u;
    } else if (u < 0x800) {
        *p++ = (char)(0xc0 | u >> 6), *p++ = (char)(0x80 | (u & 0x3f));
    } else if (u < 0x10000) {
        *p++ = (char)(0xe0 | u >> 12), *p++ = (char)(0x80 | ((u >> 6) & 0x3f)), *p++ = (char)(0x80 | (u & 0x3f));
    } else {
        *p++ = (char)(0xf0 | u >> 18), *p++ = (char)(0x80 | ((u >> 12) & 0x3f));
        *p++ = (char)(0x80 | ((u >> 6) & 0x3f)), *p++ = (char)(0x80 | (u & 0x3f));
    }
    return p;
}

/* The grid as lines, each cell through cell_char (a code point), trailing
   cells that read as blank trimmed. */
static char *grid_text(const insp_screen *sc, uint32_t (*cell_char)(const insp_cell *), uint32_t blank)
{
    char *out = nn_malloc((size_t)sc->w * (size_t)sc->h * 4 + (size_t)sc->h + 1), *p = out;
    if (!out) return NULL;
    for (int r = 0; r < sc->h; r++) {
        const insp_cell *row = sc->cells + r * sc->w;
        int end = sc->w;
        while (end > 0 && cell_char(&row[end - 1]) == blank) end--;
        for (int c = 0; c < end; c++) p = utf8_put(p, cell_char(&row[c]));
        *p++ = '\n';
    }
    *p = 0;
    return out;
}

static uint32_t code_point(const insp_cell *c) { return c->ch; }

static uint32_t color_letter(const insp_cell *c)
{
    static const char letters[INSP_COLOR_COUNT + 1] = ".TSdgwBcDh";
    return c->color < INSP_COLOR_COUNT ? (uint32_t)letters[c->color] : '?';
}

char *insp_screen_text(const insp_screen *sc) { return grid_text(sc, code_point, ' '); }
char *insp_screen_colors(const insp_screen *sc) { return grid_text(sc, color_letter, '.'); }
