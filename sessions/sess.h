/*
 * sess.h — the public API of nnscope's sessions layer: one SQLite database that
 * records every session, every executed cell and every state_dict snapshot, and
 * lists, searches and exports them. It uses core (nn.h) only; the REPL drives it.
 * The schema is documented in docs/sessions.md.
 *
 * Conventions:
 *  - Every function returns a sess_status: SESS_OK (0) or an error code, and on an
 *    error also sets core's current error (nn_error_set) with a message meant for the
 *    user; the kind is RuntimeError unless said otherwise (MemoryError for SESS_NOMEM,
 *    ValueError for SESS_MISUSE, KeyError for SESS_NOTFOUND).
 *  - Strings are UTF-8, borrowed, and stored verbatim (bound parameters only).
 *  - Arrays a function returns are new nn_malloc'd memory the caller frees with the
 *    matching sess_*_free function.
 *  - Times are Unix times in seconds (double); durations are seconds.
 */
#ifndef SESS_H
#define SESS_H

#include <stddef.h>
#include <stdint.h>

#include "nn.h"

/* The schema version this build writes (PRAGMA user_version). */
#define SESS_SCHEMA_VERSION 4
/* PRAGMA application_id of an nnscope database: "nnsc" as a big-endian int32. */
#define SESS_APPLICATION_ID 0x6e6e7363

typedef enum sess_status {
    SESS_OK = 0,
    SESS_ERROR = 1,       /* an SQLite or I/O error not listed below */
    SESS_NOMEM = 2,       /* an allocation failed (MemoryError) */
    SESS_MISUSE = 3,      /* a bad argument (ValueError) */
    SESS_NOTNNSCOPE = 4,  /* the file is an SQLite database of another program: refused, unmodified */
    SESS_CORRUPT = 5,     /* not an SQLite database, or a damaged one: refused, unmodified */
    SESS_TOONEW = 6,      /* written by a newer nnscope (user_version > ours): refused, unmodified */
    SESS_READONLY = 7,    /* opened read-only, or the file cannot be written */
    SESS_BUSY = 8,        /* another process held the database longer than the busy timeout */
    SESS_NOTFOUND = 9,    /* no such session, snapshot or cell (KeyError) */
    SESS_CONSTRAINT = 10, /* a duplicate: cell number already recorded, session name taken */
    SESS_CHECKSUM = 11,   /* a snapshot's bytes do not match its sha256 */
    SESS_IO = 12          /* a directory or export file could not be created or written */
} sess_status;

/* "SESS_OK", "SESS_NOTNNSCOPE", ... for a status (a static string). */
const char *sess_status_name(sess_status st);

/* ---------------------------------------------------------------- opening */

typedef struct sess_db sess_db;

/* Flags of sess_open. */
enum {
    SESS_OPEN_READONLY = 1, /* never write: no creation, no migration (an older schema is refused) */
    SESS_OPEN_CHECK = 2     /* also run PRAGMA quick_check (reads the whole file) */
};

/* The default database path as a new nn_malloc'd string:
   $XDG_DATA_HOME/nnscope/sessions.db, else $HOME/.local/share/nnscope/sessions.db.
   NULL with SESS_IO-like RuntimeError when neither variable is set. */
char *sess_default_path(void);

/* Opens (creating when missing, unless SESS_OPEN_READONLY) the database at path, or at
   sess_default_path() when path is NULL (creating its directories). The file is checked
   before anything is written: an SQLite file whose application_id is not nnscope's gives
   SESS_NOTNNSCOPE, a file that is not SQLite or is damaged SESS_CORRUPT, a newer
   user_version SESS_TOONEW; in each case the file is left byte for byte unchanged.
   An older schema is migrated in one transaction. The connection uses WAL, a busy
   timeout of 5 s, synchronous=NORMAL and foreign keys. *out becomes a new handle (NULL
   on error) that sess_close frees. */
sess_status sess_open(const char *path, int flags, sess_db **out);
/* Closes the handle (NULL is fine). */
void sess_close(sess_db *db);
/* The handle's file path (borrowed). */
const char *sess_db_path(const sess_db *db);
/* PRAGMA integrity_check: SESS_OK when it says "ok", else SESS_CORRUPT with its first line. */
sess_status sess_integrity_check(sess_db *db);
/* The current time as a Unix time in seconds. */
double sess_now(void);

/* --------------------------------------------------------------- recording */

/* The status of a recorded cell (stored as the text 'ok', 'error', 'interrupted'). */
typedef enum sess_cell_status { SESS_CELL_OK, SESS_CELL_ERROR, SESS_CELL_INTERRUPTED } sess_cell_status;

/* Starts a session now: name may be NULL (unnamed); script is the path of the script
   the session runs as its one cell (`nnscope FILE.py`), NULL for the notebook; rng_state
   is NULL or the nn_generator_state_size() bytes of nn_generator_get_state at the start
   (borrowed; its initial seed also goes to the seed column). *session_id becomes the
   new id. SESS_CONSTRAINT when the name is taken. */
sess_status sess_session_begin(sess_db *db, const char *name, const char *script, const void *rng_state,
                               int64_t *session_id);
/* Names (or renames) a session; NULL removes the name. SESS_NOTFOUND for an unknown
   session, SESS_CONSTRAINT when another session has that name. */
sess_status sess_session_name(sess_db *db, int64_t session_id, const char *name);
/* Marks a session ended now. SESS_NOTFOUND for an unknown session. */
sess_status sess_session_end(sess_db *db, int64_t session_id);

/* Records one executed cell in its own transaction (committed when this returns
   SESS_OK, absent otherwise). source must not be NULL; output and error may be
   (NULL output is stored as '', NULL error as NULL); rng_state as in
   sess_session_begin (the generator's state before the cell ran). started is the
   Unix time the cell started, duration its run time in seconds. SESS_CONSTRAINT when
   the session already has a cell with that number, SESS_NOTFOUND for an unknown session. */
sess_status sess_cell_record(sess_db *db, int64_t session_id, int64_t number, const char *source,
                             const char *output, const char *error, sess_cell_status status,
                             double started, double duration, const void *rng_state);

/* What a replay needs to know of a cell besides what it printed (schema version 4). */
typedef struct sess_cell_meta {
    int64_t view;               /* the %inspect cell whose view ran this statement, 0 for a notebook cell */
    const char *volatile_lines; /* 1-based output line numbers not to compare ("1 2"), NULL when none */
    int silent;                 /* a trailing ';' suppressed the echo */
} sess_cell_meta;
/* sess_cell_record with meta (borrowed; NULL is all zero). */
sess_status sess_cell_record_meta(sess_db *db, int64_t session_id, int64_t number, const char *source,
                                  const char *output, const char *error, sess_cell_status status,
                                  double started, double duration, const void *rng_state,
                                  const sess_cell_meta *meta);

/* Stores a state_dict (borrowed: a dict str -> tensor) as a snapshot in one
   transaction: the bytes of nn_state_dict_to_bytes with __metadata__ {"nnscope_session",
   "nnscope_cell", "nnscope_name", "nnscope_tag"} and their sha256. cell is the cell
   number during which it was taken (<= 0: none); name names the model (not NULL); tag
   may be NULL. *snapshot_id (may be NULL) becomes the new id. Core's errors
   (TypeError for a non-tensor value, ...) come back as SESS_MISUSE or SESS_NOMEM. */
sess_status sess_snapshot_save(sess_db *db, int64_t session_id, int64_t cell, const char *name,
                               const char *tag, nn_object *state_dict, int64_t *snapshot_id);
/* Loads a snapshot: id_or_tag is a decimal id, else the tag of the newest snapshot
   with that tag, else the name of the newest snapshot with that name. The stored bytes
   are checked against the stored sha256 first: a mismatch is SESS_CHECKSUM and nothing
   is returned. *state_dict becomes a new dict str -> tensor (NULL on error). */
sess_status sess_snapshot_load(sess_db *db, const char *id_or_tag, nn_object **state_dict);
/* The stored safetensors bytes of a snapshot (resolved as in sess_snapshot_load and
   checked the same way) as a new nn_malloc'd buffer, for %export_snapshot. */
sess_status sess_snapshot_bytes(sess_db *db, const char *id_or_tag, void **data, size_t *len);
/* Writes a snapshot's bytes (resolved and checked as in sess_snapshot_load) to path, a
   .safetensors file, through a temporary file and rename(). SESS_IO when it cannot be
   written. */
sess_status sess_snapshot_export(sess_db *db, const char *id_or_tag, const char *path);

/* ----------------------------------------------------------------- listing */

typedef struct sess_session_info {
    int64_t id;
    char *name;        /* NULL when unnamed */
    double started;
    double ended;      /* 0 while running (or after a crash) */
    char *version;     /* nnscope version that recorded it */
    char *script;      /* the script it ran, NULL for the notebook */
    int64_t cells, snapshots;
    int64_t threads;   /* the machine that recorded it: core's thread count (0: unknown), */
    char *cpu, *gpu;   /* CPU model and GPU (NULL: unknown / none); sess_session_get only */
} sess_session_info;

/* Every session, oldest first, as a new array of *n items (NULL when none). */
sess_status sess_list_sessions(sess_db *db, sess_session_info **out, size_t *n);
void sess_session_info_free(sess_session_info *a, size_t n);
/* One session's row (with its counts) into the caller's *info, whose strings are new:
   sess_session_info_clear frees them. SESS_NOTFOUND for an unknown id. */
sess_status sess_session_get(sess_db *db, int64_t session_id, sess_session_info *info);
void sess_session_info_clear(sess_session_info *info);

typedef struct sess_cell_info {
    int64_t session, number;
    char *source, *output; /* never NULL */
    char *error;           /* NULL when none */
    sess_cell_status status;
    double started, duration;
    unsigned char *rng_state; /* NULL or rng_len bytes */
    size_t rng_len;
    int64_t view;             /* as sess_cell_meta */
    char *volatile_lines;     /* NULL when none */
    int silent;
} sess_cell_info;

/* The cells of a session by number as a new array of *n items. SESS_NOTFOUND for an
   unknown session (a known one with no cells gives *n == 0). */
sess_status sess_list_cells(sess_db *db, int64_t session_id, sess_cell_info **out, size_t *n);
void sess_cell_info_free(sess_cell_info *a, size_t n);

typedef struct sess_snapshot_info {
    int64_t id, session, cell; /* cell 0: taken outside a cell */
    char *name, *tag;          /* tag NULL when none */
    double created;
    char sha256[65];
    int64_t size;              /* bytes of the safetensors blob */
} sess_snapshot_info;

/* Snapshots of one session (session_id > 0) or of all (session_id <= 0), oldest first. */
sess_status sess_list_snapshots(sess_db *db, int64_t session_id, sess_snapshot_info **out, size_t *n);
void sess_snapshot_info_free(sess_snapshot_info *a, size_t n);

/* ------------------------------------------------------------------ search */

typedef struct sess_search_hit {
    int64_t session, number; /* session id, cell number */
    int64_t line_no;         /* 1-based line of the source that matched */
    char *line;              /* that line, without its newline */
} sess_search_hit;

/* Full-text search over every cell source (FTS5; LIKE where the index is missing):
   every whitespace-separated word of text must occur (as a word; FTS5 syntax in text
   is taken literally). Hits are ordered by session then cell number. */
sess_status sess_search(sess_db *db, const char *text, sess_search_hit **out, size_t *n);
void sess_search_hit_free(sess_search_hit *a, size_t n);

/* Finds a session by decimal id or name. SESS_NOTFOUND (KeyError) otherwise, with a
   message listing the names within a small edit distance ("did you mean ..."). */
sess_status sess_session_resolve(sess_db *db, const char *name_or_id, int64_t *session_id);

/* Levenshtein distance between a and b, ignoring ASCII case; -1 on MemoryError. */
long sess_edit_distance(const char *a, const char *b);

/* ------------------------------------------------------------------ export */

typedef enum sess_export_format { SESS_EXPORT_PY, SESS_EXPORT_IPYNB } sess_export_format;

/* A session's cells as text, a new nn_malloc'd NUL-terminated string of *len bytes
   (len may be NULL). PY: a runnable script, one "# %% [n]" block per cell; cells that
   raised and magic lines (starting with %) are commented out. IPYNB: a Jupyter
   nbformat 4.4 notebook with execution counts, outputs as "stream" outputs and errors
   as "error" outputs. */
sess_status sess_export_text(sess_db *db, int64_t session_id, sess_export_format fmt, char **out, size_t *len);
/* Writes the export to path (format from the extension: .ipynb, else .py) through a
   temporary file and rename(). SESS_IO when it cannot be written. */
sess_status sess_export_file(sess_db *db, int64_t session_id, const char *path);

/* What changed between two snapshots (diff.c), as the text %diff prints: each of a
   and b is a snapshot id, tag or model name (the newest wins, as sess_snapshot_load),
   or SESSION:TAG for one within a session (name or id). For every tensor key both
   have: its shape, the largest absolute change of an element, the largest relative
   one (|b - a| / |a|, inf where a is 0) and the norm of b - a, the largest change
   first; then the keys only one side has. *text is a new nn_malloc'd string. */
sess_status sess_snapshot_diff(sess_db *db, const char *a, const char *b, char **text);

/* ------------------------------------------------------------------ verify */

/* The output lines of a cell that change on every run, as the volatile list of
   sess_cell_meta: the timing lines of %time / %timeit ("CPU times: ...", "Wall
   time: ...", "... per loop (mean ...") when source uses them. A new nn_malloc'd
   string, or NULL when there are none (or MemoryError is set). */
char *sess_volatile_lines(const char *source, const char *output);
/* output as --verify compares it: each line listed in volatile_lines (may be NULL)
   replaced by "<volatile>", and every object address (0x and hex digits, not
   inside a word) written "0x?". A new nn_malloc'd string, NULL with MemoryError. */
char *sess_output_normalise(const char *output, const char *volatile_lines);

/* ------------------------------------------------------------------ sha256 */

/* SHA-256 (FIPS 180-4) of len bytes into 32 bytes of out. */
void sess_sha256(const void *data, size_t len, unsigned char out[32]);
/* The same as 64 lowercase hex digits and a NUL in hex. */
void sess_sha256_hex(const void *data, size_t len, char hex[65]);
/* A 32-byte digest as 64 lowercase hex digits and a NUL. */
void sess_sha256_hex_of(const unsigned char digest[32], char hex[65]);

/* The same digest of bytes given in pieces: init, update with each piece in order,
   final (which leaves ctx to be initialised again). */
typedef struct sess_sha256_ctx {
    uint32_t h[8];
    unsigned char block[64]; /* the bytes of a partial block */
    uint64_t len;            /* bytes so far */
    void (*blocks)(uint32_t *h, const unsigned char *p, size_t n); /* the block function chosen at init */
} sess_sha256_ctx;
void sess_sha256_init(sess_sha256_ctx *ctx);
void sess_sha256_update(sess_sha256_ctx *ctx, const void *data, size_t len);
void sess_sha256_final(sess_sha256_ctx *ctx, unsigned char out[32]);

#endif
