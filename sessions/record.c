/*
 * record.c — writing to the sessions database: sessions, cells (one transaction
 * each, so a crash loses at most the cell being recorded) and state_dict
 * snapshots (safetensors bytes plus their sha256, checked again on load).
 * Every value is a bound parameter; nothing is ever pasted into SQL text.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The CPU model ("model name" of /proc/cpuinfo) into buf, or NULL when unknown. */
static const char *machine_cpu(char *buf, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    const char *found = NULL;
    char line[512];
    while (f && !found && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !colon) continue;
        colon += 1 + strspn(colon + 1, " \t");
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(buf, cap, "%s", colon);
        found = buf;
    }
    if (f) fclose(f);
    return found;
}

sess_status sess_session_begin(sess_db *db, const char *name, const char *script, const void *rng_state,
                               int64_t *session_id)
{
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "INSERT INTO sessions (name, started, rng_state, nnscope_version, seed, script,"
                                      " threads, cpu) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &stmt);
    if (st) return st;
    if (name) sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_double(stmt, 2, sess_now());
    bind_rng(stmt, 3, rng_state);
    sqlite3_bind_text(stmt, 4, NN_VERSION, -1, SQLITE_STATIC);
    int64_t seed;
    if (sess_seed_of_state(rng_state, nn_generator_state_size(), &seed)) sqlite3_bind_int64(stmt, 5, seed);
    if (script) sqlite3_bind_text(stmt, 6, script, -1, SQLITE_STATIC);
    long threads = nn_get_num_threads(); /* torch.get_num_threads() */
    if (threads > 0) sqlite3_bind_int64(stmt, 7, threads);
    char cpu[256];
    if (machine_cpu(cpu, sizeof cpu)) sqlite3_bind_text(stmt, 8, cpu, -1, SQLITE_STATIC);
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
    return sess_cell_record_meta(db, session_id, number, source, output, error, status, started, duration,
                                 rng_state, NULL);
}

sess_status sess_cell_record_meta(sess_db *db, int64_t session_id, int64_t number, const char *source,
                                  const char *output, const char *error, sess_cell_status status,
                                  double started, double duration, const void *rng_state,
                                  const sess_cell_meta *meta)
{
    if (!source || (unsigned)status > SESS_CELL_INTERRUPTED)
        return sess_fail(SESS_MISUSE, "sess_cell_record: %s", source ? "bad status" : "source is NULL");
    sqlite3_stmt *stmt = NULL;
    sess_status st = sess_begin(db);
    if (st) return st;
    if ((st = session_exists(db, session_id))) goto fail;
    if ((st = sess_prepare(db, "INSERT INTO cells (session, number, source, output, error, status, started,"
                               " duration, rng_state, view, volatile, silent)"
                               " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)", &stmt)))
        goto fail;
    if (meta && meta->view > 0) sqlite3_bind_int64(stmt, 10, meta->view);
    if (meta && meta->volatile_lines) sqlite3_bind_text(stmt, 11, meta->volatile_lines, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 12, meta && meta->silent);
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

/* The sha256 of a snapshot's bytes, computed piece by piece on a second thread while
   SQLite takes the same pieces into its pages and writes them to the WAL (27 ms for
   40 MB here on an idle CPU, 40 to 60 ms under load; the row's insertion and the
   flush take longer, so it is hardly ever waited for). */
typedef struct sha_job {
    const nn_safetensors_piece *pieces;
    size_t n;
    char hex[65];
    pthread_t thread;
    int running;
} sha_job;

static void *sha_job_run(void *arg)
{
    sha_job *job = arg;
    sess_sha256_ctx ctx;
    sess_sha256_init(&ctx);
    for (size_t i = 0; i < job->n; i++) sess_sha256_update(&ctx, job->pieces[i].data, job->pieces[i].len);
    unsigned char digest[32];
    sess_sha256_final(&ctx, digest);
    sess_sha256_hex_of(digest, job->hex);
    return NULL;
}

static void sha_job_start(sha_job *job)
{
    job->running = pthread_create(&job->thread, NULL, sha_job_run, job) == 0;
    if (!job->running) sha_job_run(job); /* no thread to be had: hash here */
}

/* The hex digest, once the thread (if any) is done. */
static const char *sha_job_finish(sha_job *job)
{
    if (job->running) pthread_join(job->thread, NULL);
    job->running = 0;
    return job->hex;
}

/* Writes n pieces, one after the other from offset 0, into column of snapshot row id
   (a value of exactly their total length already there) through an incremental-blob
   handle: SQLITE_OK or an SQLite code. */
static int write_in_place(sess_db *db, const char *column, int64_t id, const nn_safetensors_piece *pieces,
                          size_t n)
{
    sqlite3_blob *blob;
    int rc = sqlite3_blob_open(db->db, "main", "snapshots", column, id, 1, &blob);
    size_t offset = 0;
    for (size_t i = 0; rc == SQLITE_OK && i < n; offset += pieces[i++].len)
        rc = sqlite3_blob_write(blob, pieces[i].data, (int)pieces[i].len, (int)offset);
    int close_rc = sqlite3_blob_close(blob); /* NULL (after a failed open) is fine */
    return rc != SQLITE_OK ? rc : close_rc;
}

/* PRAGMA cache_size = value (pages when positive, KiB when negative). */
static void set_cache_size(sess_db *db, long long value)
{
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA cache_size = %lld", value);
    sqlite3_exec(db->db, sql, NULL, NULL, NULL);
}

/* Stores the row in the current transaction: the row with a zero blob of the bytes'
   length and a placeholder digest, then the pieces written straight into the blob's
   pages (never gathered into one buffer nor copied into an SQL value), then the
   digest, once sha is done, over the placeholder (an incremental-blob write into a
   TEXT value of the same length; sha256 must stay unindexed for that).
   Between the two, while sha may still be running, every page that is final goes to
   the WAL as frames of the open transaction (sqlite3_db_cacheflush; frames without a
   commit mark are ignored by readers and by recovery), so the commit has only the
   row's own page and page 1 left to write, and the disk has started on the rest
   (vfs.c). The digest's blob handle is opened before the flush: its cursor holds the
   row's page, which the flush then skips (pages in use are not written), so that
   page is written once, with the digest, and not rewritten in place (which would
   make SQLite read back and checksum again every frame after it at the commit). */
static sess_status insert_snapshot(sess_db *db, int64_t session_id, int64_t cell, const char *name, const char *tag,
                                   const nn_safetensors_pieces *bytes, sha_job *sha, int64_t *id)
{
    char placeholder[64];
    memset(placeholder, '0', sizeof placeholder);
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "INSERT INTO snapshots (session, cell, name, tag, created, sha256, data)"
                                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", &stmt);
    if (st) return st;
    sqlite3_bind_int64(stmt, 1, session_id);
    if (cell > 0) sqlite3_bind_int64(stmt, 2, cell);
    sqlite3_bind_text(stmt, 3, name, -1, SQLITE_STATIC);
    if (tag) sqlite3_bind_text(stmt, 4, tag, -1, SQLITE_STATIC);
    sqlite3_bind_double(stmt, 5, sess_now());
    sqlite3_bind_text(stmt, 6, placeholder, sizeof placeholder, SQLITE_STATIC);
    sqlite3_bind_zeroblob(stmt, 7, (int)bytes->total);
    /* the blob's new pages in huge pages (arena.c): their size, their headers, slack */
    sess_arena_begin(bytes->total + bytes->total / 8 + ((size_t)4 << 20), db->page_size);
    st = step_done(db, stmt, "cannot store the snapshot", 0, NULL);
    sess_arena_end();
    if (st) return st;
    *id = sqlite3_last_insert_rowid(db->db);
    int rc = write_in_place(db, "data", *id, bytes->pieces, bytes->n);
    sqlite3_blob *digest = NULL;
    if (rc == SQLITE_OK) rc = sqlite3_blob_open(db->db, "main", "snapshots", "sha256", *id, 1, &digest);
    if (rc == SQLITE_OK) rc = sqlite3_db_cacheflush(db->db);
    const char *hex = sha_job_finish(sha);
    if (rc == SQLITE_OK) rc = sqlite3_blob_write(digest, hex, 64, 0);
    int close_rc = sqlite3_blob_close(digest); /* NULL (after a failed open) is fine */
    if (rc == SQLITE_OK) rc = close_rc;
    return rc == SQLITE_OK ? SESS_OK : sess_sqlite_error(db, rc, "cannot store the snapshot");
}

sess_status sess_snapshot_save(sess_db *db, int64_t session_id, int64_t cell, const char *name,
                               const char *tag, nn_object *state_dict, int64_t *snapshot_id)
{
    if (!name || !state_dict || !nn_is_dict(state_dict))
        return sess_fail(SESS_MISUSE, "sess_snapshot_save: %s", !name ? "name is NULL" : "state_dict is not a dict");
    nn_object *meta = snapshot_metadata(session_id, cell, name, tag);
    if (!meta) return SESS_NOMEM;
    /* the safetensors bytes as pieces: the header, then the tensors' own data */
    nn_safetensors_pieces bytes;
    int crc = nn_state_dict_to_pieces(state_dict, meta, &bytes);
    NN_RELEASE(meta);
    if (crc < 0) return sess_from_core();
    size_t len = bytes.total;
    if (len > (size_t)2147483647) {
        nn_safetensors_pieces_free(&bytes);
        return sess_fail(SESS_MISUSE, "a snapshot of %zu bytes is larger than SQLite's 2 GB limit on a value", len);
    }
    sha_job sha = {.pieces = bytes.pieces, .n = bytes.n};
    sha_job_start(&sha);

    /* For this transaction only:
       - a page cache that holds the whole blob, so that its zero-filled pages are not
         spilled to the WAL before the bytes replace them;
       - synchronous=FULL: the WAL is synced at the commit, so the snapshot is on the
         disk when this returns, and the WAL writes can be gathered (vfs.c);
       - no automatic checkpoint at the commit (it would copy the blob into the
         database file at once): the next commit's, or the last close's, does. */
    long long cache_size = sess_pragma_int(db, "PRAGMA cache_size", -2000); /* SQLite's default: 2000 KiB */
    set_cache_size(db, -(long long)(len / 1024 + len / 8192) - 2048); /* the pages, their headers, the rest */
    sqlite3_wal_autocheckpoint(db->db, 0);
    sess_status st = sess_exec(db, "PRAGMA synchronous = FULL", "cannot configure the connection");

    int64_t id = 0;
    if (st == SESS_OK) st = sess_begin(db);
    if (st == SESS_OK) {
        sess_wal_gather(db, 1);
        st = session_exists(db, session_id);
        if (st == SESS_OK) st = insert_snapshot(db, session_id, cell, name, tag, &bytes, &sha, &id);
        if (st == SESS_OK) st = sess_commit(db);
        else sess_rollback(db);
        sess_wal_gather(db, 0);
    }
    sha_job_finish(&sha);
    sqlite3_exec(db->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL); /* the connection's (sess_open) */
    sqlite3_wal_autocheckpoint(db->db, db->autocheckpoint);
    set_cache_size(db, cache_size);
    sqlite3_db_release_memory(db->db); /* the pages left in the cache: the arena goes with them */
    nn_safetensors_pieces_free(&bytes);
    if (st == SESS_OK && snapshot_id) *snapshot_id = id;
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
