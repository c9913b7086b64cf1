/*
 * fuzz_torch_load.c — libFuzzer target: torch.load's readers. An input that
 * starts as a zip archive ("PK") is loaded as a checkpoint file (the zip reader,
 * the records, the restricted unpickler); any other input is unpickled alone,
 * its storages zero-filled. What loads is printed and saved again.
 */
#include "fuzz.h"

/* A storage record: zeros, as long as the pickle asks (within the cap). */
static nn_tensor *tl_storage(void *ud, const char *key, nn_dtype dtype, int64_t numel, const char *location)
{
    (void)ud;
    (void)key;
    (void)location;
    if (numel < 0 || numel > (1 << 20)) {
        nn_error_set(NN_ERR_RUNTIME, "storage %s too large for the fuzzer", key);
        return NULL;
    }
    int64_t shape[1] = {numel};
    return nn_zeros(1, shape, dtype);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_setup();
    fuzz_start(5);
    nn_object *obj;
    if (size >= 2 && data[0] == 'P' && data[1] == 'K')
        obj = nn_torch_load_bytes(data, size, NULL);
    else
        obj = nn_pickle_load(data, size, tl_storage, NULL);
    if (obj) {
        char *text = nn_repr(obj);
        nn_free(text);
        nn_error_clear();
        nn_pickle_out out;
        if (nn_pickle_dump(obj, &out) == 0) nn_pickle_out_free(&out);
        NN_RELEASE(obj);
    }
    fuzz_stop();
    return 0;
}
