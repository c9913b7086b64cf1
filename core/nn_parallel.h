/*
 * nn_parallel.h — core's private parallel-for (core/parallel.c): a small pool
 * of worker threads that split one loop into fixed chunks.
 *
 * Contract: a loop of n items is cut into chunks of `grain` items at fixed
 * offsets (0, grain, 2*grain, ...) whatever the thread count; every chunk runs
 * exactly once, on the calling thread or a worker, in any order. A kernel that
 * reduces writes one partial result per chunk and combines them in chunk order
 * afterwards, so its result does not depend on the thread count. A loop of at
 * most `grain` items, a pool of one thread, or a call from inside a chunk runs
 * inline on the caller and starts no thread.
 */
#ifndef NN_PARALLEL_H
#define NN_PARALLEL_H

#include "nn_int.h"

/* PyTorch's at::internal::GRAIN_SIZE: below this many elements a loop stays on one thread. */
#define NN_GRAIN 32768

/* One chunk of a parallel loop: items [begin, end) of it; chunk is begin / grain. */
typedef void (*nn_range_fn)(void *ctx, int64_t begin, int64_t end);

/* Runs fn over [0, n) in chunks of grain items (see the contract above); returns
   when every chunk is done. fn must be safe to run concurrently on disjoint
   ranges. ctx is borrowed. */
void nn_parallel_for(int64_t n, int64_t grain, nn_range_fn fn, void *ctx);

/* The most threads (and so the most per-range partials a reduction keeps). */
#define NN_MAX_THREADS 256

/* at::parallel_for's cut of n items over the thread budget: min(threads,
   ceil(n / NN_GRAIN)) ranges of ceil(n / ranges) items. Returns the range
   length, n itself (at least 1) when the loop stays whole (n < NN_GRAIN or
   one thread).
   Kernels that must give ATen's bits pass it to nn_parallel_for as the grain
   and keep one partial per range. */
int64_t nn_aten_range_length(int64_t n);

/* The number of chunks nn_parallel_for cuts n items into. */
static inline int64_t nn_chunk_count(int64_t n, int64_t grain) { return n <= 0 ? 0 : (n + grain - 1) / grain; }

/* Whether this thread is running a chunk of nn_parallel_for (a nested loop then stays inline). */
bool nn_parallel_in_chunk(void);

#endif
