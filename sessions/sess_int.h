/*
 * sess_int.h — private to sessions/: the handle, the migration table and the
 * helpers the files of the layer share (statement preparation, error mapping,
 * a growable text buffer). Nothing outside sessions/ includes it but its tests.
 */
#ifndef SESS_INT_H
#define SESS_INT_H

#include <sqlite3.h>

#include "sess.h"

struct sess_db {
    sqlite3 *db;
    char *path;   /* nn_malloc'd */
    int flags;
};

/* One schema step: from version to_version - 1 to to_version. sql runs first (may be
   NULL), then fn (may be NULL) for what SQL alone cannot say. Both run inside the
   migration's transaction. */
typedef struct sess_migration {
    int to_version;
    const char *sql;
    int (*fn)(sqlite3 *db); /* SQLITE_OK or an SQLite code */
} sess_migration;

extern const sess_migration sess_migrations[];
extern const int sess_n_migrations;

/* The WAL size, in pages, past which a commit checkpoints (SQLite's default, set at
   open); sess_snapshot_save turns it off for its own commit and back on. */
#define SESS_WAL_AUTOCHECKPOINT 1000

/* The VFS sess_open opens with (vfs.c): SQLite's default one, whose WAL files can
   gather their writes. Its name, or NULL when it could not be registered. */
#define SESS_VFS_NAME "nnscope"
const char *sess_vfs_name(void);
/* Turns on (on != 0) or off the gathering of db's WAL writes into 64 KiB write(2)
   calls, for a transaction that runs with synchronous=FULL (vfs.c says why). */
void sess_wal_gather(sess_db *db, int on);

/* The initial seed (torch.initial_seed(), as int64) held in a generator state of n
   bytes (borrowed): 1 and *seed, or 0 when rng_state is NULL or not a valid state. */
int sess_seed_of_state(const void *rng_state, size_t n, int64_t *seed);

/* Set (by tests) to make sess_sha256 use its portable C loop even where the CPU
   has the x86 SHA extensions, so that both paths are checked. */
extern int sess_sha256_portable_only;

/* Maps an SQLite result code (rc, with the connection's message) to a status and sets
   core's error as "what: message". */
sess_status sess_sqlite_error(sess_db *db, int rc, const char *what);
/* Sets core's error for st with a printf message and returns st. */
sess_status sess_fail(sess_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Maps core's current error (after a failed nn_ call) to a status. */
sess_status sess_from_core(void);

/* Runs sql (no result rows) on db->db; a status, with what in the message. */
sess_status sess_exec(sess_db *db, const char *sql, const char *what);
/* Prepares sql on db->db into *stmt; a status. */
sess_status sess_prepare(sess_db *db, const char *sql, sqlite3_stmt **stmt);
/* BEGIN IMMEDIATE / COMMIT / ROLLBACK (rollback ignores errors). */
sess_status sess_begin(sess_db *db);
sess_status sess_commit(sess_db *db);
void sess_rollback(sess_db *db);
/* A copy of column i as a new nn_malloc'd string (NULL for SQL NULL when
   null_ok, else ""); *st becomes SESS_NOMEM on failure. */
char *sess_column_text(sqlite3_stmt *stmt, int i, int null_ok, sess_status *st);

/* A growable NUL-terminated text buffer in nn_malloc'd memory; after a failed
   append, failed is set and later appends do nothing. */
typedef struct sess_buf {
    char *s;
    size_t len, cap;
    int failed;
} sess_buf;
void sess_buf_append(sess_buf *b, const char *s, size_t n);
void sess_buf_puts(sess_buf *b, const char *s);
void sess_buf_printf(sess_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sess_buf_free(sess_buf *b);

#endif
