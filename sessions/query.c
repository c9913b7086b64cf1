/*
 * query.c — reading the sessions database: the lists behind %sessions,
 * %snapshots and export, full-text search over cell sources, and resolving a
 * session by id or name (with near matches by edit distance when it is unknown).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sess_int.h"

/* Grows *arr (of item size sz) to hold at least need items; 0 or -1 (MemoryError). */
static int grow(void **arr, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need) c *= 2;
    void *p = nn_realloc(*arr, c * sz);
    if (!p) return -1;
    *arr = p;
    *cap = c;
    return 0;
}

/* ------------------------------------------------------------------ sessions */

void sess_session_info_clear(sess_session_info *info)
{
    nn_free(info->name);
    nn_free(info->version);
    nn_free(info->script);
    nn_free(info->cpu);
    nn_free(info->gpu);
    info->name = info->version = info->script = info->cpu = info->gpu = NULL;
}

void sess_session_info_free(sess_session_info *a, size_t n)
{
    for (size_t i = 0; a && i < n; i++) sess_session_info_clear(&a[i]);
    nn_free(a);
}

sess_status sess_list_sessions(sess_db *db, sess_session_info **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "SELECT s.id, s.name, s.started, s.ended, s.nnscope_version,"
                                      " (SELECT count(*) FROM cells c WHERE c.session = s.id),"
                                      " (SELECT count(*) FROM snapshots p WHERE p.session = s.id), s.script"
                                      " FROM sessions s ORDER BY s.id", &stmt);
    if (st) return st;
    sess_session_info *a = NULL;
    size_t cnt = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (grow((void **)&a, &cap, cnt + 1, sizeof *a) < 0) {
            st = SESS_NOMEM;
            break;
        }
        sess_session_info *s = &a[cnt++];
        memset(s, 0, sizeof *s);
        s->id = sqlite3_column_int64(stmt, 0);
        s->name = sess_column_text(stmt, 1, 1, &st);
        s->started = sqlite3_column_double(stmt, 2);
        s->ended = sqlite3_column_double(stmt, 3);
        s->version = sess_column_text(stmt, 4, 0, &st);
        s->cells = sqlite3_column_int64(stmt, 5);
        s->snapshots = sqlite3_column_int64(stmt, 6);
        s->script = sess_column_text(stmt, 7, 1, &st);
        if (st) break;
    }
    if (!st && rc != SQLITE_DONE) st = sess_sqlite_error(db, rc, "cannot list the sessions");
    sqlite3_finalize(stmt);
    if (st) {
        sess_session_info_free(a, cnt);
        return st;
    }
    *out = a;
    *n = cnt;
    return SESS_OK;
}

/* --------------------------------------------------------------------- cells */

void sess_cell_info_free(sess_cell_info *a, size_t n)
{
    for (size_t i = 0; a && i < n; i++) {
        nn_free(a[i].source);
        nn_free(a[i].output);
        nn_free(a[i].error);
        nn_free(a[i].rng_state);
        nn_free(a[i].volatile_lines);
    }
    nn_free(a);
}

static sess_status session_known(sess_db *db, int64_t session_id)
{
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "SELECT 1 FROM sessions WHERE id = ?1", &stmt);
    if (st) return st;
    sqlite3_bind_int64(stmt, 1, session_id);
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if (rc == SQLITE_ROW) return SESS_OK;
    if (rc == SQLITE_DONE) return sess_fail(SESS_NOTFOUND, "no session with id %lld", (long long)session_id);
    return sess_sqlite_error(db, rc, "cannot read the sessions table");
}

sess_status sess_list_cells(sess_db *db, int64_t session_id, sess_cell_info **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    sess_status st = session_known(db, session_id);
    if (st) return st;
    sqlite3_stmt *stmt;
    if ((st = sess_prepare(db, "SELECT number, source, output, error, status, started, duration, rng_state,"
                               " view, volatile, silent FROM cells WHERE session = ?1 ORDER BY number", &stmt)))
        return st;
    sqlite3_bind_int64(stmt, 1, session_id);
    sess_cell_info *a = NULL;
    size_t cnt = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (grow((void **)&a, &cap, cnt + 1, sizeof *a) < 0) {
            st = SESS_NOMEM;
            break;
        }
        sess_cell_info *c = &a[cnt++];
        memset(c, 0, sizeof *c);
        c->session = session_id;
        c->number = sqlite3_column_int64(stmt, 0);
        c->source = sess_column_text(stmt, 1, 0, &st);
        c->output = sess_column_text(stmt, 2, 0, &st);
        c->error = sess_column_text(stmt, 3, 1, &st);
        const char *status = (const char *)sqlite3_column_text(stmt, 4);
        c->status = !status || !strcmp(status, "ok") ? SESS_CELL_OK
                    : !strcmp(status, "error")       ? SESS_CELL_ERROR
                                                     : SESS_CELL_INTERRUPTED;
        c->started = sqlite3_column_double(stmt, 5);
        c->duration = sqlite3_column_double(stmt, 6);
        const void *rng = sqlite3_column_blob(stmt, 7);
        size_t rn = (size_t)sqlite3_column_bytes(stmt, 7);
        if (rng && rn) {
            if (!(c->rng_state = nn_malloc(rn))) st = SESS_NOMEM;
            else {
                memcpy(c->rng_state, rng, rn);
                c->rng_len = rn;
            }
        }
        c->view = sqlite3_column_int64(stmt, 8);
        c->volatile_lines = sess_column_text(stmt, 9, 1, &st);
        c->silent = sqlite3_column_int(stmt, 10);
        if (st) break;
    }
    if (!st && rc != SQLITE_DONE) st = sess_sqlite_error(db, rc, "cannot list the cells");
    sqlite3_finalize(stmt);
    if (st) {
        sess_cell_info_free(a, cnt);
        return st;
    }
    *out = a;
    *n = cnt;
    return SESS_OK;
}

/* ----------------------------------------------------------------- snapshots */

void sess_snapshot_info_free(sess_snapshot_info *a, size_t n)
{
    for (size_t i = 0; a && i < n; i++) {
        nn_free(a[i].name);
        nn_free(a[i].tag);
    }
    nn_free(a);
}

sess_status sess_list_snapshots(sess_db *db, int64_t session_id, sess_snapshot_info **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "SELECT id, session, cell, name, tag, created, sha256, length(data)"
                                      " FROM snapshots WHERE ?1 <= 0 OR session = ?1 ORDER BY id", &stmt);
    if (st) return st;
    sqlite3_bind_int64(stmt, 1, session_id);
    sess_snapshot_info *a = NULL;
    size_t cnt = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (grow((void **)&a, &cap, cnt + 1, sizeof *a) < 0) {
            st = SESS_NOMEM;
            break;
        }
        sess_snapshot_info *s = &a[cnt++];
        memset(s, 0, sizeof *s);
        s->id = sqlite3_column_int64(stmt, 0);
        s->session = sqlite3_column_int64(stmt, 1);
        s->cell = sqlite3_column_int64(stmt, 2);
        s->name = sess_column_text(stmt, 3, 0, &st);
        s->tag = sess_column_text(stmt, 4, 1, &st);
        s->created = sqlite3_column_double(stmt, 5);
        const char *h = (const char *)sqlite3_column_text(stmt, 6);
        snprintf(s->sha256, sizeof s->sha256, "%s", h ? h : "");
        s->size = sqlite3_column_int64(stmt, 7);
        if (st) break;
    }
    if (!st && rc != SQLITE_DONE) st = sess_sqlite_error(db, rc, "cannot list the snapshots");
    sqlite3_finalize(stmt);
    if (st) {
        sess_snapshot_info_free(a, cnt);
        return st;
    }
    *out = a;
    *n = cnt;
    return SESS_OK;
}

/* -------------------------------------------------------------------- search */

void sess_search_hit_free(sess_search_hit *a, size_t n)
{
    for (size_t i = 0; a && i < n; i++) nn_free(a[i].line);
    nn_free(a);
}

/* Whether the table exists (FTS5 may be missing from the library). */
static int has_table(sess_db *db, const char *name)
{
    sqlite3_stmt *stmt;
    if (sess_prepare(db, "SELECT 1 FROM sqlite_schema WHERE name = ?1", &stmt)) {
        nn_error_clear();
        return 0;
    }
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    int found = sqlite3_step(stmt) == SQLITE_ROW;
    sqlite3_finalize(stmt);
    return found;
}

/* Case-insensitive substring search of needle (nlen bytes) in [s, s + slen). */
static int contains_ci(const char *s, size_t slen, const char *needle, size_t nlen)
{
    if (nlen == 0) return 1;
    for (size_t i = 0; i + nlen <= slen; i++)
        if (strncasecmp(s + i, needle, nlen) == 0) return 1;
    return 0;
}

/* The first line of source containing one of text's words (else line 1): its
   1-based number, start and length. */
static void matching_line(const char *source, const char *text, int64_t *line_no, const char **start, size_t *len)
{
    int64_t no = 1;
    const char *p = source;
    while (1) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        for (const char *w = text; *w;) {
            while (*w && isspace((unsigned char)*w)) w++;
            size_t wl = 0;
            while (w[wl] && !isspace((unsigned char)w[wl])) wl++;
            if (wl && contains_ci(p, l, w, wl)) {
                *line_no = no, *start = p, *len = l;
                return;
            }
            w += wl;
        }
        if (!e) break;
        p = e + 1;
        no++;
    }
    const char *e = strchr(source, '\n');
    *line_no = 1, *start = source, *len = e ? (size_t)(e - source) : strlen(source);
}

sess_status sess_search(sess_db *db, const char *text, sess_search_hit **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!text) return sess_fail(SESS_MISUSE, "sess_search: text is NULL");
    /* each word becomes an FTS5 string ("..." with " doubled): no operator in text
       means anything; the words are ANDed */
    sess_buf q = {0}, like = {0};
    int words = 0;
    for (const char *w = text; *w;) {
        while (*w && isspace((unsigned char)*w)) w++;
        size_t wl = 0;
        while (w[wl] && !isspace((unsigned char)w[wl])) wl++;
        if (!wl) break;
        sess_buf_puts(&q, words ? " \"" : "\"");
        for (size_t i = 0; i < wl; i++) sess_buf_append(&q, w[i] == '"' ? "\"\"" : &w[i], w[i] == '"' ? 2 : 1);
        sess_buf_puts(&q, "\"");
        words++;
        w += wl;
    }
    if (q.failed) {
        sess_buf_free(&q);
        return SESS_NOMEM;
    }
    if (!words) {
        sess_buf_free(&q);
        return SESS_OK;
    }
    int fts = has_table(db, "cells_fts");
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, fts ? "SELECT c.session, c.number, c.source FROM cells_fts f"
                                            " JOIN cells c ON c.id = f.rowid WHERE cells_fts MATCH ?1"
                                            " ORDER BY c.session, c.number"
                                          : "SELECT session, number, source FROM cells"
                                            " WHERE instr(lower(source), lower(?1)) > 0"
                                            " ORDER BY session, number", &stmt);
    if (st) {
        sess_buf_free(&q);
        return st;
    }
    /* without FTS5: the whole text as one case-insensitive substring */
    sess_buf_puts(&like, text);
    if (like.failed) {
        sqlite3_finalize(stmt);
        sess_buf_free(&q);
        return SESS_NOMEM;
    }
    sqlite3_bind_text(stmt, 1, fts ? q.s : like.s, -1, SQLITE_STATIC);
    sess_search_hit *a = NULL;
    size_t cnt = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (grow((void **)&a, &cap, cnt + 1, sizeof *a) < 0) {
            st = SESS_NOMEM;
            break;
        }
        sess_search_hit *h = &a[cnt++];
        memset(h, 0, sizeof *h);
        h->session = sqlite3_column_int64(stmt, 0);
        h->number = sqlite3_column_int64(stmt, 1);
        const char *src = (const char *)sqlite3_column_text(stmt, 2), *start;
        size_t len;
        matching_line(src ? src : "", text, &h->line_no, &start, &len);
        if (!(h->line = nn_malloc(len + 1))) {
            st = SESS_NOMEM;
            break;
        }
        memcpy(h->line, start, len);
        h->line[len] = '\0';
    }
    if (!st && rc != SQLITE_DONE) st = sess_sqlite_error(db, rc, "cannot search the cells");
    sqlite3_finalize(stmt);
    sess_buf_free(&q);
    sess_buf_free(&like);
    if (st) {
        sess_search_hit_free(a, cnt);
        return st;
    }
    *out = a;
    *n = cnt;
    return SESS_OK;
}

/* ------------------------------------------------------------------ resolve */

long sess_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *row = nn_malloc((lb + 1) * sizeof *row);
    if (!row) return -1;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = diag + cost;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    long d = (long)row[lb];
    nn_free(row);
    return d;
}

sess_status sess_session_resolve(sess_db *db, const char *name_or_id, int64_t *session_id)
{
    if (!name_or_id) return sess_fail(SESS_MISUSE, "sess_session_resolve: no name");
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "SELECT id FROM sessions WHERE name = ?2 OR (?1 IS NOT NULL AND id = ?1)"
                                      " ORDER BY name IS ?2 DESC LIMIT 1", &stmt);
    if (st) return st;
    const char *p = name_or_id;
    while (*p >= '0' && *p <= '9') p++;
    if (*name_or_id && !*p && p - name_or_id <= 18) sqlite3_bind_int64(stmt, 1, strtoll(name_or_id, NULL, 10));
    sqlite3_bind_text(stmt, 2, name_or_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) *session_id = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    if (rc == SQLITE_ROW) return SESS_OK;
    if (rc != SQLITE_DONE) return sess_sqlite_error(db, rc, "cannot read the sessions table");

    /* not found: up to five names within a third of the length (at least 2) */
    enum { MAXNEAR = 5 };
    char *near[MAXNEAR];
    long dist[MAXNEAR];
    int nnear = 0;
    long limit = (long)strlen(name_or_id) / 3;
    if (limit < 2) limit = 2;
    if ((st = sess_prepare(db, "SELECT name FROM sessions WHERE name IS NOT NULL ORDER BY id", &stmt))) return st;
    while (!st && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(stmt, 0);
        if (!name) continue;
        long d = sess_edit_distance(name_or_id, name);
        if (d < 0) {
            st = SESS_NOMEM;
            break;
        }
        if (d > limit) continue;
        int pos = nnear;
        while (pos > 0 && dist[pos - 1] > d) pos--;
        if (pos >= MAXNEAR) continue;
        char *copy = nn_strdup(name);
        if (!copy) {
            st = SESS_NOMEM;
            break;
        }
        if (nnear == MAXNEAR) nn_free(near[--nnear]);
        memmove(near + pos + 1, near + pos, (size_t)(nnear - pos) * sizeof *near);
        memmove(dist + pos + 1, dist + pos, (size_t)(nnear - pos) * sizeof *dist);
        near[pos] = copy;
        dist[pos] = d;
        nnear++;
    }
    sqlite3_finalize(stmt);
    if (!st) {
        char msg[900];
        size_t len = (size_t)snprintf(msg, sizeof msg, "no session named '%s'", name_or_id);
        for (int i = 0; i < nnear && len < sizeof msg; i++)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s'%s'", i ? ", " : "; did you mean ", near[i]);
        if (nnear && len < sizeof msg) snprintf(msg + len, sizeof msg - len, "?");
        st = sess_fail(SESS_NOTFOUND, "%s", msg);
    }
    for (int i = 0; i < nnear; i++) nn_free(near[i]);
    return st;
}
