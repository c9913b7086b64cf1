/*
 * vfs.c — the SQLite VFS the sessions database is opened with: the default one,
 * every call passed through, except that a connection's WAL file can be told to
 * gather its writes (sess_wal_gather) and have a second thread write them. SQLite
 * writes a WAL frame as two calls (a 24-byte header, then the page), so a 40 MB
 * snapshot is thousands of small write(2) calls; gathered, they are 40 calls of
 * 1 MiB, and copying them into the kernel's page cache (about half of the time of
 * writing a snapshot's frames here) happens on the writer thread while SQLite makes
 * the next MiB of frames on its own.
 *
 * The gathered bytes reach the file in the order they were written, before anything
 * can look at the file: a read, a size, a truncation, a sync, a file control, a
 * close, or gathering being turned off each first waits until every gathered byte is
 * written. SQLite updates the WAL index (what other connections read) only after
 * syncing the WAL when synchronous=FULL, so gathering is only turned on for a
 * transaction that runs with FULL (sess_snapshot_save); a failed write then fails
 * the sync (or an earlier call), hence the commit.
 *
 * The writer also starts the disk writing every WRITEBACK_BYTES it has written
 * (sync_file_range(SYNC_FILE_RANGE_WRITE), which does not wait and promises nothing),
 * so that the disk works while SQLite is still making frames and the commit's sync
 * waits only for the last few. The sync SQLite issues is what makes the commit
 * durable, as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "sess_int.h"

/* The most bytes gathered before they are handed to the writer thread. */
#define GATHER_BYTES ((size_t)1 << 20)
/* Bytes written between two starts of writeback: larger runs suit the disk better
   (1 to 16 MiB measured alike; 64 KiB at a time made the commit slower). */
#define WRITEBACK_BYTES ((sqlite3_int64)4 << 20)

/* A WAL file's gathering: two buffers, one filled by SQLite's thread while the writer
   thread writes the other through its own descriptor of the file. */
typedef struct gather {
    unsigned char *fill; /* the buffer being filled: its used bytes go to the file at start */
    size_t used;
    sqlite3_int64 start;
    pthread_mutex_t lock; /* guards what follows */
    pthread_cond_t changed;
    unsigned char *spare; /* the other buffer when the writer is idle, else NULL */
    unsigned char *job;   /* the buffer being written, else NULL */
    size_t job_len;
    sqlite3_int64 job_off;
    int err;  /* errno of the first failed write; later buffers are dropped */
    int stop; /* set when gathering ends */
    int fd;   /* the file opened again, write-only */
    sqlite3_int64 unstarted; /* the offset from which written bytes have no writeback started */
    pthread_t thread;
} gather;

typedef struct shim_file {
    sqlite3_file base;  /* its pMethods is &shim_methods */
    sqlite3_file *real; /* the default VFS's file, in the same allocation, after this */
    int is_wal;
    const char *name;   /* the file's path (SQLite keeps it alive while the file is open) */
    gather *g;          /* non-NULL while gathering */
} shim_file;

#define REAL(file) (((shim_file *)(file))->real)

/* Writes len bytes at off through fd: 0 or an errno. */
static int write_all(int fd, const unsigned char *p, size_t len, sqlite3_int64 off)
{
    while (len) {
        ssize_t n = pwrite(fd, p, len, off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO;
        p += n;
        len -= (size_t)n;
        off += n;
    }
    return 0;
}

/* Starts the disk writing [g->unstarted, end) once that is WRITEBACK_BYTES or more
   (the range restarts where a write lands before it). */
static void start_writeback(gather *g, sqlite3_int64 start, sqlite3_int64 end)
{
    if (start < g->unstarted) g->unstarted = start;
    if (end - g->unstarted < WRITEBACK_BYTES) return;
    sync_file_range(g->fd, g->unstarted, end - g->unstarted, SYNC_FILE_RANGE_WRITE);
    g->unstarted = end;
}

static void *writer_main(void *arg)
{
    gather *g = arg;
    pthread_mutex_lock(&g->lock);
    for (;;) {
        while (!g->job && !g->stop) pthread_cond_wait(&g->changed, &g->lock);
        if (!g->job) break;
        int failed = g->err;
        pthread_mutex_unlock(&g->lock);
        int err = failed ? 0 : write_all(g->fd, g->job, g->job_len, g->job_off);
        if (!failed && !err) start_writeback(g, g->job_off, g->job_off + (sqlite3_int64)g->job_len);
        pthread_mutex_lock(&g->lock);
        if (err) g->err = err;
        g->spare = g->job;
        g->job = NULL;
        pthread_cond_broadcast(&g->changed);
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

/* SQLite's code for a failed write. */
static int write_error(int err) { return err == ENOSPC || err == EDQUOT ? SQLITE_FULL : SQLITE_IOERR_WRITE; }

/* Waits until the writer is idle: SQLITE_OK, or the error of a failed write. */
static int wait_idle(gather *g)
{
    pthread_mutex_lock(&g->lock);
    while (g->job) pthread_cond_wait(&g->changed, &g->lock);
    int err = g->err;
    pthread_mutex_unlock(&g->lock);
    return err ? write_error(err) : SQLITE_OK;
}

/* Hands what was gathered to the writer (once it is idle) and starts filling the
   other buffer. */
static int hand_off(gather *g)
{
    if (!g->used) return SQLITE_OK;
    int rc = wait_idle(g);
    if (rc != SQLITE_OK) return rc;
    pthread_mutex_lock(&g->lock);
    g->job = g->fill;
    g->job_len = g->used;
    g->job_off = g->start;
    g->fill = g->spare;
    g->spare = NULL;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
    g->used = 0;
    return SQLITE_OK;
}

/* Every gathered byte written (nothing to do when not gathering). */
static int flush(shim_file *f)
{
    if (!f->g) return SQLITE_OK;
    int rc = hand_off(f->g);
    return rc != SQLITE_OK ? rc : wait_idle(f->g);
}

/* Starts gathering f's writes; on any failure writes just go straight through. */
static void gather_start(shim_file *f)
{
    gather *g = sqlite3_malloc(sizeof *g);
    if (!g) return;
    memset(g, 0, sizeof *g);
    g->fill = sqlite3_malloc((int)GATHER_BYTES);
    g->spare = sqlite3_malloc((int)GATHER_BYTES);
    g->fd = f->name ? open(f->name, O_WRONLY | O_CLOEXEC) : -1;
    if (!g->fill || !g->spare || g->fd < 0 || pthread_mutex_init(&g->lock, NULL) != 0) goto fail;
    if (pthread_cond_init(&g->changed, NULL) != 0) goto fail_lock;
    if (pthread_create(&g->thread, NULL, writer_main, g) != 0) goto fail_cond;
    f->g = g;
    return;
fail_cond:
    pthread_cond_destroy(&g->changed);
fail_lock:
    pthread_mutex_destroy(&g->lock);
fail:
    if (g->fd >= 0) close(g->fd);
    sqlite3_free(g->fill);
    sqlite3_free(g->spare);
    sqlite3_free(g);
}

/* Writes what is left, stops the writer and frees it all: SQLITE_OK or the error of a
   failed write. */
static int gather_stop(shim_file *f)
{
    gather *g = f->g;
    if (!g) return SQLITE_OK;
    int rc = flush(f);
    pthread_mutex_lock(&g->lock);
    g->stop = 1;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
    pthread_join(g->thread, NULL);
    pthread_cond_destroy(&g->changed);
    pthread_mutex_destroy(&g->lock);
    close(g->fd);
    sqlite3_free(g->fill);
    sqlite3_free(g->spare);
    sqlite3_free(g);
    f->g = NULL;
    return rc;
}

static int shim_close(sqlite3_file *file)
{
    shim_file *f = (shim_file *)file;
    int rc = gather_stop(f);
    int close_rc = f->real->pMethods->xClose(f->real);
    return rc != SQLITE_OK ? rc : close_rc;
}

static int shim_read(sqlite3_file *file, void *p, int n, sqlite3_int64 off)
{
    int rc = flush((shim_file *)file);
    return rc != SQLITE_OK ? rc : REAL(file)->pMethods->xRead(REAL(file), p, n, off);
}

static int shim_write(sqlite3_file *file, const void *p, int n, sqlite3_int64 off)
{
    shim_file *f = (shim_file *)file;
    gather *g = f->g;
    if (!g) return f->real->pMethods->xWrite(f->real, p, n, off);
    if (g->used && (off != g->start + (sqlite3_int64)g->used || g->used + (size_t)n > GATHER_BYTES)) {
        int rc = hand_off(g);
        if (rc != SQLITE_OK) return rc;
    }
    if ((size_t)n > GATHER_BYTES) { /* never for a WAL frame; kept in order all the same */
        int rc = flush(f);
        return rc != SQLITE_OK ? rc : f->real->pMethods->xWrite(f->real, p, n, off);
    }
    if (!g->used) g->start = off;
    memcpy(g->fill + g->used, p, (size_t)n);
    g->used += (size_t)n;
    return SQLITE_OK;
}

static int shim_truncate(sqlite3_file *file, sqlite3_int64 size)
{
    int rc = flush((shim_file *)file);
    return rc != SQLITE_OK ? rc : REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static int shim_sync(sqlite3_file *file, int flags)
{
    int rc = flush((shim_file *)file);
    return rc != SQLITE_OK ? rc : REAL(file)->pMethods->xSync(REAL(file), flags);
}

static int shim_file_size(sqlite3_file *file, sqlite3_int64 *size)
{
    int rc = flush((shim_file *)file);
    return rc != SQLITE_OK ? rc : REAL(file)->pMethods->xFileSize(REAL(file), size);
}

/* A size hint grows the file from what it sees of its size: wait for the writer. */
static int shim_file_control(sqlite3_file *file, int op, void *arg)
{
    int rc = flush((shim_file *)file);
    return rc != SQLITE_OK ? rc : REAL(file)->pMethods->xFileControl(REAL(file), op, arg);
}

/* The rest only pass through. */
static int shim_lock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xLock(REAL(file), lock); }
static int shim_unlock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xUnlock(REAL(file), lock); }
static int shim_check_reserved_lock(sqlite3_file *file, int *out)
{
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out);
}
static int shim_sector_size(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int shim_device_characteristics(sqlite3_file *file)
{
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int shim_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **out)
{
    return REAL(file)->pMethods->xShmMap(REAL(file), page, size, extend, out);
}
static int shim_shm_lock(sqlite3_file *file, int offset, int n, int flags)
{
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags);
}
static void shim_shm_barrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }
static int shim_shm_unmap(sqlite3_file *file, int delete_flag)
{
    return REAL(file)->pMethods->xShmUnmap(REAL(file), delete_flag);
}
static int shim_fetch(sqlite3_file *file, sqlite3_int64 off, int n, void **out)
{
    return REAL(file)->pMethods->xFetch(REAL(file), off, n, out);
}
static int shim_unfetch(sqlite3_file *file, sqlite3_int64 off, void *p)
{
    return REAL(file)->pMethods->xUnfetch(REAL(file), off, p);
}

static const sqlite3_io_methods shim_methods = {
    3, shim_close, shim_read, shim_write, shim_truncate, shim_sync, shim_file_size, shim_lock, shim_unlock,
    shim_check_reserved_lock, shim_file_control, shim_sector_size, shim_device_characteristics, shim_shm_map,
    shim_shm_lock, shim_shm_barrier, shim_shm_unmap, shim_fetch, shim_unfetch,
};

static sqlite3_vfs shim_vfs;

static int shim_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags)
{
    sqlite3_vfs *base = vfs->pAppData;
    shim_file *f = (shim_file *)file;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)(f + 1);
    f->is_wal = (flags & SQLITE_OPEN_WAL) != 0;
    f->name = name;
    int rc = base->xOpen(base, name, f->real, flags, out_flags);
    /* SQLite calls xClose when pMethods is set, even after a failed open */
    file->pMethods = f->real->pMethods ? &shim_methods : NULL;
    return rc;
}

static int vfs_registered;

static void register_vfs(void)
{
    sess_arena_install(); /* before SQLite initialises, which sqlite3_vfs_find does */
    sqlite3_vfs *base = sqlite3_vfs_find(NULL);
    /* shim_methods say version 3 (shared memory, mmap) for every file: true of the
       files of SQLite's "unix" VFS, the default on Linux; elsewhere no shim */
    if (!base || strcmp(base->zName, "unix") != 0) return;
    shim_vfs = *base;
    shim_vfs.zName = SESS_VFS_NAME;
    shim_vfs.pNext = NULL;
    shim_vfs.szOsFile = (int)sizeof(shim_file) + base->szOsFile;
    shim_vfs.pAppData = base;
    shim_vfs.xOpen = shim_open;
    vfs_registered = sqlite3_vfs_register(&shim_vfs, 0) == SQLITE_OK;
}

const char *sess_vfs_name(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_vfs);
    return vfs_registered ? SESS_VFS_NAME : NULL;
}

void sess_wal_gather(sess_db *db, int on)
{
    sqlite3_file *file = NULL;
    if (sqlite3_file_control(db->db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) != SQLITE_OK || !file ||
        file->pMethods != &shim_methods || !((shim_file *)file)->is_wal)
        return; /* no WAL of ours open: writes go straight through */
    shim_file *f = (shim_file *)file;
    if (on) {
        if (!f->g) gather_start(f);
        return;
    }
    /* After a commit nothing is left (its sync wrote it all); after a rollback what is
       left are frames no one will read, so a failure here loses nothing. */
    gather_stop(f);
}
