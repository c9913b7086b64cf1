/*
 * db.c — opening an nnscope sessions database: the default path, the checks that
 * refuse a foreign, damaged or newer file before anything is written, the schema
 * and its migration table, and the helpers the layer shares (error mapping,
 * transactions, a text buffer). The schema is documented in docs/sessions.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "sess_int.h"

/* ------------------------------------------------------------------ schema */

/* Version 1: the three tables. Times are Unix seconds (REAL). */
static const char schema_v1[] =
    "CREATE TABLE sessions (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  name TEXT UNIQUE,\n"
    "  started REAL NOT NULL,\n"
    "  ended REAL,\n"
    "  rng_state BLOB,\n"
    "  nnscope_version TEXT NOT NULL\n"
    ");\n"
    "CREATE TABLE cells (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,\n"
    "  number INTEGER NOT NULL,\n"
    "  source TEXT NOT NULL,\n"
    "  output TEXT NOT NULL DEFAULT '',\n"
    "  error TEXT,\n"
    "  status TEXT NOT NULL CHECK (status IN ('ok', 'error', 'interrupted')),\n"
    "  started REAL NOT NULL,\n"
    "  duration REAL NOT NULL,\n"
    "  rng_state BLOB,\n"
    "  UNIQUE (session, number)\n"
    ");\n"
    "CREATE TABLE snapshots (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,\n"
    "  cell INTEGER,\n"
    "  name TEXT NOT NULL,\n"
    "  tag TEXT,\n"
    "  created REAL NOT NULL,\n"
    "  sha256 TEXT NOT NULL,\n"
    "  data BLOB NOT NULL\n"
    ");\n"
    "CREATE INDEX snapshots_session ON snapshots(session);\n"
    "CREATE INDEX snapshots_tag ON snapshots(tag);\n";

/* Version 2: the full-text index over cell sources, kept by triggers, filled from
   the cells already recorded. Skipped (search falls back to LIKE) when the SQLite
   library lacks FTS5. */
static const char schema_v2_fts[] =
    "CREATE VIRTUAL TABLE cells_fts USING fts5(source, content='cells', content_rowid='id');\n"
    "CREATE TRIGGER cells_fts_insert AFTER INSERT ON cells BEGIN\n"
    "  INSERT INTO cells_fts(rowid, source) VALUES (new.id, new.source);\n"
    "END;\n"
    "CREATE TRIGGER cells_fts_delete AFTER DELETE ON cells BEGIN\n"
    "  INSERT INTO cells_fts(cells_fts, rowid, source) VALUES ('delete', old.id, old.source);\n"
    "END;\n"
    "CREATE TRIGGER cells_fts_update AFTER UPDATE OF source ON cells BEGIN\n"
    "  INSERT INTO cells_fts(cells_fts, rowid, source) VALUES ('delete', old.id, old.source);\n"
    "  INSERT INTO cells_fts(rowid, source) VALUES (new.id, new.source);\n"
    "END;\n"
    "INSERT INTO cells_fts(cells_fts) VALUES ('rebuild');\n";

static int migrate_v2(sqlite3 *db)
{
    if (!sqlite3_compileoption_used("ENABLE_FTS5")) return SQLITE_OK;
    return sqlite3_exec(db, schema_v2_fts, NULL, NULL, NULL);
}

int sess_seed_of_state(const void *rng_state, size_t n, int64_t *seed)
{
    nn_generator g;
    if (!rng_state || n != nn_generator_state_size()) return 0;
    if (nn_generator_set_state(&g, rng_state, n) < 0) {
        nn_error_clear();
        return 0;
    }
    *seed = (int64_t)nn_generator_initial_seed(&g);
    return 1;
}

/* The SQL function nnscope_seed(rng_state): sess_seed_of_state, NULL when none. */
static void sql_seed_of_state(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int64_t seed;
    if (sess_seed_of_state(sqlite3_value_blob(argv[0]), (size_t)sqlite3_value_bytes(argv[0]), &seed))
        sqlite3_result_int64(ctx, seed);
    else
        sqlite3_result_null(ctx);
}

/* Version 3: sessions.seed, the generator's initial seed at the start in a column
   the sqlite3 shell shows (rng_state is a 5 kB blob), filled for earlier sessions;
   sessions.script, the script a session ran (`nnscope FILE.py`: one cell, replayed
   as a script), NULL for the notebook. */
static int migrate_v3(sqlite3 *db)
{
    int rc = sqlite3_exec(db, "ALTER TABLE sessions ADD COLUMN seed INTEGER;"
                              " ALTER TABLE sessions ADD COLUMN script TEXT", NULL, NULL, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_create_function(db, "nnscope_seed", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                 sql_seed_of_state, NULL, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_exec(db, "UPDATE sessions SET seed = nnscope_seed(rng_state)", NULL, NULL, NULL);
    sqlite3_create_function(db, "nnscope_seed", 1, SQLITE_UTF8, NULL, NULL, NULL, NULL);
    return rc;
}

/* Version 4: what replay needs to reproduce everything that ran. cells.view: the
   number of the %inspect cell whose view ran this statement (typed in the
   inspector's command line), NULL for a notebook cell; cells.volatile: the 1-based
   numbers of the output lines that differ on every run (%time's and %timeit's
   timing lines), space-separated, NULL when none; cells.silent: 1 when a trailing
   ';' suppressed the echo. sessions.threads / cpu / gpu: the machine that recorded
   it (core's thread count, the CPU model, the GPU or NULL). */
static const char schema_v4[] =
    "ALTER TABLE cells ADD COLUMN view INTEGER;\n"
    "ALTER TABLE cells ADD COLUMN volatile TEXT;\n"
    "ALTER TABLE cells ADD COLUMN silent INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE sessions ADD COLUMN threads INTEGER;\n"
    "ALTER TABLE sessions ADD COLUMN cpu TEXT;\n"
    "ALTER TABLE sessions ADD COLUMN gpu TEXT;\n";

/* The migration steps, in order; the last one's to_version is SESS_SCHEMA_VERSION. */
const sess_migration sess_migrations[] = {
    {1, schema_v1, NULL},
    {2, NULL, migrate_v2},
    {3, NULL, migrate_v3},
    {4, schema_v4, NULL},
};
const int sess_n_migrations = (int)(sizeof sess_migrations / sizeof sess_migrations[0]);
_Static_assert(sizeof sess_migrations / sizeof sess_migrations[0] == SESS_SCHEMA_VERSION,
               "one migration step per schema version");

/* ----------------------------------------------------------------- errors */

const char *sess_status_name(sess_status st)
{
    static const char *const names[] = {"SESS_OK", "SESS_ERROR", "SESS_NOMEM", "SESS_MISUSE", "SESS_NOTNNSCOPE",
                                        "SESS_CORRUPT", "SESS_TOONEW", "SESS_READONLY", "SESS_BUSY",
                                        "SESS_NOTFOUND", "SESS_CONSTRAINT", "SESS_CHECKSUM", "SESS_IO"};
    if ((int)st < 0 || (size_t)st >= sizeof names / sizeof names[0]) return "SESS_UNKNOWN";
    return names[st];
}

static nn_error_kind kind_of(sess_status st)
{
    switch (st) {
    case SESS_NOMEM: return NN_ERR_MEMORY;
    case SESS_MISUSE: return NN_ERR_VALUE;
    case SESS_NOTFOUND: return NN_ERR_KEY;
    default: return NN_ERR_RUNTIME;
    }
}

sess_status sess_fail(sess_status st, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nn_error_set(kind_of(st), "%s", msg);
    return st;
}

sess_status sess_from_core(void)
{
    return nn_error_current() == NN_ERR_MEMORY ? SESS_NOMEM : SESS_MISUSE;
}

sess_status sess_sqlite_error(sess_db *db, int rc, const char *what)
{
    sess_status st;
    switch (rc & 0xff) {
    case SQLITE_NOMEM: st = SESS_NOMEM; break;
    case SQLITE_BUSY: case SQLITE_LOCKED: st = SESS_BUSY; break;
    case SQLITE_CORRUPT: case SQLITE_NOTADB: st = SESS_CORRUPT; break;
    case SQLITE_READONLY: st = SESS_READONLY; break;
    case SQLITE_CONSTRAINT: st = SESS_CONSTRAINT; break;
    case SQLITE_IOERR: case SQLITE_CANTOPEN: case SQLITE_FULL: st = SESS_IO; break;
    default: st = SESS_ERROR; break;
    }
    const char *msg = db && db->db ? sqlite3_errmsg(db->db) : sqlite3_errstr(rc);
    sess_fail(st, "%s: %s (database %s)", what, msg, db && db->path ? db->path : "?");
    if ((rc & 0xff) == SQLITE_INTERRUPT && nn_interrupt_requested) nn_check_interrupt(); /* Ctrl-C stopped it */
    return st;
}

/* ------------------------------------------------------------- shared helpers */

sess_status sess_prepare(sess_db *db, const char *sql, sqlite3_stmt **stmt)
{
    int rc = sqlite3_prepare_v2(db->db, sql, -1, stmt, NULL);
    return rc == SQLITE_OK ? SESS_OK : sess_sqlite_error(db, rc, "cannot prepare a statement");
}

long long sess_pragma_int(sess_db *db, const char *sql, long long fallback)
{
    sqlite3_stmt *stmt;
    long long value = fallback;
    if (sess_prepare(db, sql, &stmt) != SESS_OK) {
        nn_error_clear();
        return value;
    }
    if (sqlite3_step(stmt) == SQLITE_ROW) value = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return value;
}

sess_status sess_begin(sess_db *db)
{
    int rc = sqlite3_exec(db->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    return rc == SQLITE_OK ? SESS_OK : sess_sqlite_error(db, rc, "cannot start a transaction");
}

sess_status sess_commit(sess_db *db)
{
    int rc = sqlite3_exec(db->db, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK) return SESS_OK;
    sess_status st = sess_sqlite_error(db, rc, "cannot commit");
    sess_rollback(db);
    return st;
}

void sess_rollback(sess_db *db)
{
    if (!sqlite3_get_autocommit(db->db)) sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
}

char *sess_column_text(sqlite3_stmt *stmt, int i, int null_ok, sess_status *st)
{
    const unsigned char *t = sqlite3_column_text(stmt, i);
    if (!t && null_ok) return NULL;
    size_t n = t ? (size_t)sqlite3_column_bytes(stmt, i) : 0;
    char *s = nn_malloc(n + 1);
    if (!s) {
        *st = SESS_NOMEM;
        return NULL;
    }
    if (n) memcpy(s, t, n);
    s[n] = '\0';
    return s;
}

void sess_buf_append(sess_buf *b, const char *s, size_t n)
{
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = nn_realloc(b->s, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sess_buf_puts(sess_buf *b, const char *s) { sess_buf_append(b, s, strlen(s)); }

void sess_buf_printf(sess_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    sess_buf_append(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void sess_buf_free(sess_buf *b)
{
    nn_free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

double sess_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* ------------------------------------------------------------------- paths */

char *sess_default_path(void)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char buf[4096];
    if (xdg && xdg[0] == '/') snprintf(buf, sizeof buf, "%s/nnscope/sessions.db", xdg);
    else if (home && home[0]) snprintf(buf, sizeof buf, "%s/.local/share/nnscope/sessions.db", home);
    else {
        sess_fail(SESS_IO, "cannot find the sessions database: neither XDG_DATA_HOME nor HOME is set");
        return NULL;
    }
    return nn_strdup(buf);
}

/* mkdir -p of the directory part of path. 0 or -1 with errno. */
static int make_parent_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf) return errno = ENAMETOOLONG, -1;
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0700) < 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return 0;
}

/* ------------------------------------------------------------------- open */

/* What the file holds, read through SQLite without writing. */
typedef struct probe {
    int app_id, version, n_schema;
} probe;

static sess_status read_probe(sess_db *db, probe *pr)
{
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "SELECT (SELECT application_id FROM pragma_application_id()),"
                                      " (SELECT user_version FROM pragma_user_version()),"
                                      " (SELECT count(*) FROM sqlite_schema)", &stmt);
    if (st == SESS_CORRUPT || st == SESS_ERROR)
        return sess_fail(SESS_CORRUPT, "%s is not an nnscope sessions database (SQLite says: %s); it was not modified",
                         db->path, sqlite3_errmsg(db->db));
    if (st) return st;
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        pr->app_id = sqlite3_column_int(stmt, 0);
        pr->version = sqlite3_column_int(stmt, 1);
        pr->n_schema = sqlite3_column_int(stmt, 2);
        st = SESS_OK;
    } else {
        st = sess_sqlite_error(db, rc, "cannot read the database");
        if (st == SESS_CORRUPT || st == SESS_ERROR)
            st = sess_fail(SESS_CORRUPT, "%s is not an nnscope sessions database (SQLite says: %s); it was not modified",
                           db->path, sqlite3_errmsg(db->db));
    }
    sqlite3_finalize(stmt);
    return st;
}

/* Refusals shared by the first look and the look inside the migration transaction. */
static sess_status check_probe(sess_db *db, const probe *pr)
{
    int empty = pr->app_id == 0 && pr->n_schema == 0 && pr->version == 0;
    if (!empty && pr->app_id != SESS_APPLICATION_ID)
        return sess_fail(SESS_NOTNNSCOPE,
                         "%s is an SQLite database of another program (application_id %d, %d schema objects), "
                         "not an nnscope sessions database; it was not modified",
                         db->path, pr->app_id, pr->n_schema);
    if (pr->version > SESS_SCHEMA_VERSION)
        return sess_fail(SESS_TOONEW,
                         "%s was written by a newer nnscope (schema version %d; this nnscope reads up to %d); "
                         "it was not modified",
                         db->path, pr->version, SESS_SCHEMA_VERSION);
    return SESS_OK;
}

sess_status sess_exec(sess_db *db, const char *sql, const char *what)
{
    int rc = sqlite3_exec(db->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? SESS_OK : sess_sqlite_error(db, rc, what);
}

/* Brings the schema to SESS_SCHEMA_VERSION in one IMMEDIATE transaction, looking at
   the file again once the write lock is held (another process may have done it). */
static sess_status migrate(sess_db *db)
{
    probe pr;
    sess_status st = sess_begin(db);
    if (st) return st;
    if ((st = read_probe(db, &pr)) || (st = check_probe(db, &pr))) goto fail;
    if (pr.version == SESS_SCHEMA_VERSION && pr.app_id == SESS_APPLICATION_ID) {
        sess_rollback(db);
        return SESS_OK;
    }
    if (pr.app_id == 0) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d", SESS_APPLICATION_ID);
        if ((st = sess_exec(db, sql, "cannot initialise the database"))) goto fail;
    }
    for (int i = 0; i < sess_n_migrations; i++) {
        const sess_migration *m = &sess_migrations[i];
        if (m->to_version <= pr.version) continue;
        char what[64];
        snprintf(what, sizeof what, "cannot migrate the schema to version %d", m->to_version);
        if (m->sql && (st = sess_exec(db, m->sql, what))) goto fail;
        if (m->fn) {
            int rc = m->fn(db->db);
            if (rc != SQLITE_OK) {
                st = sess_sqlite_error(db, rc, what);
                goto fail;
            }
        }
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", m->to_version);
        if ((st = sess_exec(db, sql, what))) goto fail;
    }
    return sess_commit(db);
fail:
    sess_rollback(db);
    return st;
}

/* PRAGMA journal_mode = WAL. Switching takes an exclusive lock without calling the
   busy handler when another connection is switching too (two first opens at once),
   so it is retried here for up to the busy timeout. */
static sess_status set_wal(sess_db *db)
{
    for (int attempt = 0;; attempt++) {
        sqlite3_stmt *stmt;
        sess_status st = sess_prepare(db, "PRAGMA journal_mode = WAL", &stmt);
        if (st) return st;
        int rc = sqlite3_step(stmt);
        sqlite3_finalize(stmt);
        if (rc == SQLITE_ROW) return SESS_OK;
        if ((rc & 0xff) != SQLITE_BUSY || attempt >= 500) return sess_sqlite_error(db, rc, "cannot switch to WAL mode");
        usleep(10000);
    }
}

/* Refuses a non-empty file that does not start with SQLite's magic before SQLite
   opens it (so SQLite never looks for a journal to roll back into it). */
static sess_status check_magic(const char *path, off_t size)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    FILE *f = fopen(path, "rb");
    if (!f) return sess_fail(SESS_IO, "cannot read %s: %s", path, strerror(errno));
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    if (size < 512 || got != sizeof head || memcmp(head, magic, sizeof magic) != 0)
        return sess_fail(SESS_CORRUPT, "%s is not an SQLite database (nor an nnscope sessions database); "
                                       "it was not modified", path);
    return SESS_OK;
}

sess_status sess_open(const char *path, int flags, sess_db **out)
{
    *out = NULL;
    sess_db *db = nn_calloc(1, sizeof *db);
    if (!db) return SESS_NOMEM;
    db->flags = flags;
    db->path = path ? nn_strdup(path) : sess_default_path();
    sess_status st = SESS_OK;
    if (!db->path) {
        st = nn_error_current() == NN_ERR_MEMORY ? SESS_NOMEM : SESS_IO;
        goto fail;
    }
    int readonly = flags & SESS_OPEN_READONLY;
    struct stat sb;
    int exists = stat(db->path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) {
        st = sess_fail(SESS_IO, "%s is not a regular file", db->path);
        goto fail;
    }
    if (!exists && readonly) {
        st = sess_fail(SESS_NOTFOUND, "no sessions database at %s", db->path);
        goto fail;
    }
    if (!exists && !path && make_parent_dirs(db->path) < 0) {
        st = sess_fail(SESS_IO, "cannot create the directory of %s: %s", db->path, strerror(errno));
        goto fail;
    }
    if (exists && sb.st_size > 0 && (st = check_magic(db->path, sb.st_size))) goto fail;

    int oflags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int rc = sqlite3_open_v2(db->path, &db->db, oflags, sess_vfs_name());
    if (rc != SQLITE_OK) {
        st = sess_sqlite_error(db, rc, "cannot open the sessions database");
        goto fail;
    }
    sqlite3_busy_timeout(db->db, 5000);
    sqlite3_extended_result_codes(db->db, 1);
    sess_harden_connection(db->db);

    probe pr;
    if ((st = read_probe(db, &pr)) || (st = check_probe(db, &pr))) goto fail;
    if (pr.n_schema > 0 && (st = sess_check_schema(db, pr.version))) goto fail;
    sess_trust_schema(db->db); /* now known to be nnscope's own (or empty) */
    if (flags & SESS_OPEN_CHECK) {
        sqlite3_stmt *stmt;
        if ((st = sess_prepare(db, "PRAGMA quick_check", &stmt))) goto fail;
        rc = sqlite3_step(stmt);
        const char *res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(stmt, 0) : NULL;
        if (!res || strcmp(res, "ok") != 0)
            st = sess_fail(SESS_CORRUPT, "%s is damaged (quick_check: %s); it was not modified", db->path,
                           res ? res : sqlite3_errmsg(db->db));
        sqlite3_finalize(stmt);
        if (st) goto fail;
    }
    if (readonly) {
        if (pr.version < SESS_SCHEMA_VERSION) {
            st = sess_fail(SESS_READONLY, "%s has schema version %d and needs a migration to %d, "
                                          "which a read-only open cannot do", db->path, pr.version,
                           SESS_SCHEMA_VERSION);
            goto fail;
        }
        *out = db;
        return SESS_OK;
    }
    /* Only now, with the file known to be ours (or empty), write to it. A new file
       gets SESS_PAGE_SIZE pages (SQLite fixes the size at the first write); an
       existing one keeps its own. */
    if (!exists || sb.st_size == 0) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA page_size = %d", SESS_PAGE_SIZE);
        if ((st = sess_exec(db, sql, "cannot configure the connection"))) goto fail;
    }
    if ((st = set_wal(db))) goto fail;
    if ((st = sess_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", "cannot configure the connection")))
        goto fail;
    long long page_size = sess_pragma_int(db, "PRAGMA page_size", 4096);
    db->page_size = page_size > 0 ? (int)page_size : 4096;
    db->autocheckpoint = SESS_WAL_AUTOCHECKPOINT_BYTES / db->page_size;
    sqlite3_wal_autocheckpoint(db->db, db->autocheckpoint);
    if ((pr.version < SESS_SCHEMA_VERSION || pr.app_id != SESS_APPLICATION_ID) && (st = migrate(db))) goto fail;
    *out = db;
    return SESS_OK;
fail:
    sess_close(db);
    return st;
}

void sess_close(sess_db *db)
{
    if (!db) return;
    if (db->db) sqlite3_close_v2(db->db);
    nn_free(db->path);
    nn_free(db);
}

const char *sess_db_path(const sess_db *db) { return db->path; }

sess_status sess_integrity_check(sess_db *db)
{
    sqlite3_stmt *stmt;
    sess_status st = sess_prepare(db, "PRAGMA integrity_check", &stmt);
    if (st) return st;
    int rc = sqlite3_step(stmt);
    const char *res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(stmt, 0) : NULL;
    if (!res || strcmp(res, "ok") != 0)
        st = sess_fail(SESS_CORRUPT, "%s fails its integrity check: %s", db->path, res ? res : sqlite3_errmsg(db->db));
    sqlite3_finalize(stmt);
    return st;
}
