/*
 * tb_carets.c — the `^^^^` line under a traceback entry's source line, as
 * CPython 3.11 prints it: the evaluator notes, per frame, the innermost
 * expression whose evaluation failed (or the target of a failed assignment,
 * the test of a failed assert); its columns, with CPython's anchors for a
 * binary operation (`~~^~~`: the operator) and a subscript (`~^^^^`: the
 * brackets), become the caret line. Nothing is printed when the expression
 * spans the whole line without anchors (`f(x)` alone on its line), as CPython.
 */
#include <string.h>

#include "eval_int.h"

/* the start of line `line` (1-based) of source, or NULL */
static const char *line_start(const char *source, int line)
{
    const char *s = source;
    for (int l = 1; l < line && s; l++) {
        s = strchr(s, '\n');
        if (s) s++;
    }
    return s;
}

/* characters in s[0..n) (UTF-8), as CPython's byte-to-character offsets */
static int chars(const char *s, int n)
{
    int c = 0;
    for (int i = 0; i < n && s[i]; i++) c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

void repl_tb_locate(tb_entry *e, const repl_node *n, const char *source)
{
    e->col = -1;
    e->anchor_l = e->anchor_r = -1;
    if (!n || !n->end_line || !source) return;
    e->line = n->line;
    e->col = n->col;
    e->end_line = n->end_line;
    e->end_col = n->end_col;
    if (n->end_line != n->line) return;
    const char *ls = line_start(source, n->line);
    if (!ls) return;
    if (n->kind == REPL_AST_BinOp) {
        const repl_node *l = n->v.BinOp.left, *r = n->v.BinOp.right;
        if (!l->end_line || l->end_line != n->line || r->line != n->line || r->col < l->end_col) return;
        /* the operator: the first non-blank after the left operand; two
           characters when the next one is not blank (**, //, <<) */
        int at = l->end_col;
        while (at < r->col && (ls[at] == ' ' || ls[at] == '\t' || ls[at] == '\f')) at++;
        if (at >= r->col) return;
        e->anchor_l = at;
        e->anchor_r = at + 1;
        if (at + 1 < r->col && ls[at + 1] != ' ' && ls[at + 1] != '\t' && ls[at + 1] != '\f') e->anchor_r++;
    } else if (n->kind == REPL_AST_Subscript) {
        const repl_node *v = n->v.Subscript.value, *sl = n->v.Subscript.slice;
        if (!v->end_line || !sl->end_line || v->end_line != n->line || sl->end_line != n->line) return;
        e->anchor_l = v->end_col;
        e->anchor_r = sl->end_col + 1;
    }
}

void repl_tb_carets(sbuf *b, const char *source, const tb_entry *e)
{
    if (e->col < 0 || !source) return;
    const char *ls = line_start(source, e->line);
    if (!ls) return;
    int len = (int)strcspn(ls, "\n"), lead = 0;
    while (lead < len && (ls[lead] == ' ' || ls[lead] == '\t' || ls[lead] == '\f')) lead++;
    int stop = len;
    while (stop > lead && (ls[stop - 1] == ' ' || ls[stop - 1] == '\r' || ls[stop - 1] == '\t')) stop--;
    if (stop <= lead || e->col < lead || e->col > stop) return;
    int shown = chars(ls + lead, stop - lead);            /* the stripped line */
    int start = chars(ls, e->col);
    int end = e->end_line == e->line ? chars(ls, e->end_col < len ? e->end_col : len) : chars(ls, stop);
    bool anchors = e->end_line == e->line && e->anchor_l >= 0;
    int al = anchors ? chars(ls, e->anchor_l) : 0, ar = anchors ? chars(ls, e->anchor_r < len ? e->anchor_r : len) : 0;
    if (!(end - start < shown || (anchors && ar - al > 0)) || end <= start) return;
    repl_sb_puts(b, "    ");
    repl_sb_fill(b, ' ', (size_t)(start - chars(ls, lead)));
    for (int i = start; i < end; i++) repl_sb_add(b, !anchors || (i >= al && i < ar) ? "^" : "~", 1);
    repl_sb_puts(b, "\n");
}
