/*
 * test_sessions.c — the sessions layer on real database files in temporary
 * directories: schema creation, reopen and migration (from every earlier version);
 * refusal (file unchanged) of foreign, random and newer files; cells and snapshots
 * round trip (and a large snapshot's: settings, WAL, checkpoint, in a new file and in
 * one with 4 KiB pages; a failed WAL write; the huge-page arena's blocks); sha256 vectors (SHA extensions and the
 * portable loop, whole and streamed);
 * search; near matches; verbatim nasty strings; .py and .ipynb export (the JSON
 * checked by a small validator); concurrent writers (fork); kill -9 resilience;
 * failing allocations.
 */
#include "test_util.h"

#include <signal.h>
#include <sqlite3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sessions/sess.h"
#include "sessions/sess_int.h"
#include "raw_sql.h"

/* ------------------------------------------------------------------ helpers */

static char tmpdir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nnscope_sess_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *tpath(const char *name)
{
    static char buf[4][400];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static void ok(sess_status st)
{
    if (st != SESS_OK) fail_msg("%s: %s", sess_status_name(st), nn_error_message());
}

/* The whole file as a malloc'd buffer (*n bytes). */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    b[len] = '\0';
    *n = (size_t)len;
    return b;
}

/* Asserts that opening path fails with want and leaves its bytes unchanged. */
static void assert_refused(const char *path, sess_status want, const char *needle)
{
    size_t n0, n1;
    char *before = slurp(path, &n0);
    sess_db *db = (sess_db *)1;
    assert_int_equal(sess_open(path, 0, &db), want);
    assert_null(db);
    tu_assert_error(NN_ERR_RUNTIME, needle);
    char *after = slurp(path, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
}

/* ------------------------------------------------------------------ sha256 */

static void test_sha256_vectors(void **state)
{
    (void)state;
    static const struct { const char *in, *hex; } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
         "mnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    char hex[65];
    char *a = malloc(1000000);
    memset(a, 'a', 1000000);
    /* both block functions: the CPU's (SHA extensions where present) and the portable loop */
    for (int portable = 0; portable < 2; portable++) {
        sess_sha256_portable_only = portable;
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            sess_sha256_hex(v[i].in, strlen(v[i].in), hex);
            assert_string_equal(hex, v[i].hex);
        }
        sess_sha256_hex(a, 1000000, hex);
        assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        /* the same million bytes in pieces of every awkward size (block edges, empty) */
        static const size_t sizes[] = {0, 1, 63, 64, 65, 127, 128, 129, 1000, 4096 + 7, 0, 100000};
        sess_sha256_ctx ctx;
        sess_sha256_init(&ctx);
        for (size_t done = 0, k = 0; done < 1000000; k++) {
            size_t n = sizes[k % (sizeof sizes / sizeof sizes[0])];
            if (n > 1000000 - done) n = 1000000 - done;
            sess_sha256_update(&ctx, a + done, n);
            done += n;
        }
        unsigned char digest[32];
        sess_sha256_final(&ctx, digest);
        sess_sha256_hex_of(digest, hex);
        assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }
    /* and they agree on every length around the block and padding edges */
    for (size_t len = 0; len < 300; len++) {
        char h1[65], h2[65];
        for (size_t i = 0; i < len; i++) a[i] = (char)(i * 131 + len);
        sess_sha256_portable_only = 0;
        sess_sha256_hex(a, len, h1);
        sess_sha256_portable_only = 1;
        sess_sha256_hex(a, len, h2);
        assert_string_equal(h1, h2);
        /* and streamed, split at every point, what one call gives */
        for (size_t cut = 0; cut <= len; cut += 7) {
            sess_sha256_ctx ctx;
            unsigned char digest[32];
            char h3[65];
            sess_sha256_portable_only = (int)(cut % 2);
            sess_sha256_init(&ctx);
            sess_sha256_update(&ctx, a, cut);
            sess_sha256_update(&ctx, a + cut, len - cut);
            sess_sha256_final(&ctx, digest);
            sess_sha256_hex_of(digest, h3);
            assert_string_equal(h1, h3);
        }
    }
    sess_sha256_portable_only = 0;
    free(a);
}

/* --------------------------------------------------------- schema and opening */

static void test_schema_created_and_reopened(void **state)
{
    (void)state;
    const char *path = tpath("new.db");
    sess_db *db;
    ok(sess_open(path, 0, &db));
    assert_string_equal(sess_db_path(db), path);
    int64_t sid;
    ok(sess_session_begin(db, "first", NULL, NULL, &sid));
    ok(sess_integrity_check(db));
    sess_close(db);
    assert_int_equal(raw_int(path, "PRAGMA user_version"), SESS_SCHEMA_VERSION);
    assert_int_equal(raw_int(path, "PRAGMA application_id"), SESS_APPLICATION_ID);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name IN"
                                   " ('sessions','cells','snapshots','cells_fts')"), 4);
    ok(sess_open(path, SESS_OPEN_CHECK, &db));
    sess_session_info *s;
    size_t n;
    ok(sess_list_sessions(db, &s, &n));
    assert_int_equal(n, 1);
    assert_string_equal(s[0].name, "first");
    assert_string_equal(s[0].version, NN_VERSION);
    sess_session_info_free(s, n);
    sess_close(db);
    /* read-only opens do not create */
    assert_int_equal(sess_open(tpath("missing.db"), SESS_OPEN_READONLY, &db), SESS_NOTFOUND);
    tu_assert_error(NN_ERR_KEY, "no sessions database");
    ok(sess_open(path, SESS_OPEN_READONLY, &db));
    assert_int_equal(sess_session_begin(db, "x", NULL, NULL, &sid), SESS_READONLY);
    nn_error_clear();
    sess_close(db);
}

static void test_default_path_under_xdg(void **state)
{
    (void)state;
    char *old = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME")) : NULL;
    setenv("XDG_DATA_HOME", tpath("xdg"), 1);
    char *p = sess_default_path();
    assert_non_null(p);
    assert_string_equal(p, tpath("xdg/nnscope/sessions.db"));
    sess_db *db;
    ok(sess_open(NULL, 0, &db)); /* creates xdg/nnscope/ */
    assert_string_equal(sess_db_path(db), p);
    sess_close(db);
    struct stat sb;
    assert_int_equal(stat(p, &sb), 0);
    nn_free(p);
    if (old) setenv("XDG_DATA_HOME", old, 1);
    else unsetenv("XDG_DATA_HOME");
    free(old);
}

static void test_migration_from_version_1(void **state)
{
    (void)state;
    const char *path = tpath("v1.db");
    /* a version-1 database as the first step's SQL makes it, with a recorded cell */
    assert_int_equal(sess_migrations[0].to_version, 1);
    raw_exec(path, sess_migrations[0].sql);
    char sql[600];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = 1;"
                   "INSERT INTO sessions (id, name, started, nnscope_version) VALUES (1, 'old', 0, '0.0.1');"
                   "INSERT INTO cells (session, number, source, status, started, duration)"
                   " VALUES (1, 1, 'model = nn.Linear(3, 4)', 'ok', 0, 0.5);", SESS_APPLICATION_ID);
    raw_exec(path, sql);
    sess_db *db;
    /* read-only cannot migrate */
    assert_int_equal(sess_open(path, SESS_OPEN_READONLY, &db), SESS_READONLY);
    tu_assert_error(NN_ERR_RUNTIME, "needs a migration");
    ok(sess_open(path, 0, &db));
    sess_search_hit *h;
    size_t n;
    ok(sess_search(db, "Linear", &h, &n));
    assert_int_equal(n, 1);
    assert_int_equal(h[0].session, 1);
    assert_string_equal(h[0].line, "model = nn.Linear(3, 4)");
    sess_search_hit_free(h, n);
    sess_close(db);
    assert_int_equal(raw_int(path, "PRAGMA user_version"), SESS_SCHEMA_VERSION);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM cells"), 1);
}

/* A database at every earlier schema version, made by running the migration steps
   up to it through plain SQLite, with a session (its generator state seeded 1234) and
   a cell: opening migrates it to SESS_SCHEMA_VERSION keeping both, fills
   sessions.seed from the state (version 3) and indexes the source (version 2). */
static void test_migration_from_every_earlier_version(void **state)
{
    (void)state;
    nn_generator g;
    nn_generator_seed(&g, 1234);
    size_t rng_len = nn_generator_state_size();
    unsigned char *rng = malloc(rng_len);
    nn_generator_get_state(&g, rng);
    for (int version = 1; version < SESS_SCHEMA_VERSION; version++) {
        char name[32];
        snprintf(name, sizeof name, "from_v%d.db", version);
        const char *path = tpath(name);
        sqlite3 *raw;
        assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
        for (int i = 0; i < version; i++) {
            const sess_migration *m = &sess_migrations[i];
            assert_int_equal(m->to_version, i + 1);
            if (m->sql) assert_int_equal(sqlite3_exec(raw, m->sql, NULL, NULL, NULL), SQLITE_OK);
            if (m->fn) assert_int_equal(m->fn(raw), SQLITE_OK);
        }
        char sql[300];
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d;"
                 "INSERT INTO cells (session, number, source, status, started, duration)"
                 " VALUES (1, 1, 'torch.manual_seed(1234)', 'ok', 0, 0.5);", SESS_APPLICATION_ID, version);
        sqlite3_stmt *ins;
        assert_int_equal(sqlite3_prepare_v2(raw, "INSERT INTO sessions (id, name, started, rng_state, nnscope_version)"
                                                 " VALUES (1, 'old', 0, ?1, '0.0.1')", -1, &ins, NULL), SQLITE_OK);
        sqlite3_bind_blob(ins, 1, rng, (int)rng_len, SQLITE_STATIC);
        assert_int_equal(sqlite3_step(ins), SQLITE_DONE);
        sqlite3_finalize(ins);
        assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(raw);

        sess_db *db;
        ok(sess_open(path, SESS_OPEN_CHECK, &db));
        sess_search_hit *h;
        size_t n;
        ok(sess_search(db, "manual_seed", &h, &n));
        assert_int_equal(n, 1);
        sess_search_hit_free(h, n);
        sess_cell_info *c;
        ok(sess_list_cells(db, 1, &c, &n));
        assert_int_equal(n, 1);
        assert_string_equal(c[0].source, "torch.manual_seed(1234)");
        sess_cell_info_free(c, n);
        ok(sess_integrity_check(db));
        sess_close(db);
        assert_int_equal(raw_int(path, "PRAGMA user_version"), SESS_SCHEMA_VERSION);
        if (version < 3) /* the seed column is filled by the step to version 3 */
            assert_int_equal(raw_int(path, "SELECT seed FROM sessions WHERE id = 1"), 1234);
    }
    free(rng);
    /* a new session gets its seed column from the state it starts with */
    sess_db *db;
    ok(sess_open(tpath("seeded.db"), 0, &db));
    int64_t sid;
    nn_generator_seed(&g, 42);
    unsigned char *state_now = malloc(nn_generator_state_size());
    nn_generator_get_state(&g, state_now);
    ok(sess_session_begin(db, NULL, NULL, state_now, &sid));
    sess_close(db);
    free(state_now);
    assert_int_equal(raw_int(tpath("seeded.db"), "SELECT seed FROM sessions"), 42);
}

static void test_refuses_foreign_random_and_newer_files(void **state)
{
    (void)state;
    /* another program's SQLite database */
    const char *foreign = tpath("foreign.db");
    raw_exec(foreign, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT); INSERT INTO accounts VALUES (1, 'x');");
    assert_refused(foreign, SESS_NOTNNSCOPE, "not an nnscope sessions database");
    /* an SQLite database with only a different application_id */
    const char *other = tpath("other.db");
    raw_exec(other, "PRAGMA application_id = 42; CREATE TABLE t (x);");
    assert_refused(other, SESS_NOTNNSCOPE, "application_id 42");
    /* random bytes, and random bytes after SQLite's magic */
    const char *rnd = tpath("random.db");
    FILE *f = fopen(rnd, "wb");
    srand(7);
    for (int i = 0; i < 8192; i++) fputc(rand() & 0xff, f);
    fclose(f);
    assert_refused(rnd, SESS_CORRUPT, "not an SQLite database");
    const char *fake = tpath("fake.db");
    f = fopen(fake, "wb");
    fwrite("SQLite format 3", 1, 16, f);
    for (int i = 0; i < 8192; i++) fputc(rand() & 0xff, f);
    fclose(f);
    assert_refused(fake, SESS_CORRUPT, "not an nnscope sessions database");
    /* a text file */
    const char *txt = tpath("notes.txt");
    f = fopen(txt, "wb");
    fputs("hello\n", f);
    fclose(f);
    assert_refused(txt, SESS_CORRUPT, "not an SQLite database");
    /* a newer schema */
    const char *newer = tpath("newer.db");
    sess_db *db;
    ok(sess_open(newer, 0, &db));
    sess_close(db);
    raw_exec(newer, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99;");
    assert_refused(newer, SESS_TOONEW, "newer nnscope (schema version 99");
    /* a damaged nnscope database: a page of the table overwritten */
    const char *dam = tpath("damaged.db");
    ok(sess_open(dam, 0, &db));
    int64_t sid;
    ok(sess_session_begin(db, "s", NULL, NULL, &sid));
    for (int i = 1; i <= 200; i++) ok(sess_cell_record(db, sid, i, "x = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8", "10", NULL,
                                                       SESS_CELL_OK, 0, 0, NULL));
    sess_close(db);
    raw_exec(dam, "PRAGMA journal_mode = DELETE;");
    size_t n;
    char *bytes = slurp(dam, &n);
    assert_true(n > 4 * 4096);
    memset(bytes + 1 * 4096, 0x5a, 3 * 4096); /* pages 2 to 4 */
    f = fopen(dam, "wb");
    fwrite(bytes, 1, n, f);
    fclose(f);
    free(bytes);
    size_t n0, n1;
    char *before = slurp(dam, &n0);
    assert_int_equal(sess_open(dam, SESS_OPEN_CHECK, &db), SESS_CORRUPT);
    tu_assert_error(NN_ERR_RUNTIME, "damaged");
    char *after = slurp(dam, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
}

/* ------------------------------------------------------- cells and snapshots */

static nn_object *make_state_dict(void)
{
    nn_object *sd = nn_dict_new();
    nn_tensor *w = tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 3), TU_VALUES(0.1, -0.2, 0.3, 1e-8, 3.4e38, -0.0));
    nn_tensor *b = tu_tensor(NN_FLOAT64, 1, TU_SHAPE(2), TU_VALUES(1.0 / 3, -2.5));
    nn_tensor *steps = tu_tensor(NN_INT64, 0, TU_SHAPE(0), TU_VALUES(123456789012));
    tu_check(nn_dict_set_str(sd, "layer.weight", &w->ob));
    tu_check(nn_dict_set_str(sd, "layer.bias", &b->ob));
    tu_check(nn_dict_set_str(sd, "num_batches_tracked", &steps->ob));
    NN_RELEASE(w);
    NN_RELEASE(b);
    NN_RELEASE(steps);
    return sd;
}

/* State dicts that serialize to the same bytes. */
static void assert_same_bytes(nn_object *want, nn_object *got)
{
    void *b0, *b1;
    size_t l0, l1;
    tu_check(nn_state_dict_to_bytes(want, NULL, &b0, &l0));
    tu_check(nn_state_dict_to_bytes(got, NULL, &b1, &l1));
    assert_int_equal(l0, l1);
    assert_memory_equal(b0, b1, l0);
    nn_free(b0);
    nn_free(b1);
}

/* Snapshot `name` (a tag or an id) of db loads back as bytes identical to state_dict sd's. */
static void assert_snapshot_named_bit_exact(sess_db *db, const char *name, nn_object *sd)
{
    nn_object *back;
    ok(sess_snapshot_load(db, name, &back));
    assert_same_bytes(sd, back);
    NN_RELEASE(back);
}

/* Crafted files (issue 22): a `cells` view over an endless recursive CTE, a
   trigger of the file's own, an extra table, a changed table: each refused at open
   with a clear error, before anything runs or is written; and a statement that
   would run forever stops at Ctrl-C through the progress handler. */
static void test_refuses_crafted_schemas(void **state)
{
    (void)state;
    static const char *const crafts[] = {
        "PRAGMA foreign_keys = OFF; DROP TABLE cells;"
        " CREATE VIEW cells AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
        " SELECT x AS id, 1 AS session, x AS number, 'x' AS source, '' AS output, NULL AS error,"
        " 'ok' AS status, 0 AS started, 0 AS duration, NULL AS rng_state FROM c",
        "CREATE TRIGGER wipe AFTER INSERT ON cells BEGIN DELETE FROM snapshots; END",
        "CREATE TABLE extra (x)",
        "ALTER TABLE sessions ADD COLUMN note TEXT",
        "CREATE VIEW endless AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c",
        "DROP INDEX snapshots_tag",
    };
    for (size_t i = 0; i < sizeof crafts / sizeof *crafts; i++) {
        char name[32];
        snprintf(name, sizeof name, "crafted%zu.db", i);
        const char *path = tpath(name);
        sess_db *db;
        int64_t sid;
        ok(sess_open(path, 0, &db));
        ok(sess_session_begin(db, "s", NULL, NULL, &sid));
        sess_close(db);
        raw_exec(path, crafts[i]);
        assert_refused(path, SESS_NOTNNSCOPE, "tables, views or triggers");
        db = (sess_db *)1;
        assert_int_equal(sess_open(path, SESS_OPEN_READONLY, &db), SESS_NOTNNSCOPE);
        assert_null(db);
        nn_error_clear();
    }
    /* the untouched schema opens; a runaway statement stops at Ctrl-C */
    sess_db *db;
    ok(sess_open(tpath("fine.db"), 0, &db));
    sqlite3_stmt *stmt;
    ok(sess_prepare(db, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", &stmt));
    nn_interrupt_requested = 1;
    int rc = sqlite3_step(stmt);
    assert_int_equal(rc & 0xff, SQLITE_INTERRUPT);
    sess_sqlite_error(db, rc, "stopped");
    tu_assert_error(NN_ERR_KEYBOARD_INTERRUPT, "");
    assert_int_equal(nn_interrupt_requested, 0);
    sqlite3_finalize(stmt);
    sess_close(db);
}

static void test_cells_and_snapshots_round_trip(void **state)
{
    (void)state;
    const char *path = tpath("rt.db");
    sess_db *db;
    ok(sess_open(path, 0, &db));
    unsigned char rng[5056];
    nn_generator g;
    nn_generator_seed(&g, 1234);
    assert_int_equal(nn_generator_state_size(), sizeof rng);
    nn_generator_get_state(&g, rng);
    int64_t sid;
    ok(sess_session_begin(db, NULL, NULL, rng, &sid));
    ok(sess_cell_record(db, sid, 1, "x = 1", "", NULL, SESS_CELL_OK, 1000.5, 0.25, rng));
    ok(sess_cell_record(db, sid, 2, "print(x)", "1\n", NULL, SESS_CELL_OK, 1001.0, 0.125, NULL));
    ok(sess_cell_record(db, sid, 3, "1/0", NULL, "ZeroDivisionError: division by zero", SESS_CELL_ERROR, 1002, 0, NULL));
    assert_int_equal(sess_cell_record(db, sid, 2, "again", "", NULL, SESS_CELL_OK, 0, 0, NULL), SESS_CONSTRAINT);
    tu_assert_error(NN_ERR_RUNTIME, "already has a cell number 2");
    assert_int_equal(sess_cell_record(db, sid + 100, 1, "x", "", NULL, SESS_CELL_OK, 0, 0, NULL), SESS_NOTFOUND);
    tu_assert_error(NN_ERR_KEY, "no session with id");

    sess_cell_info *c;
    size_t n;
    ok(sess_list_cells(db, sid, &c, &n));
    assert_int_equal(n, 3);
    assert_string_equal(c[0].source, "x = 1");
    assert_int_equal(c[0].rng_len, sizeof rng);
    assert_memory_equal(c[0].rng_state, rng, sizeof rng);
    assert_true(c[0].started == 1000.5 && c[0].duration == 0.25);
    assert_string_equal(c[1].output, "1\n");
    assert_null(c[1].error);
    assert_null(c[1].rng_state);
    assert_int_equal(c[2].status, SESS_CELL_ERROR);
    assert_string_equal(c[2].error, "ZeroDivisionError: division by zero");
    assert_string_equal(c[2].output, "");
    sess_cell_info_free(c, n);

    /* snapshots: byte-exact, with metadata naming session and cell */
    nn_object *sd = make_state_dict();
    int64_t snap;
    ok(sess_snapshot_save(db, sid, 3, "model", "epoch1", sd, &snap));
    ok(sess_snapshot_save(db, sid, 0, "model", "epoch1", sd, NULL)); /* newer one, same tag */
    assert_snapshot_named_bit_exact(db, "epoch1", sd);
    char idbuf[32];
    snprintf(idbuf, sizeof idbuf, "%lld", (long long)snap);
    void *raw;
    size_t rawlen;
    ok(sess_snapshot_bytes(db, idbuf, &raw, &rawlen));
    nn_object *meta = NULL;
    nn_object *back = TU_OK(nn_state_dict_from_bytes(raw, rawlen, &meta));
    assert_string_equal(nn_str_cstr(nn_dict_get_str(meta, "nnscope_cell")), "3");
    char sbuf[32];
    snprintf(sbuf, sizeof sbuf, "%lld", (long long)sid);
    assert_string_equal(nn_str_cstr(nn_dict_get_str(meta, "nnscope_session")), sbuf);
    assert_string_equal(nn_str_cstr(nn_dict_get_str(meta, "nnscope_tag")), "epoch1");
    NN_RELEASE(meta);
    assert_same_bytes(sd, back);
    NN_RELEASE(back);
    nn_free(raw);

    sess_snapshot_info *si;
    ok(sess_list_snapshots(db, sid, &si, &n));
    assert_int_equal(n, 2);
    assert_int_equal(si[0].id, snap);
    assert_int_equal(si[0].cell, 3);
    assert_int_equal(si[1].cell, 0);
    assert_string_equal(si[0].tag, "epoch1");
    assert_int_equal(strlen(si[0].sha256), 64);
    assert_true(si[0].size > 0);
    sess_snapshot_info_free(si, n);

    sess_session_info *s;
    ok(sess_list_sessions(db, &s, &n));
    assert_int_equal(n, 1);
    assert_null(s[0].name);
    assert_int_equal(s[0].cells, 3);
    assert_int_equal(s[0].snapshots, 2);
    assert_true(s[0].ended == 0);
    sess_session_info_free(s, n);
    ok(sess_session_end(db, sid));
    assert_int_equal(sess_session_end(db, 999), SESS_NOTFOUND);
    nn_error_clear();

    assert_int_equal(sess_snapshot_load(db, "nope", &back), SESS_NOTFOUND);
    assert_null(back);
    tu_assert_error(NN_ERR_KEY, "no snapshot");
    /* a non-tensor value is refused by core */
    nn_object *bad = nn_dict_new(), *one = nn_int_new(1);
    tu_check(nn_dict_set_str(bad, "x", one));
    assert_int_equal(sess_snapshot_save(db, sid, 1, "m", NULL, bad, NULL), SESS_MISUSE);
    nn_error_clear();
    NN_RELEASE(one);
    NN_RELEASE(bad);
    sess_close(db);

    /* a damaged blob: the sha256 no longer matches, nothing is returned */
    char sql[200];
    snprintf(sql, sizeof sql, "UPDATE snapshots SET data = CAST(zeroblob(length(data)) AS BLOB) WHERE id = %lld",
             (long long)snap);
    raw_exec(path, sql);
    ok(sess_open(path, 0, &db));
    back = (nn_object *)1;
    assert_int_equal(sess_snapshot_load(db, idbuf, &back), SESS_CHECKSUM);
    assert_null(back);
    tu_assert_error(NN_ERR_RUNTIME, "is damaged");
    sess_close(db);
    NN_RELEASE(sd);
}

static const char *const nasty[] = {
    "x = 'it''s'; DROP TABLE cells; --",
    "\"double\" 'single' `back`\n\ttab\r\nCRLF\\backslash",
    "Robert'); DELETE FROM sessions WHERE ('1'='1",
    "unicode: h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9f\x98\x80",
    "%name evil\n%%",
    "",
};

/* One integer of a pragma on db's connection. */
static long long pragma_value(sess_db *db, const char *sql)
{
    sqlite3_stmt *stmt;
    assert_int_equal(sqlite3_prepare_v2(db->db, sql, -1, &stmt, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
    long long v = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return v;
}

static off_t file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? sb.st_size : 0;
}

/* Snapshot snap of db loads back as bytes identical to state_dict sd's. */
static void assert_snapshot_bit_exact(sess_db *db, int64_t snap, nn_object *sd)
{
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)snap);
    assert_snapshot_named_bit_exact(db, id, sd);
}

/* A snapshot larger than the page cache and than one gathered WAL write, in the
   database at path (made beforehand with page_size bytes a page when page_size is
   not 0, else new: SESS_PAGE_SIZE): its pages from an arena given back at once,
   bytes and sha256 exact (the digest is computed on a second thread and written in
   place), readable at once by another connection,
   in the WAL until the next commit checkpoints it, the connection's settings back as
   they were, the page size the file's. */
static void large_snapshot_round_trip(const char *path, int page_size)
{
    char wal[450];
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (page_size) { /* a file an earlier nnscope (SQLite's 4 KiB pages) made */
        sqlite3 *raw;
        char sql[100];
        snprintf(sql, sizeof sql, "PRAGMA page_size = %d; PRAGMA journal_mode = WAL", page_size);
        assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
        assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(raw);
    }
    sess_db *db, *other;
    ok(sess_open(path, 0, &db));
    assert_int_equal(pragma_value(db, "PRAGMA page_size"), page_size ? page_size : SESS_PAGE_SIZE);
    int64_t sid, snap;
    ok(sess_session_begin(db, "large", NULL, NULL, &sid));
    nn_generator_seed(nn_default_generator(), 7);
    nn_module *m = TU_OK(nn_linear_new(1000, 1200, true, NN_FLOAT32)); /* 4.8 MB: over 1000 pages */
    nn_object *sd = TU_OK(nn_module_state_dict(m, "", false));
    long long cache_size = pragma_value(db, "PRAGMA cache_size");
    size_t arena_blocks = sess_arena_blocks;
    ok(sess_snapshot_save(db, sid, 1, "big", NULL, sd, &snap));
    /* the blob's pages came from an arena (this process initialised SQLite through
       sess_open), which is gone once the call returns */
    assert_true(sess_arena_blocks - arena_blocks > 4800000 / (size_t)(page_size ? page_size : SESS_PAGE_SIZE) / 2);
    assert_int_equal(sess_arena_count(), 0);
    assert_int_equal(pragma_value(db, "PRAGMA cache_size"), cache_size);
    assert_int_equal(pragma_value(db, "PRAGMA synchronous"), 1); /* NORMAL */
    assert_true(file_size(wal) > 4800000);
    assert_true(file_size(path) < 4800000);

    /* the stored digest is the digest of the stored bytes, read with plain SQLite */
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
    sqlite3_stmt *stmt;
    assert_int_equal(sqlite3_prepare_v2(raw, "SELECT sha256, data FROM snapshots WHERE id = ?1", -1, &stmt, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(stmt, 1, snap);
    assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
    char hex[65];
    sess_sha256_hex(sqlite3_column_blob(stmt, 1), (size_t)sqlite3_column_bytes(stmt, 1), hex);
    assert_string_equal((const char *)sqlite3_column_text(stmt, 0), hex);
    sqlite3_finalize(stmt);
    sqlite3_close(raw);

    /* another connection loads it bit for bit before any checkpoint */
    ok(sess_open(path, 0, &other));
    assert_snapshot_bit_exact(other, snap, sd);
    sess_close(other);

    /* the next commit (the WAL being over its 4 MB) copies it into the database file */
    ok(sess_cell_record(db, sid, 1, "x = 1", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    assert_true(file_size(path) > 4800000);
    ok(sess_integrity_check(db));
    assert_int_equal(pragma_value(db, "PRAGMA page_size"), page_size ? page_size : SESS_PAGE_SIZE);
    NN_RELEASE(sd);
    NN_RELEASE(m);
    sess_close(db);
}

static void test_large_snapshot(void **state)
{
    (void)state;
    large_snapshot_round_trip(tpath("large.db"), 0);
    large_snapshot_round_trip(tpath("large4k.db"), 4096); /* an existing file keeps its pages */
}

/* The arena's allocator hooks as SQLite uses them: page-cache-entry sizes (a page
   and up to 1 KiB more) come from it while it is open, other sizes never; sizes,
   reallocation (the block moves out, its bytes kept) and frees work on its blocks;
   it is unmapped with its last block, also when that goes after sess_arena_end. */
static void test_arena_blocks(void **state)
{
    (void)state;
    assert_non_null(sess_vfs_name()); /* installs the hooks, as sess_open does */
    size_t served = sess_arena_blocks;
    sess_arena_begin((size_t)1 << 20, 16384);
    unsigned char *small = sqlite3_malloc(16384), *big = sqlite3_malloc(16384 + 1025);
    unsigned char *a = sqlite3_malloc(16384 + 200), *b = sqlite3_malloc(16384 + 1024);
    assert_true(small && big && a && b);
    assert_int_equal(sess_arena_blocks - served, 2); /* a and b */
    assert_int_equal(sess_arena_count(), 1);
    assert_true(sqlite3_msize(a) >= 16384 + 200 && sqlite3_msize(b) >= 16384 + 1024);
    memset(a, 0x5a, 16384 + 200);
    sqlite3_free(small);
    sqlite3_free(big);
    sess_arena_end();
    unsigned char *later = sqlite3_malloc(16384 + 200); /* ended: not from the arena */
    assert_int_equal(sess_arena_blocks - served, 2);
    a = sqlite3_realloc(a, 40000);
    assert_non_null(a);
    for (int i = 0; i < 16384 + 200; i++) assert_int_equal(a[i], 0x5a);
    assert_int_equal(sess_arena_count(), 1); /* b is still live */
    sqlite3_free(b);
    assert_int_equal(sess_arena_count(), 0);
    sqlite3_free(a);
    sqlite3_free(later);
}

/* A failed write of the snapshot's WAL frames (the file size limit, met on the
   writer thread) fails the snapshot with SESS_IO and changes nothing: no row, the
   settings back, the file intact; the next snapshot is stored. */
static void test_snapshot_write_failure(void **state)
{
    (void)state;
    const char *path = tpath("limit.db");
    sess_db *db;
    ok(sess_open(path, 0, &db));
    int64_t sid, snap = -1;
    ok(sess_session_begin(db, "limit", NULL, NULL, &sid));
    ok(sess_cell_record(db, sid, 1, "x = 1", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    nn_module *m = TU_OK(nn_linear_new(1000, 1200, true, NN_FLOAT32)); /* 4.8 MB */
    nn_object *sd = TU_OK(nn_module_state_dict(m, "", false));
    long long cache_size = pragma_value(db, "PRAGMA cache_size");

    struct rlimit old_limit, low;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
    low = old_limit;
    low.rlim_cur = 2 << 20;
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails with EFBIG */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &low), 0);
    sess_status st = sess_snapshot_save(db, sid, 1, "big", NULL, sd, &snap);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_limit), 0);
    signal(SIGXFSZ, old_handler);
    assert_int_equal(st, SESS_IO);
    tu_assert_error(NN_ERR_RUNTIME, "cannot");
    assert_int_equal(sess_arena_count(), 0); /* the rolled-back pages freed it too */
    assert_int_equal(snap, -1);
    assert_int_equal(pragma_value(db, "PRAGMA cache_size"), cache_size);
    assert_int_equal(pragma_value(db, "PRAGMA synchronous"), 1); /* NORMAL */
    sess_snapshot_info *si;
    size_t n;
    ok(sess_list_snapshots(db, sid, &si, &n));
    assert_int_equal(n, 0);
    sess_snapshot_info_free(si, n);
    ok(sess_integrity_check(db));

    ok(sess_snapshot_save(db, sid, 2, "big", NULL, sd, &snap));
    assert_snapshot_bit_exact(db, snap, sd);
    ok(sess_cell_record(db, sid, 2, "x = 2", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    ok(sess_integrity_check(db));
    NN_RELEASE(sd);
    NN_RELEASE(m);
    sess_close(db);
}

static void test_nasty_strings_stored_verbatim(void **state)
{
    (void)state;
    sess_db *db;
    ok(sess_open(tpath("nasty.db"), 0, &db));
    size_t k = sizeof nasty / sizeof nasty[0];
    int64_t sid[8];
    for (size_t i = 0; i < k; i++) {
        ok(sess_session_begin(db, nasty[i], NULL, NULL, &sid[i]));
        ok(sess_cell_record(db, sid[i], 1, nasty[i], nasty[(i + 1) % k], nasty[(i + 2) % k], SESS_CELL_ERROR, 0, 0, NULL));
    }
    assert_int_equal(sess_session_begin(db, nasty[0], NULL, NULL, &sid[7]), SESS_CONSTRAINT);
    tu_assert_error(NN_ERR_RUNTIME, "already exists");
    for (size_t i = 0; i < k; i++) {
        int64_t id;
        ok(sess_session_resolve(db, nasty[i], &id));
        assert_int_equal(id, sid[i]);
        sess_cell_info *c;
        size_t n;
        ok(sess_list_cells(db, sid[i], &c, &n));
        assert_int_equal(n, 1);
        assert_string_equal(c[0].source, nasty[i]);
        assert_string_equal(c[0].output, nasty[(i + 1) % k]);
        assert_string_equal(c[0].error, nasty[(i + 2) % k]);
        sess_cell_info_free(c, n);
    }
    sess_search_hit *h;
    size_t n;
    ok(sess_search(db, "DROP TABLE \"", &h, &n)); /* FTS5 syntax is taken literally */
    sess_search_hit_free(h, n);
    ok(sess_search(db, "Robert'); DELETE", &h, &n));
    assert_int_equal(n, 1);
    assert_string_equal(h[0].line, nasty[2]);
    sess_search_hit_free(h, n);
    ok(sess_integrity_check(db));
    sess_close(db);
}

/* --------------------------------------------------- search and resolution */

/* What --verify compares: addresses and volatile lines normalised, nothing else. */
static void normalised_is(const char *output, const char *volatile_lines, const char *want)
{
    char *got = sess_output_normalise(output, volatile_lines);
    assert_non_null(got);
    assert_string_equal(got, want);
    nn_free(got);
}

static void test_verify_normalisation(void **state)
{
    (void)state;
    /* object addresses, at any place, any length, upper or lower case */
    normalised_is("Out[2]: <torch._C.Generator object at 0x563572812b30>\n",
                  NULL, "Out[2]: <torch._C.Generator object at 0x?>\n");
    normalised_is("<a at 0x7F00AB> and (0x1)\n<b at 0xdeadbeef>", NULL, "<a at 0x?> and (0x?)\n<b at 0x?>");
    /* not an address: inside a word or a number, or 0x without digits */
    normalised_is("a0x12 10x3 x_0x5 0x 0xg\n", NULL, "a0x12 10x3 x_0x5 0x 0xg\n");
    normalised_is("", NULL, "");
    /* volatile lines (1-based, space-separated) are replaced whatever they say */
    normalised_is("CPU times: user 1 ms\nWall time: 2 ms\nOut[3]: 7\n", "1 2",
                  "<volatile>\n<volatile>\nOut[3]: 7\n");
    normalised_is("a\nb\nc", "3", "a\nb\n<volatile>");
    /* the timing lines of %time / %timeit, and only of cells that use them */
    char *v = sess_volatile_lines("%time x = f()", "CPU times: user 10 us, sys: 0 ns, total: 10 us\nWall time: 12 us\n");
    assert_non_null(v);
    assert_string_equal(v, "1 2");
    nn_free(v);
    v = sess_volatile_lines("%timeit f()", "hello\n3.1 us \xc2\xb1 0.2 us per loop (mean \xc2\xb1 std. dev. of 7 runs, 100 loops each)\n");
    assert_non_null(v);
    assert_string_equal(v, "2");
    nn_free(v);
    assert_null(sess_volatile_lines("print('Wall time: 3 s')", "Wall time: 3 s\n"));
    assert_null(sess_volatile_lines("%time 1", "Out[1]: 1\n"));
}

static void test_search_and_near_matches(void **state)
{
    (void)state;
    sess_db *db;
    ok(sess_open(tpath("search.db"), 0, &db));
    int64_t a, b, c;
    ok(sess_session_begin(db, "train", NULL, NULL, &a));
    ok(sess_session_begin(db, "train2", NULL, NULL, &b));
    ok(sess_session_begin(db, "evaluate", NULL, NULL, &c));
    ok(sess_cell_record(db, a, 1, "import torch\nmodel = nn.Linear(4, 2)\n", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    ok(sess_cell_record(db, a, 2, "opt = torch.optim.SGD(model.parameters(), lr=0.1)", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    ok(sess_cell_record(db, b, 1, "x = torch.randn(3)\nprint(x)\ny = nn.linear(x)", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    ok(sess_cell_record(db, c, 7, "loss.backward()", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    sess_search_hit *h;
    size_t n;
    ok(sess_search(db, "linear", &h, &n));
    assert_int_equal(n, 2);
    assert_int_equal(h[0].session, a);
    assert_int_equal(h[0].number, 1);
    assert_int_equal(h[0].line_no, 2);
    assert_string_equal(h[0].line, "model = nn.Linear(4, 2)");
    assert_int_equal(h[1].session, b);
    assert_int_equal(h[1].line_no, 3);
    sess_search_hit_free(h, n);
    ok(sess_search(db, "torch SGD", &h, &n));
    assert_int_equal(n, 1);
    assert_int_equal(h[0].number, 2);
    sess_search_hit_free(h, n);
    ok(sess_search(db, "backward", &h, &n));
    assert_int_equal(n, 1);
    assert_int_equal(h[0].session, c);
    assert_int_equal(h[0].number, 7);
    sess_search_hit_free(h, n);
    ok(sess_search(db, "nothinglikethis", &h, &n));
    assert_int_equal(n, 0);
    ok(sess_search(db, "   ", &h, &n));
    assert_int_equal(n, 0);

    int64_t id;
    ok(sess_session_resolve(db, "train2", &id));
    assert_int_equal(id, b);
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)c);
    ok(sess_session_resolve(db, buf, &id));
    assert_int_equal(id, c);
    assert_int_equal(sess_session_resolve(db, "trian", &id), SESS_NOTFOUND);
    tu_assert_error(NN_ERR_KEY, "no session named 'trian'; did you mean 'train'?");
    assert_int_equal(sess_session_resolve(db, "trainn", &id), SESS_NOTFOUND);
    tu_assert_error(NN_ERR_KEY, "no session named 'trainn'; did you mean 'train', 'train2'?");
    assert_int_equal(sess_session_resolve(db, "zzzzzzzzzz", &id), SESS_NOTFOUND);
    tu_assert_error(NN_ERR_KEY, "no session named 'zzzzzzzzzz'");
    assert_int_equal(sess_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(sess_edit_distance("", "abc"), 3);
    assert_int_equal(sess_edit_distance("ABC", "abc"), 0);
    ok(sess_session_name(db, c, "eval"));
    ok(sess_session_resolve(db, "eval", &id));
    assert_int_equal(id, c);
    assert_int_equal(sess_session_name(db, c, "train"), SESS_CONSTRAINT);
    nn_error_clear();
    assert_int_equal(sess_session_name(db, 12345, "t"), SESS_NOTFOUND);
    nn_error_clear();
    sess_close(db);
}

/* ------------------------------------------------------------------ export */

/* A small JSON validator (RFC 8259): returns the end of the value at p, or NULL. */
static const char *json_value(const char *p);
static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
    return p;
}
static const char *json_str(const char *p)
{
    if (*p != '"') return NULL;
    for (p++; *p != '"'; p++) {
        if ((unsigned char)*p < 0x20 || !*p) return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i]) return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) return NULL;
        }
    }
    return p + 1;
}
static const char *json_value(const char *p)
{
    p = json_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = json_ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                if (!(p = json_str(json_ws(p)))) return NULL;
                p = json_ws(p);
                if (*p++ != ':') return NULL;
            }
            if (!(p = json_value(p))) return NULL;
            p = json_ws(p);
            if (*p == close) return p + 1;
            if (*p++ != ',') return NULL;
        }
    }
    if (*p == '"') return json_str(p);
    if (!strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    if (!strncmp(p, "null", 4)) return p + 4;
    char *end;
    strtod(p, &end);
    return end == p ? NULL : end;
}

/* Export writes recorded text into comments safely (issue 22): a failed cell's
   source and error and the version string, holding every line break Python knows,
   stay comments line by line; the temporary file never follows a planted symlink. */
static void test_export_comments_are_safe(void **state)
{
    (void)state;
    const char *path = tpath("export_safe.db");
    sess_db *db;
    ok(sess_open(path, 0, &db));
    int64_t sid;
    ok(sess_session_begin(db, "n\rimport os", NULL, NULL, &sid));
    ok(sess_cell_record(db, sid, 1, "x = 1\rimport os\vos.getcwd()\fa\x1c" "b\x1d" "c\x1e" "d\xc2\x85" "e\xe2\x80\xa8" "f\xe2\x80\xa9" "g\r\nh\n",
                        "", "Error\rprint('owned')\xe2\x80\xa8z", SESS_CELL_ERROR, 0, 0, NULL));
    ok(sess_cell_record(db, sid, 2, "y = 2\rprint(y)", "", "KeyboardInterrupt", SESS_CELL_INTERRUPTED, 0, 0, NULL));
    /* the failing line as the traceback counts it, a lone \r ending a line too */
    int64_t sid2;
    ok(sess_session_begin(db, "cr", NULL, NULL, &sid2));
    ok(sess_cell_record(db, sid2, 1, "x = 1\r# note\rprint(x)\ny = 1/0\nz = 2\n", "1\n",
                        "Traceback (most recent call last):\n  File \"<ipython-input-1>\", line 4, in <module>\n"
                        "ZeroDivisionError: division by zero",
                        SESS_CELL_ERROR, 0, 0, NULL));
    sess_close(db);
    raw_exec(path, "UPDATE sessions SET nnscope_version = '0.1' || char(13) || 'print(1)' || char(10) || 'x'");
    ok(sess_open(path, 0, &db));
    char *py;
    size_t len;
    ok(sess_export_text(db, sid, SESS_EXPORT_PY, &py, &len));
    /* every line, as Python's tokenizer splits them, is a comment */
    int lines = 0;
    for (const char *p = py; *p;) {
        size_t l = strcspn(p, "\r\n");
        if (l) assert_int_equal(p[0], '#');
        lines++;
        p += l;
        if (*p == '\r' && p[1] == '\n') p++;
        if (*p) p++;
    }
    assert_true(lines > 12);
    assert_null(strpbrk(py, "\r\v\f\x1c\x1d\x1e"));
    assert_null(strstr(py, "\xc2\x85"));
    assert_null(strstr(py, "\xe2\x80\xa8"));
    assert_null(strstr(py, "\xe2\x80\xa9"));
    assert_non_null(strstr(py, "# import os\n"));
    assert_non_null(strstr(py, "# recorded by nnscope 0.1 print(1) x; 2 cells\n"));
    nn_free(py);
    ok(sess_export_text(db, sid2, SESS_EXPORT_PY, &py, &len));
    assert_non_null(strstr(py, "x = 1\n# note\nprint(x)\n# the cell raised an error here; the rest of it is commented "
                               "out:\n# y = 1/0\n# z = 2\n"));
    nn_free(py);
    /* a symlink planted at the first temporary name is left alone */
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld.0", tpath("safe_out.py"), (long)getpid());
    const char *victim = tpath("victim.txt");
    FILE *v = fopen(victim, "w");
    fputs("keep", v);
    fclose(v);
    assert_int_equal(symlink(victim, tmp), 0);
    ok(sess_export_file(db, sid, tpath("safe_out.py")));
    size_t n;
    char *kept = slurp(victim, &n);
    assert_int_equal(n, 4);
    assert_memory_equal(kept, "keep", 4);
    free(kept);
    unlink(tmp);
    sess_close(db);
}

/* A dict of the given tensors (borrowed names, new tensors released here). */
static nn_object *dict_of(int n, const char **keys, nn_tensor **values)
{
    nn_object *sd = nn_dict_new();
    for (int i = 0; i < n; i++) {
        tu_check(nn_dict_set_str(sd, keys[i], &values[i]->ob));
        NN_RELEASE(values[i]);
    }
    return sd;
}

/* The line of text that starts with prefix (asserted present), without its newline. */
static const char *line_of(const char *text, const char *prefix, char *buf, size_t cap)
{
    const char *p = text;
    while (p && *p) {
        if (!strncmp(p, prefix, strlen(prefix))) {
            size_t l = strcspn(p, "\n");
            assert_true(l < cap);
            memcpy(buf, p, l);
            buf[l] = '\0';
            return buf;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    fail_msg("no line starting with '%s' in:\n%s", prefix, text);
    return NULL;
}

static void test_snapshot_diff(void **state)
{
    (void)state;
    sess_db *db;
    ok(sess_open(tpath("diff.db"), 0, &db));
    int64_t s1, s2;
    ok(sess_session_begin(db, "one", NULL, NULL, &s1));
    ok(sess_session_begin(db, "two", NULL, NULL, &s2));
    /* w: [1, 2, 0, -4] -> [1, 3, 1, -4]: max abs 1, max rel inf (0 -> 1), norm sqrt(2)
       b: [2, 4] -> [1, 4]: max abs 1, max rel 0.5, norm 1 (ties with w on max abs, smaller norm)
       c: unchanged; shape: [2] -> [3]; gone only in A, new only in B */
    const char *ka[] = {"c", "w", "b", "shape", "gone"};
    nn_tensor *va[] = {tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(5, 6)),
                       tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALUES(1, 2, 0, -4)),
                       tu_tensor(NN_FLOAT64, 1, TU_SHAPE(2), TU_VALUES(2, 4)),
                       tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(0, 0)),
                       tu_tensor(NN_FLOAT32, 1, TU_SHAPE(1), TU_VALUES(0))};
    const char *kb[] = {"w", "b", "c", "shape", "new"};
    nn_tensor *vb[] = {tu_tensor(NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALUES(1, 3, 1, -4)),
                       tu_tensor(NN_FLOAT64, 1, TU_SHAPE(2), TU_VALUES(1, 4)),
                       tu_tensor(NN_FLOAT32, 1, TU_SHAPE(2), TU_VALUES(5, 6)),
                       tu_tensor(NN_FLOAT32, 1, TU_SHAPE(3), TU_VALUES(0, 0, 0)),
                       tu_tensor(NN_INT64, 0, TU_SHAPE(0), TU_VALUES(7))};
    nn_object *a = dict_of(5, ka, va), *b = dict_of(5, kb, vb);
    ok(sess_snapshot_save(db, s1, 4, "model", "init", a, NULL));
    ok(sess_snapshot_save(db, s2, 9, "model", "init", b, NULL)); /* the newest 'init' */
    NN_RELEASE(a);
    NN_RELEASE(b);

    char *text, line[256];
    ok(sess_snapshot_diff(db, "one:init", "two:init", &text));
    assert_string_equal(line_of(text, "A:", line, sizeof line), "A: snapshot 1 'init': model, session 1, In [4], 5 tensors");
    assert_string_equal(line_of(text, "B:", line, sizeof line), "B: snapshot 2 'init': model, session 2, In [9], 5 tensors");
    /* sorted: the shape change first, then by max abs (then norm), the unchanged last */
    const char *rows = strstr(text, "\nkey ");
    assert_non_null(rows);
    const char *shape = strstr(rows, "\nshape "), *w = strstr(rows, "\nw "), *bb = strstr(rows, "\nb "),
               *c = strstr(rows, "\nc ");
    assert_true(shape && w && bb && c && shape < w && w < bb && bb < c);
    assert_true(strstr(line_of(text, "shape ", line, sizeof line), "[2] -> [3]") != NULL);
    char want[256];
    snprintf(want, sizeof want, "w      [2, 2]                1          inf        %.4g", sqrt(2.0));
    assert_string_equal(line_of(text, "w ", line, sizeof line), want);
    assert_string_equal(line_of(text, "b ", line, sizeof line), "b      [2]                   1          0.5            1");
    assert_string_equal(line_of(text, "c ", line, sizeof line), "c      [2]                   0            0            0");
    assert_string_equal(line_of(text, "only in A:", line, sizeof line), "only in A: gone");
    assert_string_equal(line_of(text, "only in B:", line, sizeof line), "only in B: new");
    assert_string_equal(line_of(text, "3 of", line, sizeof line), "3 of 4 common tensors changed");
    nn_free(text);

    /* the newest of a tag without a session; ids; a snapshot against itself */
    ok(sess_snapshot_diff(db, "1", "init", &text));
    assert_non_null(strstr(text, "B: snapshot 2 'init'"));
    nn_free(text);
    ok(sess_snapshot_diff(db, "2", "2", &text));
    assert_non_null(strstr(text, "0 of 5 common tensors changed"));
    nn_free(text);
    /* unknown snapshots and sessions: KeyError, nothing returned */
    text = (char *)"x";
    assert_int_equal(sess_snapshot_diff(db, "init", "nope", &text), SESS_NOTFOUND);
    assert_null(text);
    tu_assert_error(NN_ERR_KEY, "no snapshot with id, tag or name 'nope'");
    assert_int_equal(sess_snapshot_diff(db, "one:2", "init", &text), SESS_NOTFOUND);
    tu_assert_error(NN_ERR_KEY, "session 1 has no snapshot with id, tag or name '2'");
    assert_int_equal(sess_snapshot_diff(db, "three:init", "init", &text), SESS_NOTFOUND);
    tu_assert_error(NN_ERR_KEY, "no session named 'three'");
    sess_close(db);
}

static void test_export_py_and_ipynb(void **state)
{
    (void)state;
    sess_db *db;
    ok(sess_open(tpath("export.db"), 0, &db));
    int64_t sid;
    ok(sess_session_begin(db, "demo \"quoted\"", NULL, NULL, &sid));
    ok(sess_cell_record(db, sid, 1, "import torch\nx = torch.ones(2)\n", "", NULL, SESS_CELL_OK, 0, 0.1, NULL));
    ok(sess_cell_record(db, sid, 2, "print(x)\nprint('a\\tb \"q\"')", "tensor([1., 1.])\na\tb \"q\"\n", NULL,
                        SESS_CELL_OK, 0, 0.1, NULL));
    ok(sess_cell_record(db, sid, 3, "%snapshot model v1", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    ok(sess_cell_record(db, sid, 4, "1/0",
                        "partial\n", "Traceback (most recent call last):\n  File \"<cell 4>\", line 1\nZeroDivisionError: division by zero\n",
                        SESS_CELL_ERROR, 0, 0, NULL));
    ok(sess_cell_record(db, sid, 5, "s = 'bad \xff byte \x01'", "\x02", NULL, SESS_CELL_OK, 0, 0, NULL));
    /* a cell that raised in its third statement: the two before it ran */
    ok(sess_cell_record(db, sid, 6, "a = 1\nfor i in range(2):\n    a += i\nelse:\n    b = (2,\n3)\nc = a / 0\nd = 4",
                        "", "Traceback (most recent call last):\n  File \"<ipython-input-6>\", line 7, in <module>\n"
                        "ZeroDivisionError: division by zero",
                        SESS_CELL_ERROR, 0, 0, NULL));
    /* magics and shell lines, echoes */
    ok(sess_cell_record(db, sid, 7, "%time y = x + 1\n%cd ~/data\n%pwd\n%env A=b c\nfiles = !ls -a\n!echo {x}\n"
                        "x?\n%inspect model\n%ll sub\n  %cat f\n%run prep.py", "", NULL, SESS_CELL_OK, 0, 0, NULL));
    ok(sess_cell_record(db, sid, 8, "%%time\nz = 2\nz", "CPU times: ...\nOut[8]: 2\n", NULL, SESS_CELL_OK, 0, 0, NULL));
    ok(sess_cell_record(db, sid, 9, "%%timeit -n 2\nz * 2", "1 us\n", NULL, SESS_CELL_OK, 0, 0, NULL));
    ok(sess_cell_record(db, sid, 10, "print('Out[10]: no')\nx", "Out[10]: no\nOut[10]: \ntensor([1.,\n        1.])\n",
                        NULL, SESS_CELL_OK, 0, 0, NULL));
    sess_cell_meta silent = {.silent = 1};
    ok(sess_cell_record_meta(db, sid, 11, "print('Out[11]: 1')\n2;", "Out[11]: 1\n", NULL, SESS_CELL_OK, 0, 0, NULL,
                             &silent));

    char *py;
    size_t len;
    ok(sess_export_text(db, sid, SESS_EXPORT_PY, &py, &len));
    assert_int_equal(strlen(py), len);
    assert_non_null(strstr(py, "# %% [1]\nimport torch\nx = torch.ones(2)\n\n# %% [2]\nprint(x)\n"));
    assert_non_null(strstr(py, "# %% [3]\n# %snapshot model v1\n"));
    /* no <module> line in the traceback: nothing ran, all commented, the error's last line */
    assert_non_null(strstr(py, "# this cell raised an error; it is commented out:\n# 1/0\n"
                               "# ! ZeroDivisionError: division by zero\n"));
    assert_null(strstr(py, "# ! Traceback"));
    assert_non_null(strstr(py, "# %% [6]\na = 1\nfor i in range(2):\n    a += i\nelse:\n    b = (2,\n3)\n"
                               "# the cell raised an error here; the rest of it is commented out:\n# c = a / 0\n# d = 4\n"
                               "# ! ZeroDivisionError: division by zero\n"));
    assert_non_null(strstr(py, "# %% [7]\ny = x + 1\nimport os; os.chdir(os.path.expanduser('~/data'))\n"
                               "import os; os.getcwd()\nimport os; os.environ['A'] = 'b c'\n"
                               "import subprocess; files = subprocess.run('ls -a', shell=True, capture_output=True, "
                               "text=True).stdout.splitlines()\n"
                               "# !echo {x}\n# x?\n# %inspect model\n"
                               "import subprocess; subprocess.run('ls -F -l' + ' ' + 'sub', shell=True)\n"
                               "  import subprocess; subprocess.run('cat' + ' ' + 'f', shell=True)\n"
                               "exec(open('prep.py').read())\n"));
    assert_non_null(strstr(py, "# %% [8]\n# %%time\nz = 2\nz\n"));
    assert_non_null(strstr(py, "# %% [9]\n# %%timeit -n 2\n# z * 2\n"));
    nn_free(py);

    char *nb;
    ok(sess_export_text(db, sid, SESS_EXPORT_IPYNB, &nb, &len));
    const char *end = json_value(nb);
    if (!end || *json_ws(end)) fail_msg("invalid JSON near: %.80s", end ? end : nb);
    assert_non_null(strstr(nb, "\"nbformat\": 4,"));
    assert_non_null(strstr(nb, "\"execution_count\": 2,"));
    assert_non_null(strstr(nb, "\"text\": [\n      \"tensor([1., 1.])\\n\",\n      \"a\\tb \\\"q\\\"\\n\"\n     ]"));
    assert_non_null(strstr(nb, "\"ename\": \"ZeroDivisionError\",\n     \"evalue\": \"division by zero\""));
    assert_non_null(strstr(nb, "\"output_type\": \"error\""));
    assert_non_null(strstr(nb, "\"source\": [\n    \"import torch\\n\",\n    \"x = torch.ones(2)\"\n   ]"));
    assert_non_null(strstr(nb, "bad \\ufffd byte \\u0001"));
    assert_non_null(strstr(nb, "\"session_name\": \"demo \\\"quoted\\\"\""));
    /* echoes are execute_result outputs (after the printed stream), text/plain without "Out[n]: " */
    assert_non_null(strstr(nb, "\"text\": [\n      \"CPU times: ...\\n\"\n     ]\n    },\n    {\n"
                               "     \"data\": {\n      \"text/plain\": [\n       \"2\"\n      ]\n     },\n"
                               "     \"execution_count\": 8,\n     \"metadata\": {},\n"
                               "     \"output_type\": \"execute_result\"\n    }"));
    assert_non_null(strstr(nb, "\"text\": [\n      \"Out[10]: no\\n\"\n     ]\n    },\n    {\n"
                               "     \"data\": {\n      \"text/plain\": [\n       \"tensor([1.,\\n\",\n"
                               "       \"        1.])\"\n      ]\n     },\n     \"execution_count\": 10,"));
    /* a silenced cell has no echo: what looks like one is printed text */
    assert_non_null(strstr(nb, "\"text\": [\n      \"Out[11]: 1\\n\"\n     ]\n    }\n   ],\n"));
    nn_free(nb);

    /* files, by extension; an unknown session */
    ok(sess_export_file(db, sid, tpath("out.ipynb")));
    ok(sess_export_file(db, sid, tpath("out.py")));
    size_t n;
    char *f = slurp(tpath("out.ipynb"), &n);
    assert_int_equal(f[0], '{');
    free(f);
    /* the nbformat 4 schema, with Debian's python3-nbformat (.ci/run installs it; skipped where it is missing) */
    if (system("/usr/bin/python3 -c 'import nbformat' 2>/dev/null") == 0) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "/usr/bin/python3 -c 'import nbformat, sys; "
                                  "nbformat.validate(nbformat.read(sys.argv[1], as_version=4))' '%s'", tpath("out.ipynb"));
        assert_int_equal(system(cmd), 0);
    } else {
        fprintf(stderr, "test_export_py_and_ipynb: python3-nbformat not installed, schema check skipped\n");
    }
    f = slurp(tpath("out.py"), &n);
    assert_int_equal(strncmp(f, "# nnscope session", 17), 0);
    free(f);
    assert_int_equal(sess_export_file(db, sid, tpath("no/such/dir/x.py")), SESS_IO);
    tu_assert_error(NN_ERR_RUNTIME, "cannot write");
    assert_int_equal(sess_export_text(db, 999, SESS_EXPORT_PY, &nb, &len), SESS_NOTFOUND);
    nn_error_clear();
    /* an empty session exports as a valid empty notebook */
    int64_t empty;
    ok(sess_session_begin(db, NULL, NULL, NULL, &empty));
    ok(sess_export_text(db, empty, SESS_EXPORT_IPYNB, &nb, &len));
    end = json_value(nb);
    assert_true(end && !*json_ws(end));
    nn_free(nb);
    sess_close(db);
}

/* ------------------------------------------------------ processes and crashes */

/* A child process: records cells 1..count into a new session named name (each
   after the previous committed); exits 0 on success. */
static void child_record(const char *path, const char *name, int count, int notify_fd)
{
    sess_db *db;
    int64_t sid;
    if (sess_open(path, 0, &db) || sess_session_begin(db, name, NULL, NULL, &sid)) {
        fprintf(stderr, "child %s: %s\n", name, nn_error_message());
        _exit(2);
    }
    nn_object *sd = make_state_dict();
    for (int i = 1; count < 0 || i <= count; i++) {
        char src[64];
        snprintf(src, sizeof src, "x = %d", i);
        if (sess_cell_record(db, sid, i, src, "out\n", NULL, SESS_CELL_OK, sess_now(), 0, NULL)) {
            fprintf(stderr, "child %s: %s\n", name, nn_error_message());
            _exit(3);
        }
        if (i % 10 == 0 && sess_snapshot_save(db, sid, i, "model", NULL, sd, NULL)) _exit(4);
        if (i == 1 && notify_fd >= 0) {
            char c = 1;
            if (write(notify_fd, &c, 1) != 1) _exit(5);
        }
    }
    NN_RELEASE(sd);
    sess_close(db);
    _exit(0);
}

static void test_concurrent_writers(void **state)
{
    (void)state;
    const char *path = tpath("concurrent.db");
    enum { NPROC = 3, NCELLS = 150 };
    pid_t pids[NPROC];
    for (int p = 0; p < NPROC; p++) {
        pids[p] = fork();
        assert_true(pids[p] >= 0);
        if (pids[p] == 0) {
            char name[16];
            snprintf(name, sizeof name, "proc%d", p);
            child_record(path, name, NCELLS, -1);
        }
    }
    for (int p = 0; p < NPROC; p++) {
        int status;
        assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    sess_db *db;
    ok(sess_open(path, 0, &db));
    ok(sess_integrity_check(db));
    sess_session_info *s;
    size_t n;
    ok(sess_list_sessions(db, &s, &n));
    assert_int_equal(n, NPROC);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(s[i].cells, NCELLS);
        assert_int_equal(s[i].snapshots, NCELLS / 10);
    }
    sess_session_info_free(s, n);
    sess_close(db);
}

/* child_record of an endless session "victim" that notifies on fd once cell 1 is committed */
static void child_record_victim(const char *path, int fd) { child_record(path, "victim", -1, fd); }

static void test_kill9_loses_at_most_the_running_cell(void **state)
{
    (void)state;
    srand((unsigned)time(NULL));
    for (int round = 0; round < 4; round++) {
        char name[32];
        snprintf(name, sizeof name, "crash%d.db", round);
        const char *path = tpath(name);
        tu_run_and_kill(child_record_victim, path, 150000); /* once cell 1 is committed */

        sess_db *db;
        ok(sess_open(path, SESS_OPEN_CHECK, &db));
        ok(sess_integrity_check(db));
        int64_t sid;
        ok(sess_session_resolve(db, "victim", &sid));
        sess_cell_info *cells;
        size_t n;
        ok(sess_list_cells(db, sid, &cells, &n));
        assert_true(n >= 1);
        for (size_t i = 0; i < n; i++) {
            char src[64];
            snprintf(src, sizeof src, "x = %zu", i + 1);
            assert_int_equal(cells[i].number, (int64_t)i + 1); /* a prefix */
            assert_string_equal(cells[i].source, src);
        }
        sess_cell_info_free(cells, n);
        /* every committed snapshot loads and verifies */
        sess_snapshot_info *si;
        size_t ns;
        ok(sess_list_snapshots(db, sid, &si, &ns));
        assert_true(ns <= n / 10);
        for (size_t i = 0; i < ns; i++) {
            char id[32];
            snprintf(id, sizeof id, "%lld", (long long)si[i].id);
            nn_object *sd;
            ok(sess_snapshot_load(db, id, &sd));
            NN_RELEASE(sd);
        }
        sess_snapshot_info_free(si, ns);
        /* and recording goes on */
        ok(sess_cell_record(db, sid, (int64_t)n + 1, "after", "", NULL, SESS_CELL_OK, 0, 0, NULL));
        sess_close(db);
    }
}

/* A child that records forever, in turn, a notebook cell (odd numbers), a statement
   typed in the view opened by cell 1 (even numbers, meta.view = 1, as app_inspect.c
   records them) and after each a snapshot of 256 KiB; it tells the parent once cell 2
   and its snapshot are committed. */
static void child_cells_views_snapshots(const char *path, int notify_fd)
{
    sess_db *db;
    int64_t sid;
    if (sess_open(path, 0, &db) || sess_session_begin(db, "mixed", NULL, NULL, &sid)) _exit(2);
    nn_object *sd = nn_dict_new();
    int64_t size = 65536;
    nn_tensor *w = nn_full(1, &size, 0.5, NN_FLOAT32);
    if (!sd || !w || nn_dict_set_str(sd, "w", &w->ob) < 0) _exit(2);
    sess_cell_meta view = {.view = 1};
    for (int i = 1;; i++) {
        char src[64];
        snprintf(src, sizeof src, "x = %d", i);
        if (sess_cell_record_meta(db, sid, i, src, "out\n", NULL, SESS_CELL_OK, sess_now(), 0, NULL,
                                  i % 2 ? NULL : &view))
            _exit(3);
        if (sess_snapshot_save(db, sid, i, "model", NULL, sd, NULL)) _exit(4);
        if (i == 2) {
            char c = 1;
            if (write(notify_fd, &c, 1) != 1) _exit(5);
        }
    }
}

/* kill -9 at any moment of a session that records cells, view statements and a
   snapshot after each (most of the time goes to the snapshots, so most kills land
   inside one): 100 rounds, each leaves an intact file holding every committed cell
   and snapshot, losing at most the one being written. */
static void test_kill9_during_snapshots_and_view_statements(void **state)
{
    (void)state;
    srand((unsigned)time(NULL) ^ 0x5eed);
    for (int round = 0; round < 100; round++) {
        const char *path = tpath("crash_mixed.db");
        unlink(path);
        char wal[600];
        snprintf(wal, sizeof wal, "%s-wal", path);
        unlink(wal);
        snprintf(wal, sizeof wal, "%s-shm", path);
        unlink(wal);
        tu_run_and_kill(child_cells_views_snapshots, path, 30000);

        sess_db *db;
        ok(sess_open(path, SESS_OPEN_CHECK, &db));
        ok(sess_integrity_check(db));
        int64_t sid;
        ok(sess_session_resolve(db, "mixed", &sid));
        sess_cell_info *cells;
        size_t n;
        ok(sess_list_cells(db, sid, &cells, &n));
        assert_true(n >= 2);
        for (size_t i = 0; i < n; i++) {
            char src[64];
            snprintf(src, sizeof src, "x = %zu", i + 1);
            assert_int_equal(cells[i].number, (int64_t)i + 1); /* a prefix */
            assert_string_equal(cells[i].source, src);
            assert_string_equal(cells[i].output, "out\n");
            assert_int_equal(cells[i].view, (i + 1) % 2 ? 0 : 1);
        }
        sess_cell_info_free(cells, n);
        /* the snapshot after each committed cell, but perhaps the last: each loads and verifies */
        sess_snapshot_info *si;
        size_t ns;
        ok(sess_list_snapshots(db, sid, &si, &ns));
        assert_true(ns == n || ns + 1 == n);
        for (size_t i = 0; i < ns; i++) {
            char id[32];
            snprintf(id, sizeof id, "%lld", (long long)si[i].id);
            assert_int_equal(si[i].cell, (int64_t)i + 1);
            nn_object *sd;
            ok(sess_snapshot_load(db, id, &sd));
            assert_int_equal(nn_numel(NN_TENSOR(nn_dict_get_str(sd, "w"))), 65536);
            NN_RELEASE(sd);
        }
        sess_snapshot_info_free(si, ns);
        /* and recording goes on */
        ok(sess_cell_record(db, sid, (int64_t)n + 1, "after", "", NULL, SESS_CELL_OK, 0, 0, NULL));
        sess_close(db);
    }
}

/* ------------------------------------------------------ failing allocations */


/* Records cell `number`, snapshots, reads and exports; every allocation may fail. */
static sess_status workload(sess_db *db, int64_t sid, int64_t number, nn_object *sd)
{
    sess_status st;
    char src[64];
    snprintf(src, sizeof src, "y = %lld", (long long)number);
    if ((st = sess_cell_record(db, sid, number, src, "out", NULL, SESS_CELL_OK, 0, 0, NULL))) return st;
    int64_t snap;
    if ((st = sess_snapshot_save(db, sid, number, "m", "t", sd, &snap))) return st;
    nn_object *back;
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)snap);
    if ((st = sess_snapshot_load(db, id, &back))) return st;
    NN_RELEASE(back);
    sess_cell_info *c;
    size_t n;
    if ((st = sess_list_cells(db, sid, &c, &n))) return st;
    sess_cell_info_free(c, n);
    sess_search_hit *h;
    if ((st = sess_search(db, "y", &h, &n))) return st;
    sess_search_hit_free(h, n);
    char *text;
    if ((st = sess_export_text(db, sid, SESS_EXPORT_IPYNB, &text, NULL))) return st;
    nn_free(text);
    int64_t found;
    st = sess_session_resolve(db, "nosuch", &found);
    if (st != SESS_NOTFOUND) return st ? st : SESS_ERROR;
    return SESS_OK;
}

static void test_failing_allocations(void **state)
{
    (void)state;
    sess_db *db;
    ok(sess_open(tpath("oom.db"), 0, &db));
    int64_t sid;
    ok(sess_session_begin(db, "oom", NULL, NULL, &sid));
    ok(sess_session_begin(db, "nosuck", NULL, NULL, &sid));
    nn_object *sd = make_state_dict();
    tu_allocator old;
    tu_install_failing_alloc(&old);
    int64_t number = 1;
    ok(workload(db, sid, number++, sd));
    long total = tu_alloc_count;
    assert_true(total > 5);
    for (tu_fail_at = 1; tu_fail_at <= total; tu_fail_at++) {
        tu_alloc_count = 0;
        nn_error_clear();
        sess_status st = workload(db, sid, number, sd);
        if (st == SESS_OK) continue; /* the failing allocation came after the last one used */
        assert_int_equal(st, SESS_NOMEM);
        assert_int_equal(nn_error_current(), NN_ERR_MEMORY);
        /* the cell is either wholly recorded or absent: find out and move on */
        sess_cell_info *c;
        size_t n;
        long keep = tu_fail_at;
        tu_fail_at = -1;
        ok(sess_list_cells(db, sid, &c, &n));
        if (n && c[n - 1].number == number) number++;
        sess_cell_info_free(c, n);
        tu_fail_at = keep;
    }
    nn_error_clear();
    tu_restore_allocator(&old);
    ok(sess_integrity_check(db));
    sess_cell_info *c;
    size_t n;
    ok(sess_list_cells(db, sid, &c, &n));
    assert_int_equal((int64_t)n, number - 1);
    sess_cell_info_free(c, n);
    NN_RELEASE(sd);
    sess_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_vectors),
        cmocka_unit_test(test_verify_normalisation),
        cmocka_unit_test(test_schema_created_and_reopened),
        cmocka_unit_test(test_default_path_under_xdg),
        cmocka_unit_test(test_migration_from_version_1),
        cmocka_unit_test(test_migration_from_every_earlier_version),
        cmocka_unit_test(test_refuses_foreign_random_and_newer_files),
        cmocka_unit_test(test_refuses_crafted_schemas),
        cmocka_unit_test(test_cells_and_snapshots_round_trip),
        cmocka_unit_test(test_large_snapshot),
        cmocka_unit_test(test_arena_blocks),
        cmocka_unit_test(test_snapshot_write_failure),
        cmocka_unit_test(test_nasty_strings_stored_verbatim),
        cmocka_unit_test(test_search_and_near_matches),
        cmocka_unit_test(test_export_py_and_ipynb),
        cmocka_unit_test(test_snapshot_diff),
        cmocka_unit_test(test_export_comments_are_safe),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_kill9_loses_at_most_the_running_cell),
        cmocka_unit_test(test_kill9_during_snapshots_and_view_statements),
        cmocka_unit_test(test_failing_allocations),
    };
    return cmocka_run_group_tests_name("sessions", tests, setup, teardown);
}
