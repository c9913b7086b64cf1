/*
 * bench_sessions.c — what the sessions store costs:
 *   snapshot_10M_s       sess_snapshot_save of a 10M-parameter float32 state_dict into
 *                        a new database, seconds: the safetensors bytes (40 MB, taken
 *                        from the tensors piece by piece), their sha256 (on a second
 *                        thread, while SQLite takes the bytes), one transaction whose
 *                        frames go to the WAL (written by a third thread) and whose
 *                        commit syncs the WAL (synchronous=FULL for it), so the
 *                        snapshot is on the disk when the call returns. Not in it:
 *                        copying the blob from the WAL into the database file (the
 *                        checkpoint), which the next commit does: see the next.
 *   cell_after_snapshot_s  sess_cell_record of a small cell right after each of those
 *                        snapshots, seconds: mostly that checkpoint (40 MB copied,
 *                        the WAL and the database file synced)
 *   write_10M_s          write(2) of the same bytes to a new file, then fsync, seconds
 *   snapshot_10M_ratio   snapshot_10M_s / write_10M_s (target <= 2.0)
 *   cell_record_us       sess_cell_record of one small cell (source, output, the
 *                        5 kB generator state; one transaction): what recording adds
 *                        to a cell (target <= 500)
 * Files go to a temporary directory beside this program (in $(BUILD)/bench/, the
 * project's disk, so that fsync costs what it costs there), removed at the end.
 * Each figure is the median of its repetitions, the two 10M timings interleaved.
 * Figures are appended to the file bench_core started ($NNSCOPE_BENCH_FILE).
 */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nn.h"
#include "../sessions/sess.h"
#include "bench_util.h"

#define SNAPSHOT_REPS 5
#define CELLS 400

static char dir[4096];

static const char *in_dir(const char *name, int i)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s%d", dir, name, i);
    return path;
}

/* A 10M-parameter float32 state_dict: a Linear(4000, 2500)'s (10,002,500
   parameters, PyTorch's initialisation from seed 0). New reference. */
static nn_object *state_dict_10m(void)
{
    nn_module *m = nn_linear_new(4000, 2500, true, NN_FLOAT32);
    if (!m) bench_die("nn_linear_new");
    nn_object *sd = nn_module_state_dict(m, "", false);
    NN_RELEASE(m);
    if (!sd) bench_die("state_dict");
    return sd;
}

/* write(2) of len bytes to a new file and fsync: seconds. */
static double time_write(const char *path, const void *data, size_t len)
{
    double t0 = bench_now_s();
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) bench_die("open");
    for (size_t done = 0; done < len;) {
        ssize_t w = write(fd, (const char *)data + done, len - done);
        if (w <= 0) bench_die("write");
        done += (size_t)w;
    }
    if (fsync(fd) != 0) bench_die("fsync");
    close(fd);
    double t = bench_now_s() - t0;
    unlink(path);
    return t;
}

/* Removes a database file and its WAL and shared-memory files. */
static void remove_db(const char *path)
{
    char side[4300];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* Records cell number of session sid in db (a small cell with its generator state). */
static void record_cell(sess_db *db, int64_t sid, int64_t number, const void *rng)
{
    if (sess_cell_record(db, sid, number, "x = x + 1\nprint(x)", "tensor([2., 3.])\n", NULL, SESS_CELL_OK, 1.0e9,
                         0.001, rng))
        bench_die("sess_cell_record");
}

/* One snapshot into a new database (opened and closed outside the timing), then one
   cell: seconds of each. */
static void time_snapshot(const char *path, nn_object *sd, double *snapshot_s, double *next_cell_s)
{
    sess_db *db;
    int64_t sid;
    if (sess_open(path, 0, &db) || sess_session_begin(db, "bench", NULL, NULL, &sid)) bench_die("sess_open");
    double t0 = bench_now_s();
    if (sess_snapshot_save(db, sid, 1, "model", "bench", sd, NULL)) bench_die("sess_snapshot_save");
    double t1 = bench_now_s();
    record_cell(db, sid, 1, NULL);
    double t2 = bench_now_s();
    sess_close(db);
    remove_db(path);
    *snapshot_s = t1 - t0;
    *next_cell_s = t2 - t1;
}

static double cell_record_us(void)
{
    const char *path = in_dir("cells.db", 0);
    sess_db *db;
    int64_t sid;
    if (sess_open(path, 0, &db) || sess_session_begin(db, "bench", NULL, NULL, &sid)) bench_die("sess_open");
    unsigned char *rng = malloc(nn_generator_state_size());
    nn_generator_get_state(nn_default_generator(), rng);
    double times[CELLS];
    for (int i = 0; i < CELLS; i++) {
        double t0 = bench_now_s();
        record_cell(db, sid, i + 1, rng);
        times[i] = bench_now_s() - t0;
    }
    sess_close(db);
    free(rng);
    remove_db(path);
    return bench_median(times + CELLS / 4, CELLS - CELLS / 4) * 1e6; /* the first quarter warms up */
}

int main(int argc, char **argv)
{
    (void)argc;
    char self[4096];
    bench_open("bench_sessions", "a");
    snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(dir, sizeof dir, "%s/sessions_bench_XXXXXX", dirname(self));
    if (!mkdtemp(dir)) bench_die("mkdtemp");

    nn_generator_seed(nn_default_generator(), 0);
    nn_object *sd = state_dict_10m();
    void *bytes;
    size_t len;
    if (nn_state_dict_to_bytes(sd, NULL, &bytes, &len) < 0) bench_die("nn_state_dict_to_bytes");
    double snap[SNAPSHOT_REPS], next_cell[SNAPSHOT_REPS], wr[SNAPSHOT_REPS];
    time_snapshot(in_dir("warm.db", 0), sd, &snap[0], &next_cell[0]); /* warm-up: page cache, allocator */
    for (int i = 0; i < SNAPSHOT_REPS; i++) {
        wr[i] = time_write(in_dir("plain", i), bytes, len);
        time_snapshot(in_dir("snap.db", i), sd, &snap[i], &next_cell[i]);
    }
    double s = bench_median(snap, SNAPSHOT_REPS), w = bench_median(wr, SNAPSHOT_REPS);
    bench_report("snapshot_10M_s", s);
    bench_report("cell_after_snapshot_s", bench_median(next_cell, SNAPSHOT_REPS));
    bench_report("write_10M_s", w);
    bench_report("snapshot_10M_ratio", s / w);
    bench_report("cell_record_us", cell_record_us());
    nn_free(bytes);
    NN_RELEASE(sd);
    rmdir(dir);
    bench_close();
    return 0;
}
