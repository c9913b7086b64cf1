/*
 * nn_data.h — the address of a tensor's first element, private to the
 * backends (and to core's tests and benchmarks, which check kernels' bytes).
 * It is an address in the tensor's device's memory: only the kernels
 * (core/cpu/, core/loopback/, core/cuda/, which include it through
 * core/cpu/nn_cpu.h) and core/backend.c's transfers and host contract include
 * it and dereference it; the op files of core/ hand kernels tensors, never
 * addresses. Code outside the backends reaches a tensor's elements only
 * through nn.h's host-access contract (nn_host_read, nn_host_write,
 * nn_host_read_storage, nn_host_element, nn_get_double, nn_item, ...).
 */
#ifndef NN_DATA_H
#define NN_DATA_H

#include "nn.h"

static inline void *nn_data_ptr(const nn_tensor *t)
{
    return (char *)t->storage->data + t->offset * (int64_t)nn_dtype_size(t->dtype);
}

#endif
