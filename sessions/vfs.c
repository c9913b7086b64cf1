/*
 * vfs.c — the SQLite VFS the sessions database is opened with: the default one,
 * every call passed through, except that a connection's WAL file can be told to
 * gather its writes (sess_wal_gather). SQLite writes a WAL frame as two calls (a
 * 24-byte header, then the page), so a 40 MB snapshot in 4 kB pages is 20,000
 * write(2) calls, about 60 ms of system time here; gathered, they are 640 calls of
 * 64 KiB. The gathered bytes reach the file in the order they were written, before
 * anything can look at the file: a read, a size, a truncation, a sync, a close, or
 * gathering being turned off. SQLite updates the WAL index (what other connections
 * read) only after syncing the WAL when synchronous=FULL, so gathering is only
 * turned on for a transaction that runs with FULL (sess_snapshot_save); a failed
 * write then fails the sync, hence the commit.
 */
#include <pthread.h>
#include <string.h>

#include "sess_int.h"

/* The most bytes gathered before they are written: SQLite's unix VFS takes at most
   128 KiB - 1 bytes in one write call. */
#define GATHER_BYTES ((size_t)64 << 10)

typedef struct shim_file {
    sqlite3_file base;  /* its pMethods is &shim_methods */
    sqlite3_file *real; /* the default VFS's file, in the same allocation, after this */
    int is_wal;
    unsigned char *buf; /* NULL, or GATHER_BYTES from sqlite3_malloc while gathering */
    size_t used;
    sqlite3_int64 start; /* the file offset of buf[0] */
} shim_file;

#define REAL(file) (((shim_file *)(file))->real)

/* Writes what was gathered. */
static int flush(shim_file *f)
{
    if (!f->used) return SQLITE_OK;
    int rc = f->real->pMethods->xWrite(f->real, f->buf, (int)f->used, f->start);
    f->used = 0;
    return rc;
}

static int shim_close(sqlite3_file *file)
{
    shim_file *f = (shim_file *)file;
    int rc = flush(f);
    sqlite3_free(f->buf);
    f->buf = NULL;
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
    if (!f->buf) return f->real->pMethods->xWrite(f->real, p, n, off);
    if (f->used && (off != f->start + (sqlite3_int64)f->used || f->used + (size_t)n > GATHER_BYTES)) {
        int rc = flush(f);
        if (rc != SQLITE_OK) return rc;
    }
    if ((size_t)n > GATHER_BYTES) return f->real->pMethods->xWrite(f->real, p, n, off);
    if (!f->used) f->start = off;
    memcpy(f->buf + f->used, p, (size_t)n);
    f->used += (size_t)n;
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

/* The rest only pass through. */
static int shim_lock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xLock(REAL(file), lock); }
static int shim_unlock(sqlite3_file *file, int lock) { return REAL(file)->pMethods->xUnlock(REAL(file), lock); }
static int shim_check_reserved_lock(sqlite3_file *file, int *out)
{
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out);
}
static int shim_file_control(sqlite3_file *file, int op, void *arg)
{
    return REAL(file)->pMethods->xFileControl(REAL(file), op, arg);
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
    int rc = base->xOpen(base, name, f->real, flags, out_flags);
    /* SQLite calls xClose when pMethods is set, even after a failed open */
    file->pMethods = f->real->pMethods ? &shim_methods : NULL;
    return rc;
}

static int vfs_registered;

static void register_vfs(void)
{
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
        if (!f->buf) f->buf = sqlite3_malloc((int)GATHER_BYTES); /* NULL: writes go straight through */
        return;
    }
    /* After a commit nothing is left (its sync wrote it all); after a rollback what is
       left are frames no one will read, so a failure here loses nothing. */
    flush(f);
    sqlite3_free(f->buf);
    f->buf = NULL;
}
