/*
 * onednn_isa.c — where PyTorch 1.13's CPU path depends on the CPU's vector ISA
 * through oneDNN, so that nnscope takes the path PyTorch takes on the same machine.
 *
 * oneDNN picks its JIT code by the CPU, capped by ONEDNN_MAX_CPU_ISA (or its
 * older name DNNL_MAX_CPU_ISA). ATen hands bfloat16 products, gelu and
 * convolutions to oneDNN only when the CPU has AVX-512 BW, VL and DQ
 * (mkldnn_bf16_device_check); elsewhere they run in ATen's own loops, which
 * round in other places. nnscope reads the cap as well, so that the tests
 * (tests/run.sh caps it at AVX2, tests/fixtures/pin_cpu.py says why) see one
 * path on every x86-64 CPU.
 */
#include <stdlib.h>
#include <strings.h>

#include "nn_int.h"

bool nn_onednn_allows_avx512(void)
{
    const char *isa = getenv("ONEDNN_MAX_CPU_ISA");
    if (!isa) isa = getenv("DNNL_MAX_CPU_ISA");
    return !isa || !*isa || strncasecmp(isa, "AVX512", 6) == 0 || strcasecmp(isa, "ALL") == 0;
}

bool nn_onednn_bf16(void)
{
    static int known = -1; /* read once, as oneDNN reads its cap once */
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                __builtin_cpu_supports("avx512dq") && nn_onednn_allows_avx512();
    }
    return known;
}
