/*
 * nn_cuda.h — the CUDA backend's private header (core/cuda/, built only by
 * `make CUDA=1`): its registration and, as they land, its kernels
 * nn_cuda_<name>, one per line of core/kernels.def it implements.
 */
#ifndef NN_CUDA_H
#define NN_CUDA_H

#include "backend.h"

/* Registers the CUDA backend when the runtime sees a GPU; the device count (0: none). */
int nn_cuda_register(void);

#endif
