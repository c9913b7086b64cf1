/*
 * export.c — a recorded session as a runnable Python script (one "# %%" block per
 * cell) or as a Jupyter notebook (nbformat 4.4) with the recorded outputs; the
 * JSON is written here, escaped as RFC 8259 asks (invalid UTF-8 becomes U+FFFD).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sess_int.h"

/* The length of the valid UTF-8 sequence at s (n bytes left), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) len = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) len = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, min = 0x10000;
    else return 0;
    if (len > n) return 0;
    unsigned cp = c & (0xff >> (len + 1));
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return len;
}

/* Appends [s, s + n) as a JSON string literal. */
static void json_string(sess_buf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    sess_buf_puts(b, "\"");
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        if (c == '"') sess_buf_puts(b, "\\\"");
        else if (c == '\\') sess_buf_puts(b, "\\\\");
        else if (c == '\n') sess_buf_puts(b, "\\n");
        else if (c == '\r') sess_buf_puts(b, "\\r");
        else if (c == '\t') sess_buf_puts(b, "\\t");
        else if (c < 0x20 || c == 0x7f) sess_buf_printf(b, "\\u%04x", c);
        else if (c < 0x80) sess_buf_append(b, s + i, 1);
        else {
            size_t l = utf8_len(p + i, n - i);
            if (!l) {
                sess_buf_puts(b, "\\ufffd");
                i++;
                continue;
            }
            sess_buf_append(b, s + i, l);
            i += l;
            continue;
        }
        i++;
    }
    sess_buf_puts(b, "\"");
}

/* Appends text as a JSON array of its lines, each keeping its "\n" (Jupyter's
   multiline strings). */
static void json_lines(sess_buf *b, const char *text, const char *indent)
{
    if (!*text) {
        sess_buf_puts(b, "[]");
        return;
    }
    sess_buf_puts(b, "[");
    const char *p = text;
    int first = 1;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) + 1 : strlen(p);
        sess_buf_puts(b, first ? "\n" : ",\n");
        sess_buf_puts(b, indent);
        json_string(b, p, l);
        first = 0;
        p += l;
    }
    sess_buf_puts(b, "\n");
    sess_buf_append(b, indent, strlen(indent) - 1);
    sess_buf_puts(b, "]");
}

/* The exception name of an error text: the word before ':' on its last non-empty line
   when that word is an identifier (dots allowed), else "Error"; written to name. */
static void error_name(const char *err, char *name, size_t cap)
{
    const char *last = err, *p = err;
    while (*p) {
        const char *e = strchr(p, '\n');
        if (!e) e = p + strlen(p);
        if (e > p) last = p;
        p = *e ? e + 1 : e;
    }
    size_t l = 0;
    while (last[l] && (last[l] == '_' || last[l] == '.' || (last[l] >= 'a' && last[l] <= 'z') ||
                       (last[l] >= 'A' && last[l] <= 'Z') || (l && last[l] >= '0' && last[l] <= '9')))
        l++;
    if (l == 0 || l >= cap || (last[l] != ':' && last[l] != '\n' && last[l] != '\0')) {
        snprintf(name, cap, "Error");
        return;
    }
    memcpy(name, last, l);
    name[l] = '\0';
}

/* The message part of the error's last line (after "Name: "), as [start, len). */
static void error_value(const char *err, const char **start, size_t *len)
{
    const char *last = err, *p = err;
    while (*p) {
        const char *e = strchr(p, '\n');
        if (!e) e = p + strlen(p);
        if (e > p) last = p;
        p = *e ? e + 1 : e;
    }
    const char *e = strchr(last, '\n');
    size_t l = e ? (size_t)(e - last) : strlen(last);
    const char *colon = memchr(last, ':', l);
    if (colon) {
        const char *v = colon + 1;
        while (v < last + l && *v == ' ') v++;
        *start = v, *len = (size_t)(last + l - v);
    } else {
        *start = last, *len = l;
    }
}

/* Where the Out[n] echo starts in a cell's recorded output (it is the last thing
   a cell writes: the last line that starts "Out[n]: " with the cell's number),
   or NULL when the cell echoed nothing (it failed, or a ';' silenced it). */
static const char *echo_of(const sess_cell_info *c)
{
    if (c->status != SESS_CELL_OK || c->silent) return NULL;
    char tag[48];
    int tl = snprintf(tag, sizeof tag, "Out[%lld]: ", (long long)c->number);
    const char *found = NULL;
    for (const char *p = c->output; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, tag, (size_t)tl)) found = p;
    return found;
}

static void export_ipynb(sess_buf *b, const sess_session_info *info, const sess_cell_info *cells, size_t n)
{
    sess_buf_puts(b, "{\n \"cells\": [");
    for (size_t i = 0; i < n; i++) {
        const sess_cell_info *c = &cells[i];
        sess_buf_puts(b, i ? ",\n  {\n" : "\n  {\n");
        sess_buf_puts(b, "   \"cell_type\": \"code\",\n");
        sess_buf_printf(b, "   \"execution_count\": %lld,\n", (long long)c->number);
        sess_buf_puts(b, "   \"metadata\": {},\n   \"outputs\": [");
        int nout = 0;
        const char *echo = echo_of(c);
        size_t printed = echo ? (size_t)(echo - c->output) : strlen(c->output);
        if (printed) { /* what the cell printed: a stream */
            char *text = nn_malloc(printed + 1);
            if (!text) {
                b->failed = 1;
                return;
            }
            memcpy(text, c->output, printed);
            text[printed] = '\0';
            sess_buf_puts(b, "\n    {\n     \"name\": \"stdout\",\n     \"output_type\": \"stream\",\n     \"text\": ");
            json_lines(b, text, "      ");
            sess_buf_puts(b, "\n    }");
            nn_free(text);
            nout++;
        }
        if (echo) { /* Out[n]: the value, as Jupyter's execute_result (text/plain without its last newline) */
            echo = strchr(echo, ':') + 2;
            if (*echo == '\n') echo++; /* a repr of several lines starts on the next line */
            size_t l = strlen(echo);
            while (l && echo[l - 1] == '\n') l--;
            char *value = nn_malloc(l + 1);
            if (!value) {
                b->failed = 1;
                return;
            }
            memcpy(value, echo, l);
            value[l] = '\0';
            sess_buf_puts(b, nout ? ",\n    {\n" : "\n    {\n");
            sess_buf_puts(b, "     \"data\": {\n      \"text/plain\": ");
            json_lines(b, value, "       ");
            sess_buf_printf(b, "\n     },\n     \"execution_count\": %lld,\n     \"metadata\": {},\n"
                               "     \"output_type\": \"execute_result\"\n    }", (long long)c->number);
            nn_free(value);
            nout++;
        }
        if (c->error && *c->error) {
            char ename[128];
            const char *ev;
            size_t evl;
            error_name(c->error, ename, sizeof ename);
            error_value(c->error, &ev, &evl);
            sess_buf_puts(b, nout ? ",\n    {\n" : "\n    {\n");
            sess_buf_puts(b, "     \"ename\": ");
            json_string(b, ename, strlen(ename));
            sess_buf_puts(b, ",\n     \"evalue\": ");
            json_string(b, ev, evl);
            sess_buf_puts(b, ",\n     \"output_type\": \"error\",\n     \"traceback\": [");
            /* traceback: the lines without their newlines */
            const char *p = c->error;
            int first = 1;
            while (*p) {
                const char *e = strchr(p, '\n');
                size_t l = e ? (size_t)(e - p) : strlen(p);
                sess_buf_puts(b, first ? "\n      " : ",\n      ");
                json_string(b, p, l);
                first = 0;
                p += l + (e ? 1 : 0);
            }
            sess_buf_puts(b, first ? "]\n    }" : "\n     ]\n    }");
            nout++;
        }
        sess_buf_puts(b, nout ? "\n   ],\n" : "],\n");
        sess_buf_puts(b, "   \"source\": ");
        /* Jupyter's source lines: the last one has no trailing newline */
        size_t sl = strlen(c->source);
        while (sl && c->source[sl - 1] == '\n') sl--;
        if (!sl) sess_buf_puts(b, "[]");
        else {
            sess_buf_puts(b, "[");
            const char *p = c->source, *end = c->source + sl;
            int first = 1;
            while (p < end) {
                const char *e = memchr(p, '\n', (size_t)(end - p));
                size_t l = e ? (size_t)(e - p) + 1 : (size_t)(end - p);
                sess_buf_puts(b, first ? "\n    " : ",\n    ");
                json_string(b, p, l);
                first = 0;
                p += l;
            }
            sess_buf_puts(b, "\n   ]");
        }
        sess_buf_puts(b, "\n  }");
    }
    sess_buf_puts(b, n ? "\n ],\n" : "],\n");
    sess_buf_puts(b, " \"metadata\": {\n  \"kernelspec\": {\n   \"display_name\": \"Python 3\",\n"
                     "   \"language\": \"python\",\n   \"name\": \"python3\"\n  },\n"
                     "  \"language_info\": {\n   \"name\": \"python\"\n  },\n  \"nnscope\": {\n");
    sess_buf_printf(b, "   \"session\": %lld,\n   \"session_name\": ", (long long)info->id);
    if (info->name) json_string(b, info->name, strlen(info->name));
    else sess_buf_puts(b, "null");
    sess_buf_printf(b, ",\n   \"started\": %.6f,\n   \"version\": ", info->started);
    json_string(b, info->version, strlen(info->version));
    sess_buf_puts(b, "\n  }\n },\n \"nbformat\": 4,\n \"nbformat_minor\": 4\n}\n");
}

/* The length of the line break at p, 0 when none: \n, \r\n and \r (what Python's
   tokenizer ends a line at), and with all set, every break str.splitlines knows:
   \v, \f, \x1c-\x1e and, in UTF-8, U+0085, U+2028, U+2029. */
static size_t line_break(const char *p, int all)
{
    const unsigned char *u = (const unsigned char *)p;
    if (u[0] == '\r') return u[1] == '\n' ? 2 : 1;
    if (u[0] == '\n') return 1;
    if (!all) return 0;
    if (u[0] == '\v' || u[0] == '\f' || (u[0] >= 0x1c && u[0] <= 0x1e)) return 1;
    if (u[0] == 0xc2 && u[1] == 0x85) return 2;
    if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9)) return 3;
    return 0;
}

/* The length of the line at p, up to its break or the end. */
static size_t line_length(const char *p, int all)
{
    size_t l = 0;
    while (p[l] && !line_break(p + l, all)) l++;
    return l;
}

/* Appends text's lines, each prefixed with prefix (a block of comments): any line
   break Python knows starts a new comment line, so no recorded text can end a
   comment early and become code in the exported script. */
static void prefixed_lines(sess_buf *b, const char *text, const char *prefix)
{
    const char *p = text;
    while (*p) {
        size_t l = line_length(p, 1);
        sess_buf_puts(b, prefix);
        sess_buf_append(b, p, l);
        sess_buf_puts(b, "\n");
        p += l + line_break(p + l, 1);
    }
}

/* Appends s on one line: every line break becomes a space (a header comment). */
static void one_line(sess_buf *b, const char *s)
{
    for (const char *p = s; *p;) {
        size_t l = line_length(p, 1);
        sess_buf_append(b, p, l);
        p += l;
        size_t k = line_break(p, 1);
        if (k) sess_buf_puts(b, " ");
        p += k;
    }
}

static void export_py(sess_buf *b, const sess_session_info *info, const sess_cell_info *cells, size_t n)
{
    sess_buf_printf(b, "# nnscope session %lld", (long long)info->id);
    if (info->name) {
        sess_buf_puts(b, ": ");
        one_line(b, info->name);
    }
    sess_buf_puts(b, "\n# recorded by nnscope ");
    one_line(b, info->version ? info->version : "");
    sess_buf_printf(b, "; %zu cells\n", n);
    for (size_t i = 0; i < n; i++) {
        const sess_cell_info *c = &cells[i];
        sess_buf_printf(b, "\n# %%%% [%lld]\n", (long long)c->number);
        const char *src = c->source;
        while (*src == ' ' || *src == '\t' || *src == '\n') src++;
        if (!strncmp(src, "%%", 2)) { /* a cell magic: %%time runs the rest, others are not Python */
            size_t l = line_length(src, 0);
            int timed = l >= 6 && !strncmp(src, "%%time", 6) && (l == 6 || src[6] == ' ');
            prefixed_lines(b, timed ? "%%time" : src, "# ");
            if (!timed) continue;
            src += l + line_break(src + l, 0);
        }
        long failed = c->status != SESS_CELL_OK ? sess_failed_statement(src, c->error) : 0;
        /* code lines end where Python's tokenizer ends them (\n, \r\n, \r), written with \n */
        const char *p = src;
        for (long line = 1; *p && (c->status == SESS_CELL_OK || line < failed); line++) {
            size_t l = line_length(p, 0);
            int kind = sess_py_line(b, p, l);
            if (kind <= 0) {
                if (kind < 0) sess_buf_puts(b, "# "); /* no Python for it */
                sess_buf_append(b, p, l);
                sess_buf_puts(b, "\n");
            }
            p += l + line_break(p + l, 0);
        }
        if (c->status == SESS_CELL_OK) continue;
        const char *what = c->status == SESS_CELL_ERROR ? "raised an error" : "was interrupted";
        if (failed) sess_buf_printf(b, "# the cell %s here; the rest of it is commented out:\n", what);
        else sess_buf_printf(b, "# this cell %s; it is commented out:\n", what);
        prefixed_lines(b, p, "# ");
        if (c->error && *c->error) { /* the recorded traceback's last line */
            const char *last = c->error, *e = c->error;
            while (*e) {
                size_t l = line_length(e, 1);
                if (l) last = e;
                e += l;
                e += line_break(e, 1);
            }
            char *one = nn_malloc(line_length(last, 1) + 1);
            if (!one) {
                b->failed = 1;
                continue;
            }
            memcpy(one, last, line_length(last, 1));
            one[line_length(last, 1)] = '\0';
            prefixed_lines(b, one, "# ! ");
            nn_free(one);
        }
    }
}

sess_status sess_session_get(sess_db *db, int64_t session_id, sess_session_info *info)
{
    memset(info, 0, sizeof *info);
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "SELECT name, started, ended, nnscope_version, script,"
                                      " (SELECT count(*) FROM cells c WHERE c.session = s.id),"
                                      " (SELECT count(*) FROM snapshots p WHERE p.session = s.id),"
                                      " threads, cpu, gpu FROM sessions s WHERE id = ?1", &stmt);
    if (st) return st;
    sqlite3_bind_int64(stmt, 1, session_id);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        info->id = session_id;
        info->name = sess_column_text(stmt, 0, 1, &st);
        info->started = sqlite3_column_double(stmt, 1);
        info->ended = sqlite3_column_double(stmt, 2);
        info->version = sess_column_text(stmt, 3, 0, &st);
        info->script = sess_column_text(stmt, 4, 1, &st);
        info->cells = sqlite3_column_int64(stmt, 5);
        info->snapshots = sqlite3_column_int64(stmt, 6);
        info->threads = sqlite3_column_int64(stmt, 7);
        info->cpu = sess_column_text(stmt, 8, 1, &st);
        info->gpu = sess_column_text(stmt, 9, 1, &st);
    } else if (rc == SQLITE_DONE) {
        st = sess_fail(SESS_NOTFOUND, "no session with id %lld", (long long)session_id);
    } else {
        st = sess_sqlite_error(db, rc, "cannot read the session");
    }
    sqlite3_finalize(stmt);
    if (st) sess_session_info_clear(info);
    return st;
}

sess_status sess_export_text(sess_db *db, int64_t session_id, sess_export_format fmt, char **out, size_t *len)
{
    *out = NULL;
    if (len) *len = 0;
    sess_session_info info;
    sess_status st = sess_session_get(db, session_id, &info);
    if (st) return st;
    sess_cell_info *cells;
    size_t n;
    if ((st = sess_list_cells(db, session_id, &cells, &n))) {
        sess_session_info_clear(&info);
        return st;
    }
    sess_buf b = {0};
    if (fmt == SESS_EXPORT_IPYNB) export_ipynb(&b, &info, cells, n);
    else export_py(&b, &info, cells, n);
    sess_cell_info_free(cells, n);
    sess_session_info_clear(&info);
    if (b.failed || !b.s) {
        sess_buf_free(&b);
        return nn_error_current() == NN_ERR_MEMORY ? SESS_NOMEM : sess_fail(SESS_NOMEM, "out of memory");
    }
    *out = b.s;
    if (len) *len = b.len;
    return SESS_OK;
}

/* Writes len bytes to path through a temporary file in the same directory, fsynced
   and renamed over path, so that path holds either its old contents or all of data. */
static sess_status write_file_atomic(const char *path, const void *data, size_t len)
{
    char tmp[4200];
    if (strlen(path) + 40 > sizeof tmp) return sess_fail(SESS_IO, "path too long: %s", path);
    /* a new file of our own beside path: O_EXCL never follows a planted symlink or
       reuses someone else's file; a name taken is tried again with the next one */
    int fd = -1;
    for (unsigned k = 0; fd < 0 && k < 100; k++) {
        snprintf(tmp, sizeof tmp, "%s.tmp%ld.%u", path, (long)getpid(), k);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        int err = errno;
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return sess_fail(SESS_IO, "cannot write %s: %s", path, strerror(err));
    }
    int ok = fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0) && ok;
    int err = errno;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        if (ok) err = errno;
        unlink(tmp);
        return sess_fail(SESS_IO, "cannot write %s: %s", path, strerror(err));
    }
    return SESS_OK;
}

sess_status sess_export_file(sess_db *db, int64_t session_id, const char *path)
{
    size_t pl = strlen(path);
    sess_export_format fmt = pl >= 6 && strcmp(path + pl - 6, ".ipynb") == 0 ? SESS_EXPORT_IPYNB : SESS_EXPORT_PY;
    char *text;
    size_t len;
    sess_status st = sess_export_text(db, session_id, fmt, &text, &len);
    if (st) return st;
    st = write_file_atomic(path, text, len);
    nn_free(text);
    return st;
}

sess_status sess_snapshot_export(sess_db *db, const char *id_or_tag, const char *path)
{
    void *data;
    size_t len;
    sess_status st = sess_snapshot_bytes(db, id_or_tag, &data, &len);
    if (st) return st;
    st = write_file_atomic(path, data, len);
    nn_free(data);
    return st;
}
