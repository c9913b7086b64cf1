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
    int page_size;      /* the file's (PRAGMA page_size), read at open */
    int autocheckpoint; /* SESS_WAL_AUTOCHECKPOINT_BYTES in this file's pages */
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

/* The page size of a new database, in bytes: a 40 MB snapshot is 2,500 pages instead
   of SQLite's 10,000 of 4 KiB (the snapshot about 15 % faster, the checkpoint after it
   about 40 %), while a cell's record stays well under its 500 us target (64 KiB pages
   went over it); docs/sessions.md has the figures. */
#define SESS_PAGE_SIZE 16384

/* The WAL size past which a commit checkpoints: SQLite's default of 1000 pages of
   4 KiB, kept in bytes whatever the page size (set at open as pages: db->autocheckpoint);
   sess_snapshot_save turns it off for its own commit and back on. */
#define SESS_WAL_AUTOCHECKPOINT_BYTES (1000 * 4096)

/* The VFS sess_open opens with (vfs.c): SQLite's default one, whose WAL files can
   gather their writes. Its name, or NULL when it could not be registered. */
#define SESS_VFS_NAME "nnscope"
const char *sess_vfs_name(void);
/* Turns on (on != 0) or off the gathering of db's WAL writes into 1 MiB buffers that
   a second thread writes, for a transaction that runs with synchronous=FULL (vfs.c
   says why). */
void sess_wal_gather(sess_db *db, int on);

/* SQLite's page cache for a snapshot's row in a huge-page mapping (arena.c says why).
   sess_arena_install goes before this layer's first SQLite call (once; it does
   nothing when SQLite was initialised already). Between sess_arena_begin(bytes,
   page_size) and sess_arena_end, the entries for pages of page_size bytes that
   SQLite's page cache allocates on the calling thread come from a new arena of bytes
   (then from SQLite's allocator when it is full); its blocks are freed as SQLite
   frees them, from any thread, and the mapping goes with the last. */
void sess_arena_install(void);
void sess_arena_begin(size_t bytes, int page_size);
void sess_arena_end(void);
/* For tests: arenas still mapped, and blocks ever handed out. */
size_t sess_arena_count(void);
extern size_t sess_arena_blocks;

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
/* harden.c: SQLite's defensive settings and the Ctrl-C progress handler on a new
   connection; the file's schema against the one the migrations make up to version
   (SESS_NOTNNSCOPE, nothing written, when they differ). */
void sess_harden_connection(sqlite3 *db);
void sess_trust_schema(sqlite3 *db);
sess_status sess_check_schema(sess_db *db, int version);
/* Prepares sql on db->db into *stmt; a status. */
sess_status sess_prepare(sess_db *db, const char *sql, sqlite3_stmt **stmt);
/* The integer a pragma query (sql: "PRAGMA cache_size") returns, or fallback when it
   cannot be read (no error is left set). */
long long sess_pragma_int(sess_db *db, const char *sql, long long fallback);
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

/* translate.c, for the .py export: appends the Python that a magic or shell line
   ([line, line + len), without its newline, indentation kept) stands for, and
   returns 1; -1 (nothing appended) for a line that is not Python and has no
   translation (the caller comments it: %inspect, obj?, ...); 0 for Python. */
int sess_py_line(sess_buf *b, const char *line, size_t len);
/* The first line (1-based) of the top-level statement of source that raised the
   recorded error (its traceback's <module> frame names the line), so that the
   lines before it ran; 0 when that is not known (nothing ran: a SyntaxError, a
   magic's error). */
long sess_failed_statement(const char *source, const char *error);

#endif
