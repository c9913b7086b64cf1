/*
 * alloc.c — the one allocation hook every core allocation goes through
 * (Lua's lua_Alloc contract), so tests can make the Nth allocation fail.
 */
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

static void *default_alloc(void *ud, void *ptr, size_t nsize)
{
    (void)ud;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

static nn_alloc_fn alloc_fn = default_alloc;
static void *alloc_ud = NULL;

void nn_set_allocator(nn_alloc_fn fn, void *ud)
{
    /* cached storage blocks and numbers belong to the old allocator: give them
       back to it; a custom allocator gets every number allocation (fault injection) */
    nn_storage_cache_flush();
    nn_number_cache_flush(fn == NULL || fn == default_alloc);
    alloc_fn = fn ? fn : default_alloc;
    alloc_ud = fn ? ud : NULL;
}

void nn_get_allocator(nn_alloc_fn *fn, void **ud)
{
    *fn = alloc_fn;
    *ud = alloc_ud;
}

void *nn_malloc(size_t n)
{
    void *p = alloc_fn(alloc_ud, NULL, n ? n : 1);
    if (!p) nn_error_set(NN_ERR_MEMORY, "out of memory: could not allocate %zu bytes", n);
    return p;
}

void *nn_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) {
        nn_error_set(NN_ERR_MEMORY, "out of memory: allocation size overflows");
        return NULL;
    }
    void *p = nn_malloc(count * size);
    if (p) memset(p, 0, count * size > 0 ? count * size : 1);
    return p;
}

void *nn_realloc(void *p, size_t n)
{
    void *q = alloc_fn(alloc_ud, p, n ? n : 1);
    if (!q) nn_error_set(NN_ERR_MEMORY, "out of memory: could not allocate %zu bytes", n);
    return q;
}

void nn_free(void *p)
{
    if (p) alloc_fn(alloc_ud, p, 0);
}

char *nn_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = nn_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}
