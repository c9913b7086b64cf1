/*
 * record.c — writing to the sessions database: sessions, cells (one transaction
 * each, so a crash loses at most the cell being recorded) and state_dict
 * snapshots (safetensors bytes plus their sha256, checked again on load).
 * Every value is a bound parameter; nothing is ever pasted into SQL text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sess_int.h"

static const char *const cell_status_text[] = {"ok", "error", "interrupted"};

/* Runs a prepared write statement to completion and finalizes it; when must_change,
   no changed row is SESS_NOTFOUND with what_missing as the message. */
static sess_status step_done(sess_db *db, sqlite3_stmt *stmt, const char *what, int must_change,
                             const char *what_missing)
{
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) return sess_sqlite_error(db, rc, what);
    if (must_change && sqlite3_changes(db->db) == 0) return sess_fail(SESS_NOTFOUND, "%s", what_missing);
    return SESS_OK;
}

static int bind_rng(sqlite3_stmt *stmt, int i, const void *rng_state)
{
    if (!rng_state) return sqlite3_bind_null(stmt, i);
    return sqlite3_bind_blob(stmt, i, rng_state, (int)nn_generator_state_size(), SQLITE_STATIC);
}

sess_status sess_session_begin(sess_db *db, const char *name, const void *rng_state, int64_t *session_id)
{
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "INSERT INTO sessions (name, started, rng_state, nnscope_version)"
                                      " VALUES (?1, ?2, ?3, ?4)", &stmt);
    if (st) return st;
    if (name) sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_double(stmt, 2, sess_now());
    bind_rng(stmt, 3, rng_state);
    sqlite3_bind_text(stmt, 4, NN_VERSION, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return sess_fail(SESS_CONSTRAINT, "a session named '%s' already exists", name ? name : "");
    if (rc != SQLITE_DONE) return sess_sqlite_error(db, rc, "cannot start a session");
    *session_id = sqlite3_last_insert_rowid(db->db);
    return SESS_OK;
}

sess_status sess_session_name(sess_db *db, int64_t session_id, const char *name)
{
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "UPDATE sessions SET name = ?1 WHERE id = ?2", &stmt);
    if (st) return st;
    if (name) sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, session_id);
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return sess_fail(SESS_CONSTRAINT, "a session named '%s' already exists", name ? name : "");
    if (rc != SQLITE_DONE) return sess_sqlite_error(db, rc, "cannot name the session");
    if (sqlite3_changes(db->db) == 0) return sess_fail(SESS_NOTFOUND, "no session with id %lld", (long long)session_id);
    return SESS_OK;
}

sess_status sess_session_end(sess_db *db, int64_t session_id)
{
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "UPDATE sessions SET ended = ?1 WHERE id = ?2", &stmt);
    if (st) return st;
    sqlite3_bind_double(stmt, 1, sess_now());
    sqlite3_bind_int64(stmt, 2, session_id);
    char missing[64];
    snprintf(missing, sizeof missing, "no session with id %lld", (long long)session_id);
    return step_done(db, stmt, "cannot end the session", 1, missing);
}

/* SESS_OK when the session exists, SESS_NOTFOUND (with a message) when not. */
static sess_status session_exists(sess_db *db, int64_t session_id)
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

sess_status sess_cell_record(sess_db *db, int64_t session_id, int64_t number, const char *source,
                             const char *output, const char *error, sess_cell_status status,
                             double started, double duration, const void *rng_state)
{
    if (!source || (unsigned)status > SESS_CELL_INTERRUPTED)
        return sess_fail(SESS_MISUSE, "sess_cell_record: %s", source ? "bad status" : "source is NULL");
    sqlite3_stmt *stmt = NULL;
    sess_status st = sess_begin(db);
    if (st) return st;
    if ((st = session_exists(db, session_id))) goto fail;
    if ((st = sess_prepare(db, "INSERT INTO cells (session, number, source, output, error, status, started,"
                               " duration, rng_state) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", &stmt)))
        goto fail;
    sqlite3_bind_int64(stmt, 1, session_id);
    sqlite3_bind_int64(stmt, 2, number);
    sqlite3_bind_text(stmt, 3, source, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 4, output ? output : "", -1, SQLITE_STATIC);
    if (error) sqlite3_bind_text(stmt, 5, error, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 6, cell_status_text[status], -1, SQLITE_STATIC);
    sqlite3_bind_double(stmt, 7, started);
    sqlite3_bind_double(stmt, 8, duration);
    bind_rng(stmt, 9, rng_state);
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    if ((rc & 0xff) == SQLITE_CONSTRAINT) {
        st = sess_fail(SESS_CONSTRAINT, "session %lld already has a cell number %lld", (long long)session_id,
                       (long long)number);
        goto fail;
    }
    if (rc != SQLITE_DONE) {
        st = sess_sqlite_error(db, rc, "cannot record the cell");
        goto fail;
    }
    return sess_commit(db);
fail:
    sess_rollback(db);
    return st;
}

/* ----------------------------------------------------------------- snapshots */

/* {"nnscope_session": ..., "nnscope_cell": ..., "nnscope_name": ..., "nnscope_tag": ...}
   as a new dict, or NULL with MemoryError. */
static nn_object *snapshot_metadata(int64_t session_id, int64_t cell, const char *name, const char *tag)
{
    nn_object *meta = nn_dict_new();
    if (!meta) return NULL;
    const char *keys[4] = {"nnscope_session", "nnscope_cell", "nnscope_name", "nnscope_tag"};
    nn_object *vals[4] = {nn_str_format("%lld", (long long)session_id),
                          nn_str_format("%lld", (long long)(cell > 0 ? cell : 0)), nn_str_new(name),
                          nn_str_new(tag ? tag : "")};
    int rc = 0;
    for (int i = 0; i < 4; i++) {
        if (rc == 0) rc = vals[i] ? nn_dict_set_str(meta, keys[i], vals[i]) : -1;
        NN_RELEASE(vals[i]);
    }
    if (rc < 0) {
        NN_RELEASE(meta);
        return NULL;
    }
    return meta;
}

sess_status sess_snapshot_save(sess_db *db, int64_t session_id, int64_t cell, const char *name,
                               const char *tag, nn_object *state_dict, int64_t *snapshot_id)
{
    if (!name || !state_dict || !nn_is_dict(state_dict))
        return sess_fail(SESS_MISUSE, "sess_snapshot_save: %s", !name ? "name is NULL" : "state_dict is not a dict");
    void *bytes = NULL;
    size_t len = 0;
    nn_object *meta = snapshot_metadata(session_id, cell, name, tag);
    if (!meta) return SESS_NOMEM;
    int crc = nn_state_dict_to_bytes(state_dict, meta, &bytes, &len);
    NN_RELEASE(meta);
    if (crc < 0) return sess_from_core();
    if (len > (size_t)2147483647) {
        nn_free(bytes);
        return sess_fail(SESS_MISUSE, "a snapshot of %zu bytes is larger than SQLite's 2 GB limit on a value", len);
    }
    char hex[65];
    sess_sha256_hex(bytes, len, hex);

    sqlite3_stmt *stmt = NULL;
    sess_status st = sess_begin(db);
    if (st) goto out;
    if ((st = session_exists(db, session_id))) goto fail;
    if ((st = sess_prepare(db, "INSERT INTO snapshots (session, cell, name, tag, created, sha256, data)"
                               " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", &stmt)))
        goto fail;
    sqlite3_bind_int64(stmt, 1, session_id);
    if (cell > 0) sqlite3_bind_int64(stmt, 2, cell);
    sqlite3_bind_text(stmt, 3, name, -1, SQLITE_STATIC);
    if (tag) sqlite3_bind_text(stmt, 4, tag, -1, SQLITE_STATIC);
    sqlite3_bind_double(stmt, 5, sess_now());
    sqlite3_bind_text(stmt, 6, hex, 64, SQLITE_STATIC);
    sqlite3_bind_blob(stmt, 7, bytes, (int)len, SQLITE_STATIC);
    if ((st = step_done(db, stmt, "cannot store the snapshot", 0, NULL))) goto fail;
    int64_t id = sqlite3_last_insert_rowid(db->db);
    if ((st = sess_commit(db))) goto out;
    if (snapshot_id) *snapshot_id = id;
    goto out;
fail:
    sess_rollback(db);
out:
    nn_free(bytes);
    return st;
}

/* Whether s is a non-empty run of decimal digits (an id). */
static int is_decimal(const char *s)
{
    if (!*s || strlen(s) > 18) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

sess_status sess_snapshot_bytes(sess_db *db, const char *id_or_tag, void **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    if (!id_or_tag) return sess_fail(SESS_MISUSE, "sess_snapshot_load: no id or tag");
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "SELECT id, sha256, data FROM snapshots"
                                      " WHERE (?1 IS NOT NULL AND id = ?1) OR tag = ?2 OR name = ?2"
                                      " ORDER BY (?1 IS NOT NULL AND id = ?1) DESC, tag IS ?2 DESC, id DESC"
                                      " LIMIT 1", &stmt);
    if (st) return st;
    if (is_decimal(id_or_tag)) sqlite3_bind_int64(stmt, 1, strtoll(id_or_tag, NULL, 10));
    sqlite3_bind_text(stmt, 2, id_or_tag, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) {
        st = sess_fail(SESS_NOTFOUND, "no snapshot with id, tag or name '%s'", id_or_tag);
        goto out;
    }
    if (rc != SQLITE_ROW) {
        st = sess_sqlite_error(db, rc, "cannot read the snapshot");
        goto out;
    }
    long long id = sqlite3_column_int64(stmt, 0);
    const char *want = (const char *)sqlite3_column_text(stmt, 1);
    const void *blob = sqlite3_column_blob(stmt, 2);
    size_t n = (size_t)sqlite3_column_bytes(stmt, 2);
    if (!want && sqlite3_errcode(db->db) == SQLITE_NOMEM) {
        st = sess_fail(SESS_NOMEM, "out of memory reading snapshot %lld", id);
        goto out;
    }
    char hex[65];
    sess_sha256_hex(blob ? blob : "", n, hex);
    if (!want || strcmp(want, hex) != 0) {
        st = sess_fail(SESS_CHECKSUM, "snapshot %lld is damaged: its bytes have sha256 %s, recorded %s", id, hex,
                       want ? want : "(none)");
        goto out;
    }
    void *copy = nn_malloc(n);
    if (!copy) {
        st = SESS_NOMEM;
        goto out;
    }
    if (n) memcpy(copy, blob, n);
    *data = copy;
    *len = n;
out:
    sqlite3_finalize(stmt);
    return st;
}

sess_status sess_snapshot_load(sess_db *db, const char *id_or_tag, nn_object **state_dict)
{
    *state_dict = NULL;
    void *data;
    size_t len;
    sess_status st = sess_snapshot_bytes(db, id_or_tag, &data, &len);
    if (st) return st;
    nn_object *sd = nn_state_dict_from_bytes(data, len, NULL);
    nn_free(data);
    if (!sd) return nn_error_current() == NN_ERR_MEMORY ? SESS_NOMEM : SESS_CORRUPT;
    *state_dict = sd;
    return SESS_OK;
}
