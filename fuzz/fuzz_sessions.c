/*
 * fuzz_sessions.c — libFuzzer target: opening a sessions database someone
 * handed over. The first byte of the input picks how the file is made:
 *   0  the rest is the whole file;
 *   1  the rest patches a real nnscope database (made once at start): records of
 *      a 2-byte big-endian offset, a length byte and that many bytes;
 *   2  the rest is SQL run by plain SQLite on a copy of that database (crafted
 *      views, triggers, tables, rows).
 * The file is then opened read-only with the integrity check, and read-write:
 * every session listed, its cells read and exported as .py and .ipynb, its
 * snapshots loaded, a search run, and a session with a cell and a snapshot
 * recorded into it. Nothing may crash, leak or hang.
 */
#include "fuzz.h"

#include <sqlite3.h>

#include "sessions/sess.h"

#define SF_PATH "fuzz-sessions.db"

static unsigned char *sf_seed;
static size_t sf_seed_len;

static void sf_remove(void)
{
    remove(SF_PATH);
    remove(SF_PATH "-wal");
    remove(SF_PATH "-shm");
    remove(SF_PATH "-journal");
}

static int sf_write(const void *data, size_t len)
{
    sf_remove();
    FILE *f = fopen(SF_PATH, "wb");
    if (!f) return -1;
    size_t w = len ? fwrite(data, 1, len, f) : 0;
    return fclose(f) == 0 && w == len ? 0 : -1;
}

/* A small state dict {"w": zeros(2, 3)}: a new reference. */
static nn_object *sf_state(void)
{
    int64_t shape[2] = {2, 3};
    nn_object *d = nn_dict_new(), *k = nn_str_new("w");
    nn_tensor *t = nn_zeros(2, shape, NN_FLOAT32);
    if (!d || !k || !t || nn_dict_set(d, k, (nn_object *)t) < 0) abort();
    NN_RELEASE(k);
    NN_RELEASE(t);
    return d;
}

/* The real database the patches and SQL start from. */
static void sf_make_seed(void)
{
    if (sf_seed) return;
    sf_remove();
    sess_db *db;
    int64_t sid, snap;
    if (sess_open(SF_PATH, 0, &db) != SESS_OK) abort();
    if (sess_session_begin(db, "seed", NULL, NULL, &sid) != SESS_OK) abort();
    sess_cell_record(db, sid, 1, "x = 1\r\nprint(x)", "1\n", NULL, SESS_CELL_OK, 1.0, 0.5, NULL);
    sess_cell_record(db, sid, 2, "1/0", "", "ZeroDivisionError: division by zero", SESS_CELL_ERROR, 2.0, 0.1, NULL);
    nn_object *state = sf_state();
    sess_snapshot_save(db, sid, 2, "net", "first", state, &snap);
    NN_RELEASE(state);
    sess_session_end(db, sid);
    sess_close(db);
    FILE *f = fopen(SF_PATH, "rb");
    if (!f) abort();
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    sf_seed = malloc((size_t)n);
    if (!sf_seed || fread(sf_seed, 1, (size_t)n, f) != (size_t)n) abort();
    sf_seed_len = (size_t)n;
    fclose(f);
    nn_error_clear();
}

static int sf_progress(void *ud)
{
    (void)ud;
    return fuzz_deadline > 0 && fuzz_now() > fuzz_deadline;
}

/* Runs sql with plain SQLite on the file at SF_PATH (errors ignored). */
static void sf_craft(const char *sql)
{
    sqlite3 *db;
    if (sqlite3_open(SF_PATH, &db) == SQLITE_OK) {
        sqlite3_progress_handler(db, 1000, sf_progress, NULL);
        sqlite3_exec(db, sql, NULL, NULL, NULL);
    }
    sqlite3_close(db);
}

/* Everything a user can do with the file. */
static void sf_use(int flags)
{
    sess_db *db = NULL;
    if (sess_open(SF_PATH, flags, &db) != SESS_OK) {
        nn_error_clear();
        return;
    }
    sess_session_info *ss = NULL;
    size_t n = 0;
    if (sess_list_sessions(db, &ss, &n) == SESS_OK) {
        for (size_t i = 0; i < n && i < 8; i++) {
            sess_session_info info;
            if (sess_session_get(db, ss[i].id, &info) == SESS_OK) sess_session_info_clear(&info);
            sess_cell_info *cells = NULL;
            size_t nc = 0;
            if (sess_list_cells(db, ss[i].id, &cells, &nc) == SESS_OK) sess_cell_info_free(cells, nc);
            for (int fmt = 0; fmt < 2; fmt++) {
                char *text = NULL;
                if (sess_export_text(db, ss[i].id, fmt ? SESS_EXPORT_IPYNB : SESS_EXPORT_PY, &text, NULL) == SESS_OK)
                    nn_free(text);
            }
            if (!(flags & SESS_OPEN_READONLY)) sess_export_file(db, ss[i].id, "fuzz-export.py");
            int64_t resolved;
            if (ss[i].name) sess_session_resolve(db, ss[i].name, &resolved);
            nn_error_clear();
        }
        sess_session_info_free(ss, n);
    }
    nn_error_clear();
    sess_snapshot_info *snaps = NULL;
    size_t ns = 0;
    if (sess_list_snapshots(db, 0, &snaps, &ns) == SESS_OK) {
        for (size_t i = 0; i < ns && i < 8; i++) {
            char id[32];
            snprintf(id, sizeof id, "%lld", (long long)snaps[i].id);
            nn_object *state = NULL;
            if (sess_snapshot_load(db, id, &state) == SESS_OK) NN_RELEASE(state);
            nn_error_clear();
        }
        sess_snapshot_info_free(snaps, ns);
    }
    sess_search_hit *hits = NULL;
    size_t nh = 0;
    if (sess_search(db, "print x", &hits, &nh) == SESS_OK) sess_search_hit_free(hits, nh);
    nn_error_clear();
    if (!(flags & SESS_OPEN_READONLY)) {
        int64_t sid;
        if (sess_session_begin(db, NULL, NULL, NULL, &sid) == SESS_OK) {
            sess_cell_record(db, sid, 1, "y = 2", "", NULL, SESS_CELL_OK, 3.0, 0.1, NULL);
            nn_object *state = sf_state();
            sess_snapshot_save(db, sid, 1, "net", NULL, state, NULL);
            NN_RELEASE(state);
            sess_session_end(db, sid);
        }
        nn_error_clear();
    }
    sess_close(db);
    nn_error_clear();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_setup();
    sf_make_seed();
    if (size < 1) return 0;
    fuzz_start(10);
    int mode = data[0] % 3;
    data++;
    size--;
    int ok = 0;
    if (mode == 0) {
        ok = sf_write(data, size) == 0;
    } else if (mode == 1) {
        unsigned char *file = malloc(sf_seed_len);
        if (!file) abort();
        memcpy(file, sf_seed, sf_seed_len);
        for (size_t i = 0; i + 3 <= size;) {
            size_t off = ((size_t)data[i] << 8 | data[i + 1]) % sf_seed_len, len = data[i + 2];
            i += 3;
            for (size_t k = 0; k < len && i < size; k++, i++) file[(off + k) % sf_seed_len] = data[i];
        }
        ok = sf_write(file, sf_seed_len) == 0;
        free(file);
    } else {
        ok = sf_write(sf_seed, sf_seed_len) == 0;
        if (ok) {
            char *sql = fuzz_cstr(data, size);
            sf_craft(sql);
            free(sql);
        }
    }
    if (ok) {
        sf_use(SESS_OPEN_READONLY | SESS_OPEN_CHECK);
        sf_use(0);
    }
    sf_remove();
    remove("fuzz-export.py");
    fuzz_stop();
    return 0;
}
