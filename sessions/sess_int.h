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

/* Maps an SQLite result code (rc, with the connection's message) to a status and sets
   core's error as "what: message". */
sess_status sess_sqlite_error(sess_db *db, int rc, const char *what);
/* Sets core's error for st with a printf message and returns st. */
sess_status sess_fail(sess_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Maps core's current error (after a failed nn_ call) to a status. */
sess_status sess_from_core(void);

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
