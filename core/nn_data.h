/*
 * nn_data.h — the address of a tensor's first element, private to core (and to
 * its tests and benchmarks, which check kernels' bytes). It is an address in the
 * tensor's device's memory: only kernels (core/cpu/, core/loopback/, core/cuda/),
 * core/backend.c and op code that has checked that the tensor is on the CPU
 * dereference it. Code outside core (repl/, inspector/, sessions/) reaches a
 * tensor's elements only through nn.h's host-access contract (nn_host_read,
 * nn_host_write, nn_host_read_storage, nn_get_double, nn_item, ...).
 */
#ifndef NN_DATA_H
#define NN_DATA_H

#include "nn.h"

static inline void *nn_data_ptr(const nn_tensor *t)
{
    return (char *)t->storage->data + t->offset * (int64_t)nn_dtype_size(t->dtype);
}

#endif
