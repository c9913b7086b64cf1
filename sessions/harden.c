/*
 * harden.c — a sessions database is a file anyone can hand to nnscope: the
 * connection is opened as SQLite's security guidance advises (defensive mode,
 * an untrusted schema, a progress handler tied to Ctrl-C), and a file whose
 * tables, indexes, views or triggers differ from the ones nnscope's own
 * migrations make is refused before anything runs or is written.
 */
#include <stdlib.h>
#include <string.h>

#include "sess_int.h"

/* Every 10,000 virtual-machine steps: a pending Ctrl-C stops the statement
   (SQLITE_INTERRUPT, reported as KeyboardInterrupt), so no query can hang. */
static int progress(void *ud)
{
    (void)ud;
    return nn_interrupt_requested != 0;
}

void sess_harden_connection(sqlite3 *db)
{
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL); /* PRAGMA trusted_schema = OFF */
    sqlite3_progress_handler(db, 10000, progress, NULL);
}

/* Once the schema is known to be exactly nnscope's, its own triggers may run:
   they keep the FTS5 index, a virtual table SQLite refuses in the triggers of an
   untrusted schema. Until then (the probe and the schema check) it stays untrusted. */
void sess_trust_schema(sqlite3 *db)
{
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 1, (int *)NULL);
}

/* The schema rows "type name tbl_name sql" of db, one per line, sorted; NULL when
   SQLite fails. malloc'd. FTS shadow objects (cells_fts*) are skipped when fts is
   false. */
static char *schema_text(sqlite3 *db, int fts)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema"
                               " WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name", -1, &st, NULL) != SQLITE_OK)
        return NULL;
    size_t len = 0, cap = 256;
    char *out = malloc(cap);
    int rc;
    while (out && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        if (!fts && name && strncmp(name, "cells_fts", 9) == 0) continue;
        for (int c = 0; c < 4; c++) {
            const char *v = (const char *)sqlite3_column_text(st, c);
            size_t n = v ? strlen(v) : 0;
            if (len + n + 2 > cap) {
                while (len + n + 2 > cap) cap *= 2;
                char *p = realloc(out, cap);
                if (!p) {
                    free(out);
                    out = NULL;
                    break;
                }
                out = p;
            }
            if (n) memcpy(out + len, v, n);
            len += n;
            out[len++] = c < 3 ? '\t' : '\n';
        }
    }
    if (out && rc != SQLITE_DONE) {
        free(out);
        out = NULL;
    }
    if (out) out[len] = '\0';
    sqlite3_finalize(st);
    return out;
}

/* Whether db's schema holds the full-text index (its objects are all there or none). */
static int has_fts(sqlite3 *db)
{
    sqlite3_stmt *st;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_schema WHERE name LIKE 'cells\\_fts%' ESCAPE '\\'", -1, &st,
                           NULL) == SQLITE_OK) {
        found = sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
    }
    return found;
}

sess_status sess_check_schema(sess_db *db, int version)
{
    sqlite3 *ref;
    if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        sqlite3_close(ref);
        return sess_fail(SESS_NOMEM, "out of memory");
    }
    int rc = SQLITE_OK;
    for (int i = 0; i < sess_n_migrations && rc == SQLITE_OK; i++) {
        const sess_migration *m = &sess_migrations[i];
        if (m->to_version > version) break;
        if (m->sql) rc = sqlite3_exec(ref, m->sql, NULL, NULL, NULL);
        if (rc == SQLITE_OK && m->fn) rc = m->fn(ref);
    }
    /* a file written where SQLite lacks FTS5 has no full-text index: both are ours */
    int fts = has_fts(db->db);
    char *want = rc == SQLITE_OK ? schema_text(ref, fts) : NULL;
    char *have = want ? schema_text(db->db, fts) : NULL;
    sqlite3_close(ref);
    sess_status st = SESS_OK;
    if (!want) st = sess_fail(SESS_NOMEM, "cannot build the reference schema");
    else if (!have) st = sess_sqlite_error(db, sqlite3_errcode(db->db), "cannot read the schema");
    else if (strcmp(want, have) != 0 || (fts && !strstr(want, "cells_fts")))
        st = sess_fail(SESS_NOTNNSCOPE,
                       "%s has tables, views or triggers that nnscope's schema version %d does not have "
                       "(a changed or crafted file); it was not opened and not modified",
                       db->path, version);
    free(want);
    free(have);
    return st;
}
