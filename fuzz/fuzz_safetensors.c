/*
 * fuzz_safetensors.c — libFuzzer target: the safetensors reader. The input is
 * a file's bytes; a file that parses has every tensor printed and its metadata
 * looked up, then is written back, which must read again.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_setup();
    fuzz_start(5);
    nn_safetensors *st = nn_safetensors_parse(data, size);
    if (st) {
        for (size_t i = 0; i < st->n; i++) {
            if (nn_safetensors_get(st, st->tensors[i].name) == NULL) abort();
            char *text = nn_tensor_repr(st->tensors[i].tensor);
            nn_free(text);
            nn_error_clear();
        }
        nn_safetensors_metadata_get(st, "format");
        void *bytes = NULL;
        size_t len = 0;
        if (nn_safetensors_serialize(st->tensors, st->n, (const char *const *)st->metadata, st->n_metadata, &bytes,
                                     &len) == 0) {
            nn_safetensors *again = nn_safetensors_parse(bytes, len);
            if (!again && nn_error_current() != NN_ERR_MEMORY) abort(); /* what nnscope writes, it reads */
            nn_safetensors_free(again);
            nn_free(bytes);
        }
        nn_safetensors_free(st);
    }
    fuzz_stop();
    return 0;
}
