/*
 * test_kill9.c — kill -9 at any moment loses at most what was being written
 * (issue 22): a child records a notebook session the way nnscope does — cells,
 * statements typed in an inspector view (cells marked with their view, with
 * volatile lines), snapshots of a state dict large enough that a kill often lands
 * in the middle of one — and is killed at a random moment, 25 times. Each time
 * the file passes the integrity check, holds a prefix of the cells with their
 * view marks intact, every snapshot it lists loads and matches its checksum, and
 * recording goes on in it.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sessions/sess.h"

static char tmpdir[256];

static void ok(sess_status st)
{
    if (st != SESS_OK) fail_msg("%s: %s", sess_status_name(st), nn_error_message());
}

/* {"w": a [256, 256] tensor of i's} (256 KiB): a new reference. */
static nn_object *state_dict(int i)
{
    nn_object *d = nn_dict_new(), *k = nn_str_new("w");
    nn_tensor *t = nn_full(2, (int64_t[]){256, 256}, (double)i, NN_FLOAT32);
    if (!d || !k || !t || nn_dict_set(d, k, &t->ob) < 0) _exit(6);
    NN_RELEASE(k);
    NN_RELEASE(t);
    return d;
}

/* Cell i: every third one a statement typed in the view that cell 2 opened. */
static bool in_view(int i) { return i > 2 && i % 3 == 0; }

/* The child: records cells until killed, a snapshot every 4th cell; tells the parent
   (one byte on fd) once cell 1 is committed. */
static void child(const char *path, int fd)
{
    sess_db *db;
    int64_t sid;
    if (sess_open(path, 0, &db) || sess_session_begin(db, "victim", NULL, NULL, &sid)) _exit(2);
    for (int i = 1;; i++) {
        char src[64];
        snprintf(src, sizeof src, i == 2 ? "%%inspect net" : "x = %d", i);
        sess_cell_meta meta = {.view = in_view(i) ? 2 : 0, .volatile_lines = in_view(i) ? "1" : NULL};
        if (sess_cell_record_meta(db, sid, i, src, "out\n", NULL, SESS_CELL_OK, sess_now(), 0, NULL, &meta)) _exit(3);
        if (i % 4 == 0) {
            nn_object *sd = state_dict(i);
            if (sess_snapshot_save(db, sid, i, "net", NULL, sd, NULL)) _exit(4);
            NN_RELEASE(sd);
        }
        if (i == 1) {
            char c = 1;
            if (write(fd, &c, 1) != 1) _exit(5);
        }
    }
}

static void test_kill9_rounds(void **state)
{
    (void)state;
    srand((unsigned)time(NULL));
    for (int round = 0; round < 25; round++) {
        char path[400];
        snprintf(path, sizeof path, "%s/kill%d.db", tmpdir, round);
        tu_run_and_kill(child, path, 200000);

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
            int number = (int)i + 1;
            assert_int_equal(cells[i].number, number); /* a prefix */
            assert_int_equal(cells[i].view, in_view(number) ? 2 : 0);
            if (in_view(number)) assert_string_equal(cells[i].volatile_lines, "1");
            else assert_null(cells[i].volatile_lines);
        }
        sess_cell_info_free(cells, n);
        sess_snapshot_info *si;
        size_t ns;
        ok(sess_list_snapshots(db, sid, &si, &ns));
        assert_true(ns <= n / 4);
        for (size_t i = 0; i < ns; i++) {
            char id[32];
            snprintf(id, sizeof id, "%lld", (long long)si[i].id);
            nn_object *sd;
            ok(sess_snapshot_load(db, id, &sd)); /* its sha256 checked */
            nn_tensor *w = NN_TENSOR(nn_dict_get_str(sd, "w"));
            assert_non_null(w);
            assert_int_equal(nn_numel(w), 256 * 256);
            double *v = malloc(256 * 256 * sizeof *v);
            assert_non_null(v);
            nn_to_doubles(w, v); /* the values of the cell it was taken at, whole */
            for (int k = 0; k < 256 * 256; k++)
                if (v[k] != (double)si[i].cell) fail_msg("snapshot %lld value %d: %g", (long long)si[i].id, k, v[k]);
            free(v);
            NN_RELEASE(sd);
        }
        sess_snapshot_info_free(si, ns);
        /* recording goes on in the same session's file */
        int64_t again;
        ok(sess_session_begin(db, "after", NULL, NULL, &again));
        ok(sess_cell_record(db, again, 1, "y = 1", "", NULL, SESS_CELL_OK, sess_now(), 0, NULL));
        sess_close(db);
        char extra[420];
        remove(path);
        snprintf(extra, sizeof extra, "%s-wal", path);
        remove(extra);
        snprintf(extra, sizeof extra, "%s-shm", path);
        remove(extra);
    }
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/nnscope-kill9-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rmdir(tmpdir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kill9_rounds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
