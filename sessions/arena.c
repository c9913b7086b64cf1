/*
 * arena.c — where the page cache of a snapshot's row lives. Inserting a 40 MB
 * snapshot puts 2,500 new 16 KiB pages in SQLite's page cache; taken from malloc,
 * that is 10,000 page faults of 4 KiB (30 ms on an idle machine here, up to 130 ms
 * under load: the largest part of a snapshot), every time, since the memory is given
 * back afterwards. Between sess_arena_begin and sess_arena_end, SQLite's page-cache
 * entries (a database page and SQLite's few hundred bytes of header for it) allocated
 * by the calling thread come instead from one mapping asked to be backed by
 * transparent huge pages (MADV_HUGEPAGE: a few dozen faults of 2 MiB; a 40 MB
 * snapshot took 0.07 to 0.10 s instead of 0.12 to 0.15 s in alternate runs). Blocks
 * are freed one by one as SQLite frees them, from any thread; once the arena is
 * ended, each 2 MiB stretch goes back to the system as soon as none of its blocks is
 * live, and the mapping when none is.
 *
 * It works through SQLite's allocator hook (SQLITE_CONFIG_MALLOC: every other
 * allocation passes through to SQLite's own allocator), which can only be set
 * before SQLite initialises: sess_arena_install, called before this layer's first
 * SQLite call. When something else initialised SQLite first, when the system has
 * no huge pages (the mapping then has 4 KiB pages, as malloc's) or when no mapping
 * can be made, nothing changes but the speed.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "sess_int.h"

/* The huge page size the chunks follow. */
#define ARENA_CHUNK ((size_t)2 << 20)
/* A page-cache entry is the page and at most this much of SQLite's header: only
   allocations in (page size, page size + ARENA_ENTRY_EXTRA] come from an arena, not
   SQLite's other buffers (its hash of the cache, a power of two, would otherwise
   stay in the arena for the connection's life). */
#define ARENA_ENTRY_EXTRA 1024
/* Each block starts with its size, in a header that keeps 16-byte alignment. */
#define ARENA_HEADER ((size_t)16)

/* An arena lives at the end of its own mapping: [alignment slack][blocks][this][counts]. */
typedef struct arena {
    unsigned char *map; /* the mapping: map_size bytes */
    size_t map_size;
    unsigned char *base; /* the first 2 MiB boundary in it: blocks from here */
    size_t size, used;   /* bytes for blocks, bytes handed out */
    size_t live;         /* blocks not yet freed */
    int page_size;       /* the database's: which allocations are page-cache entries */
    uint32_t *chunk_live; /* per 2 MiB chunk of the blocks: live blocks touching it */
    int ended;
    struct arena *next;
} arena;

static sqlite3_mem_methods sqlite_methods; /* SQLite's own allocator */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* guards the arenas and their counts */
static arena *arenas;                                    /* every arena not yet unmapped */
static _Thread_local arena *filling;                     /* this thread's open arena */
static int installed;

size_t sess_arena_blocks; /* blocks ever handed out (tests) */

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

/* The arena holding p, or NULL; with lock held. */
static arena *owner(const void *p)
{
    for (arena *a = arenas; a; a = a->next)
        if ((const unsigned char *)p >= a->base && (const unsigned char *)p < a->base + a->size) return a;
    return NULL;
}

static size_t block_size(const void *p) { return *(const size_t *)((const unsigned char *)p - ARENA_HEADER); }

/* Unmaps a (ended, no live block) and drops it from the list; with lock held. */
static void unmap(arena *a)
{
    for (arena **at = &arenas; *at; at = &(*at)->next)
        if (*at == a) {
            __atomic_store_n(at, a->next, __ATOMIC_RELEASE);
            break;
        }
    munmap(a->map, a->map_size); /* a itself with it */
}

/* Gives back chunk i of an ended arena once no live block touches it. */
static void release_chunk(arena *a, size_t i)
{
    if (a->chunk_live[i] == 0 && i * ARENA_CHUNK < a->used)
        madvise(a->base + i * ARENA_CHUNK, ARENA_CHUNK, MADV_DONTNEED);
}

/* Frees block p of arena a; with lock held. */
static void free_block(arena *a, void *p)
{
    size_t start = (size_t)((unsigned char *)p - ARENA_HEADER - a->base);
    size_t end = start + ARENA_HEADER + block_size(p);
    for (size_t i = start / ARENA_CHUNK; i <= (end - 1) / ARENA_CHUNK; i++) {
        a->chunk_live[i]--;
        if (a->ended) release_chunk(a, i);
    }
    if (--a->live == 0 && a->ended) unmap(a);
}

static void *arena_malloc(int n)
{
    arena *a = filling;
    if (a && n > a->page_size && n <= a->page_size + ARENA_ENTRY_EXTRA) {
        size_t need = ARENA_HEADER + round16((size_t)n);
        pthread_mutex_lock(&lock);
        if (a->size - a->used >= need) {
            unsigned char *b = a->base + a->used;
            for (size_t i = a->used / ARENA_CHUNK; i <= (a->used + need - 1) / ARENA_CHUNK; i++) a->chunk_live[i]++;
            a->used += need;
            a->live++;
            sess_arena_blocks++;
            pthread_mutex_unlock(&lock);
            *(size_t *)b = need - ARENA_HEADER;
            return b + ARENA_HEADER;
        }
        pthread_mutex_unlock(&lock);
    }
    return sqlite_methods.xMalloc(n);
}

/* Whether p may be an arena's block: no lock is needed to see that there is no
   arena at all (a block being freed keeps its arena in the list until it is). */
static int may_be_arena(const void *p) { return p && __atomic_load_n(&arenas, __ATOMIC_ACQUIRE); }

static void arena_free(void *p)
{
    if (may_be_arena(p)) {
        pthread_mutex_lock(&lock);
        arena *a = owner(p);
        if (a) free_block(a, p);
        pthread_mutex_unlock(&lock);
        if (a) return;
    }
    sqlite_methods.xFree(p);
}

static int arena_size(void *p)
{
    if (may_be_arena(p)) {
        pthread_mutex_lock(&lock);
        arena *a = owner(p);
        pthread_mutex_unlock(&lock);
        if (a) return (int)block_size(p);
    }
    return sqlite_methods.xSize(p);
}

static void *arena_realloc(void *p, int n)
{
    if (may_be_arena(p)) {
        pthread_mutex_lock(&lock);
        arena *a = owner(p);
        pthread_mutex_unlock(&lock);
        if (a) { /* the block moves to SQLite's allocator */
            void *q = sqlite_methods.xMalloc(n);
            if (!q) return NULL;
            size_t old = block_size(p);
            memcpy(q, p, old < (size_t)n ? old : (size_t)n);
            arena_free(p);
            return q;
        }
    }
    return sqlite_methods.xRealloc(p, n);
}

static int arena_roundup(int n) { return sqlite_methods.xRoundup(n); }
static int arena_init(void *unused) { return sqlite_methods.xInit(sqlite_methods.pAppData); }
static void arena_shutdown(void *unused) { sqlite_methods.xShutdown(sqlite_methods.pAppData); }

static void install(void)
{
    static const sqlite3_mem_methods methods = {arena_malloc, arena_free, arena_realloc, arena_size,
                                                arena_roundup, arena_init, arena_shutdown, NULL};
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &sqlite_methods) != SQLITE_OK) return;
    installed = sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) == SQLITE_OK; /* MISUSE once initialised */
}

void sess_arena_install(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
}

void sess_arena_begin(size_t bytes, int page_size)
{
    if (!installed || filling) return;
    size_t chunks = (bytes + ARENA_CHUNK - 1) / ARENA_CHUNK;
    size_t size = chunks * ARENA_CHUNK;
    size_t map_size = ARENA_CHUNK + size + sizeof(arena) + chunks * sizeof(uint32_t);
    unsigned char *map =
        mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) return;
    unsigned char *base = map + (ARENA_CHUNK - (uintptr_t)map % ARENA_CHUNK) % ARENA_CHUNK;
    arena *a = (arena *)(base + size); /* zero, as new anonymous memory is */
    a->map = map;
    a->map_size = map_size;
    a->base = base;
    a->size = size;
    a->chunk_live = (uint32_t *)(a + 1);
    a->page_size = page_size;
    madvise(base, size, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
    pthread_mutex_lock(&lock);
    a->next = arenas;
    __atomic_store_n(&arenas, a, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
    filling = a;
}

void sess_arena_end(void)
{
    arena *a = filling;
    if (!a) return;
    filling = NULL;
    pthread_mutex_lock(&lock);
    a->ended = 1;
    if (a->live == 0) {
        unmap(a);
    } else {
        for (size_t i = 0; i < a->size / ARENA_CHUNK; i++) release_chunk(a, i);
    }
    pthread_mutex_unlock(&lock);
}

size_t sess_arena_count(void)
{
    size_t n = 0;
    pthread_mutex_lock(&lock);
    for (arena *a = arenas; a; a = a->next) n++;
    pthread_mutex_unlock(&lock);
    return n;
}
