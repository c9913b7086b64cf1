/*
 * diff.c — what changed between two state_dict snapshots (of one session or two):
 * for every tensor key both have, its shape, the largest absolute and relative
 * change of an element and the norm of the difference, sorted by change, and the
 * keys only one side has. The text %diff and `nnscope --diff` print.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sess_int.h"

/* One snapshot as a diff names it. */
typedef struct diff_side {
    int64_t id, session, cell;
    char *name, *tag; /* tag NULL when none */
    nn_object *sd;    /* owned: dict str -> tensor */
} diff_side;

static void side_clear(diff_side *s)
{
    nn_free(s->name);
    nn_free(s->tag);
    NN_RELEASE(s->sd);
    memset(s, 0, sizeof *s);
}

static int all_digits(const char *s)
{
    if (!*s || strlen(s) > 18) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

/* Resolves spec: ID, TAG or NAME (as sess_snapshot_load: the newest wins), or
   SESSION:TAG (an id, tag or model name within one session, named or numbered). */
static sess_status resolve(sess_db *db, const char *spec, diff_side *out)
{
    memset(out, 0, sizeof *out);
    int64_t session = 0;
    const char *key = spec;
    const char *colon = strrchr(spec, ':');
    char sname[512];
    if (colon && colon > spec && colon[1]) {
        size_t l = (size_t)(colon - spec);
        if (l >= sizeof sname) return sess_fail(SESS_NOTFOUND, "no session named '%.40s...'", spec);
        memcpy(sname, spec, l);
        sname[l] = '\0';
        sess_status st = sess_session_resolve(db, sname, &session);
        if (st) return st;
        key = colon + 1;
    }
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "SELECT id, session, cell, name, tag FROM snapshots"
                                      " WHERE ((?1 IS NOT NULL AND id = ?1) OR tag = ?2 OR name = ?2)"
                                      " AND (?3 = 0 OR session = ?3)"
                                      " ORDER BY (?1 IS NOT NULL AND id = ?1) DESC, tag IS ?2 DESC, id DESC"
                                      " LIMIT 1", &stmt);
    if (st) return st;
    if (all_digits(key)) sqlite3_bind_int64(stmt, 1, strtoll(key, NULL, 10));
    sqlite3_bind_text(stmt, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 3, session);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(stmt, 0);
        out->session = sqlite3_column_int64(stmt, 1);
        out->cell = sqlite3_column_int64(stmt, 2);
        out->name = sess_column_text(stmt, 3, 0, &st);
        out->tag = sess_column_text(stmt, 4, 1, &st);
    } else if (rc == SQLITE_DONE) {
        st = session ? sess_fail(SESS_NOTFOUND, "session %lld has no snapshot with id, tag or name '%s'",
                                 (long long)session, key)
                     : sess_fail(SESS_NOTFOUND, "no snapshot with id, tag or name '%s'", key);
    } else {
        st = sess_sqlite_error(db, rc, "cannot read the snapshots");
    }
    sqlite3_finalize(stmt);
    if (!st) {
        char id[32];
        snprintf(id, sizeof id, "%lld", (long long)out->id);
        st = sess_snapshot_load(db, id, &out->sd);
    }
    if (st) side_clear(out);
    return st;
}

/* One key's row. */
typedef struct diff_row {
    const char *key;      /* borrowed from side a's (or b's) dict */
    char shape[64];       /* "[4, 3]", or "[3] -> [4]" when the shapes differ */
    int shape_differs;
    double max_abs, max_rel, norm;
} diff_row;

static void shape_text(const nn_tensor *t, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < t->ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    if (n < cap) snprintf(buf + n, cap - n, "]");
}

static int same_shape(const nn_tensor *a, const nn_tensor *b)
{
    if (a->ndim != b->ndim) return 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->sizes[i] != b->sizes[i]) return 0;
    return 1;
}

/* Fills r's numbers from a and b (same shape). 0, or -1 with MemoryError. */
static int compare(const nn_tensor *a, const nn_tensor *b, diff_row *r)
{
    int64_t n = nn_numel(a);
    double *x = nn_malloc((size_t)(n ? n : 1) * sizeof *x), *y = nn_malloc((size_t)(n ? n : 1) * sizeof *y);
    if (!x || !y) {
        nn_free(x);
        nn_free(y);
        return -1;
    }
    nn_to_doubles(a, x);
    nn_to_doubles(b, y);
    double sum = 0;
    int nan_abs = 0, nan_rel = 0;
    r->max_abs = r->max_rel = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = isnan(x[i]) && isnan(y[i]) ? 0 : fabs(y[i] - x[i]); /* NaN stayed NaN: unchanged */
        double rel = d == 0 ? 0 : d / fabs(x[i]);                       /* from 0 to anything else: inf */
        if (isnan(d)) nan_abs = 1;
        else if (d > r->max_abs) r->max_abs = d;
        if (isnan(rel)) nan_rel = 1;
        else if (rel > r->max_rel) r->max_rel = rel;
        sum += d * d;
    }
    if (nan_abs) r->max_abs = NAN;
    if (nan_rel) r->max_rel = NAN;
    r->norm = sqrt(sum);
    nn_free(x);
    nn_free(y);
    return 0;
}

/* Larger change first; rows whose shapes differ before all; NaN counts as largest. */
static int by_change(const void *pa, const void *pb)
{
    const diff_row *a = pa, *b = pb;
    if (a->shape_differs != b->shape_differs) return b->shape_differs - a->shape_differs;
    double x = isnan(a->max_abs) ? INFINITY : a->max_abs, y = isnan(b->max_abs) ? INFINITY : b->max_abs;
    if (x != y) return x < y ? 1 : -1;
    double u = isnan(a->norm) ? INFINITY : a->norm, v = isnan(b->norm) ? INFINITY : b->norm;
    if (u != v) return u < v ? 1 : -1;
    return strcmp(a->key, b->key);
}

/* A number in the table: %.4g, with nan and inf as Python prints them. */
static void number(char *buf, size_t cap, double v)
{
    if (isnan(v)) snprintf(buf, cap, "nan");
    else if (isinf(v)) snprintf(buf, cap, "inf");
    else snprintf(buf, cap, "%.4g", v);
}

static void say_side(sess_buf *b, const char *mark, const diff_side *s)
{
    sess_buf_printf(b, "%s snapshot %lld", mark, (long long)s->id);
    if (s->tag) sess_buf_printf(b, " '%s'", s->tag);
    sess_buf_printf(b, ": %s, session %lld", s->name, (long long)s->session);
    if (s->cell > 0) sess_buf_printf(b, ", In [%lld]", (long long)s->cell);
    sess_buf_printf(b, ", %zu tensors\n", nn_dict_len(s->sd));
}

/* The keys of from that to lacks, as "only in A: k1, k2" (nothing when none). */
static void only_in(sess_buf *b, const diff_side *from, const diff_side *to, const char *label)
{
    size_t pos = 0, count = 0;
    nn_object *k, *v;
    while (nn_dict_next(from->sd, &pos, &k, &v)) {
        if (nn_dict_get_str(to->sd, nn_str_cstr(k))) continue;
        sess_buf_printf(b, "%s%s", count ? ", " : label, nn_str_cstr(k));
        count++;
    }
    if (count) sess_buf_puts(b, "\n");
}

static sess_status diff_text(sess_buf *b, const diff_side *a, const diff_side *c)
{
    size_t na = nn_dict_len(a->sd);
    diff_row *rows = nn_calloc(na ? na : 1, sizeof *rows);
    if (!rows) return SESS_NOMEM;
    size_t nrows = 0, pos = 0, keyw = 3, shapew = 5;
    nn_object *k, *v;
    while (nn_dict_next(a->sd, &pos, &k, &v)) {
        nn_object *w = nn_dict_get_str(c->sd, nn_str_cstr(k));
        if (!w || !nn_is_tensor(v) || !nn_is_tensor(w)) continue;
        diff_row *r = &rows[nrows++];
        r->key = nn_str_cstr(k);
        nn_tensor *x = NN_TENSOR(v), *y = NN_TENSOR(w);
        shape_text(x, r->shape, sizeof r->shape);
        if (!same_shape(x, y)) {
            char other[32];
            shape_text(y, other, sizeof other);
            size_t l = strlen(r->shape);
            snprintf(r->shape + l, sizeof r->shape - l, " -> %s", other);
            r->shape_differs = 1;
        } else if (compare(x, y, r) < 0) {
            nn_free(rows);
            return SESS_NOMEM;
        }
        if (strlen(r->key) > keyw) keyw = strlen(r->key);
        if (strlen(r->shape) > shapew) shapew = strlen(r->shape);
    }
    qsort(rows, nrows, sizeof *rows, by_change);
    say_side(b, "A:", a);
    say_side(b, "B:", c);
    size_t changed = 0;
    if (nrows) {
        sess_buf_printf(b, "%-*s  %-*s  %11s  %11s  %11s\n", (int)keyw, "key", (int)shapew, "shape", "max abs",
                        "max rel", "norm");
        for (size_t i = 0; i < nrows; i++) {
            diff_row *r = &rows[i];
            char m[32], rel[32], nrm[32];
            if (r->shape_differs) {
                snprintf(m, sizeof m, "-");
                snprintf(rel, sizeof rel, "-");
                snprintf(nrm, sizeof nrm, "-");
            } else {
                number(m, sizeof m, r->max_abs);
                number(rel, sizeof rel, r->max_rel);
                number(nrm, sizeof nrm, r->norm);
            }
            if (r->shape_differs || r->max_abs != 0) changed++;
            sess_buf_printf(b, "%-*s  %-*s  %11s  %11s  %11s\n", (int)keyw, r->key, (int)shapew, r->shape, m, rel,
                            nrm);
        }
    }
    only_in(b, a, c, "only in A: ");
    only_in(b, c, a, "only in B: ");
    sess_buf_printf(b, "%zu of %zu common tensors changed\n", changed, nrows);
    nn_free(rows);
    return SESS_OK;
}

sess_status sess_snapshot_diff(sess_db *db, const char *a, const char *b, char **text)
{
    *text = NULL;
    diff_side x, y;
    sess_status st = resolve(db, a, &x);
    if (st) return st;
    if ((st = resolve(db, b, &y))) {
        side_clear(&x);
        return st;
    }
    sess_buf buf = {0};
    st = diff_text(&buf, &x, &y);
    side_clear(&x);
    side_clear(&y);
    if (!st && (buf.failed || !buf.s)) st = SESS_NOMEM;
    if (st) {
        sess_buf_free(&buf);
        return st == SESS_NOMEM ? sess_fail(SESS_NOMEM, "out of memory") : st;
    }
    *text = buf.s;
    return SESS_OK;
}
