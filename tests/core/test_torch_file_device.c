/*
 * test_torch_file_device.c — torch.save, torch.load, safetensors and session
 * snapshot bytes of tensors on a device, on the loopback test device that
 * stands in for CUDA (registered poisoned: under AddressSanitizer a host read of
 * its memory outside the backend's transfers and kernels crashes, so these
 * tests also prove that saving goes through the host-access contract).
 * The PyTorch-made checkpoints fixtures/torch_file/cuda0.pt and cuda1.pt (tagged
 * "cuda:0" and "cuda:1") come from tests/fixtures/gen_torch_file_cuda.py; what
 * PyTorch's CPU build prints loading them is tests/scripts/torch_load_map_location.py.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIX "fixtures/torch_file/"

static const nn_device CUDA0 = {NN_CUDA, 0};

/* A new tensor on the device with these values (made on the CPU, then moved). */
static nn_tensor *on_device(nn_dtype dtype, int ndim, const int64_t *sizes, const double *values)
{
    nn_tensor *cpu = tu_tensor(dtype, ndim, sizes, values);
    nn_tensor *d = tu_ok(nn_to_device(cpu, CUDA0));
    NN_RELEASE(cpu);
    assert_int_equal(nn_device_of(d).type, NN_CUDA);
    return d;
}

static nn_tensor *get(nn_object *d, const char *key) { return NN_TENSOR(tu_ok(nn_dict_get_str(d, key))); }

static void assert_on(const nn_tensor *t, nn_device_type type) { assert_int_equal(nn_device_of(t).type, type); }

/* A restore function that records each storage's location, then places it as the default does. */
typedef struct seen {
    char locations[8][16];
    int n;
} seen;

static nn_tensor *recording_restore(void *ud, nn_tensor *cpu, const char *location)
{
    seen *s = ud;
    if (s->n < 8) snprintf(s->locations[s->n++], sizeof s->locations[0], "%s", location);
    return nn_restore_location(cpu, location);
}

static nn_tensor *failing_restore(void *ud, nn_tensor *cpu, const char *location)
{
    nn_error_set(NN_ERR_VALUE, "no room for %s", location);
    return NULL;
}

static nn_tensor *wrong_size_restore(void *ud, nn_tensor *cpu, const char *location)
{
    int64_t one = 1;
    return nn_empty_on(NN_DEVICE_CPU, 1, &one, cpu->dtype);
}

/* torch.save of device tensors writes their storages (copied to the host by the
   backend) tagged "cuda:0"; torch.load puts them back on the device, views still
   sharing their storage, or on the CPU as map_location says. */
static void test_save_and_load_device_tensors(void **state)
{
    (void)state;
    char dir[] = "/tmp/nnscope-devsave-XXXXXX", path[128];
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    snprintf(path, sizeof path, "%s/dev.pt", dir);
    int64_t s23[] = {2, 3}, s32[] = {3, 2}, s3[] = {3};
    double w[] = {1.5, -2, 3.25, 4, 5, -6}, wt[] = {1.5, 4, -2, 5, 3.25, -6}, idx[] = {7, -8, 9};
    nn_tensor *mat = on_device(NN_FLOAT32, 2, s23, w), *ints = on_device(NN_INT64, 1, s3, idx);
    nn_tensor *tr = tu_ok(nn_transpose(mat, 0, 1));
    nn_object *d = tu_ok(nn_dict_new());
    tu_check(nn_dict_set_str(d, "mat", &mat->ob));
    tu_check(nn_dict_set_str(d, "tr", &tr->ob));
    tu_check(nn_dict_set_str(d, "ints", &ints->ob));
    tu_check(nn_torch_save_file(d, path));

    /* no map_location: back on the device */
    nn_object *back = tu_ok(nn_torch_load_file(path, NULL));
    nn_tensor *bm = get(back, "mat"), *bt = get(back, "tr"), *bi = get(back, "ints");
    assert_on(bm, NN_CUDA);
    assert_on(bt, NN_CUDA);
    assert_on(bi, NN_CUDA);
    assert_ptr_equal(bm->storage, bt->storage); /* the view stays a view */
    tu_assert_values(bm, 2, s23, w, 0);
    tu_assert_values(bt, 2, s32, wt, 0);
    tu_assert_values(bi, 1, s3, idx, 0);
    assert_int_equal(bi->dtype, NN_INT64);
    NN_RELEASE(back);

    /* the location each storage was saved with */
    seen s = {.n = 0};
    back = tu_ok(nn_torch_load_file_with(path, recording_restore, &s));
    assert_int_equal(s.n, 2); /* mat and tr share one storage */
    assert_string_equal(s.locations[0], "cuda:0");
    assert_string_equal(s.locations[1], "cuda:0");
    assert_on(get(back, "mat"), NN_CUDA);
    NN_RELEASE(back);

    /* map_location "cpu" and {"cuda:0": "cpu"}: on the host, the same values */
    nn_object *cpu = tu_ok(nn_str_new("cpu")), *m = tu_ok(nn_dict_new());
    tu_check(nn_dict_set_str(m, "cuda:0", cpu));
    nn_object *maps[] = {cpu, m};
    for (int k = 0; k < 2; k++) {
        back = tu_ok(nn_torch_load_file(path, maps[k]));
        bm = get(back, "mat");
        bt = get(back, "tr");
        assert_on(bm, NN_CPU);
        assert_on(bt, NN_CPU);
        assert_ptr_equal(bm->storage, bt->storage);
        tu_assert_values(bt, 2, s32, wt, 0);
        tu_assert_values(get(back, "ints"), 1, s3, idx, 0);
        NN_RELEASE(back);
    }

    /* a restore function's error is the load's; a storage of the wrong size is refused */
    assert_null(nn_torch_load_file_with(path, failing_restore, NULL));
    tu_assert_error(NN_ERR_VALUE, "no room for cuda:0");
    assert_null(nn_torch_load_file_with(path, wrong_size_restore, NULL));
    tu_assert_error(NN_ERR_RUNTIME, "another size or dtype");

    /* the same tensors saved from the CPU load with the same values (and the CPU's
       file loads onto the device with map_location "cuda:0") */
    nn_tensor *hm = tu_ok(nn_to_device(mat, NN_DEVICE_CPU));
    nn_object *hd = tu_ok(nn_dict_new());
    tu_check(nn_dict_set_str(hd, "mat", &hm->ob));
    tu_check(nn_torch_save_file(hd, path));
    nn_object *to_dev = tu_ok(nn_str_new("cuda:0"));
    back = tu_ok(nn_torch_load_file(path, to_dev));
    assert_on(get(back, "mat"), NN_CUDA);
    tu_assert_values(get(back, "mat"), 2, s23, w, 0);
    NN_RELEASE(back);

    NN_RELEASE(to_dev);
    NN_RELEASE(hd);
    NN_RELEASE(hm);
    NN_RELEASE(m);
    NN_RELEASE(cpu);
    NN_RELEASE(d);
    NN_RELEASE(tr);
    NN_RELEASE(ints);
    NN_RELEASE(mat);
    unlink(path);
    rmdir(dir);
}

/* The checkpoint PyTorch 1.13 wrote from CUDA tensors loads onto the device,
   in every map_location form; cuda:1 is not a device here; without a CUDA
   backend PyTorch's CPU-build error. */
static void test_load_pytorch_cuda_checkpoint(void **state)
{
    (void)state;
    int64_t s23[] = {2, 3}, s32[] = {3, 2}, s2[] = {2};
    nn_object *cpu = tu_ok(nn_str_new("cpu"));
    nn_object *host = tu_ok(nn_torch_load_file(FIX "cuda0.pt", cpu)); /* the values */
    NN_RELEASE(cpu);
    nn_tensor *hw = get(host, "weight");
    double w[6], b[] = {0.5, -1.25}, wt[6];
    nn_to_doubles(hw, w);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) wt[i * 2 + j] = w[j * 3 + i];

    nn_object *cuda = tu_ok(nn_str_new("cuda")), *dev = tu_ok(nn_str_new("cuda:0")), *m = tu_ok(nn_dict_new());
    tu_check(nn_dict_set_str(m, "cuda:1", dev));
    nn_object *forms[] = {NULL, cuda, dev, m};
    for (int k = 0; k < 4; k++) {
        nn_object *d = tu_ok(nn_torch_load_file(FIX "cuda0.pt", forms[k]));
        nn_tensor *wd = get(d, "weight"), *t = get(d, "wt");
        assert_on(wd, NN_CUDA);
        assert_on(get(d, "bias"), NN_CUDA);
        assert_on(get(d, "steps"), NN_CUDA);
        assert_ptr_equal(wd->storage, t->storage);
        tu_assert_values(wd, 2, s23, w, 0);
        tu_assert_values(t, 2, s32, wt, 0);
        tu_assert_values(get(d, "bias"), 1, s2, b, 0);
        double steps;
        tu_check(nn_item(get(d, "steps"), &steps));
        assert_true(steps == 7);
        assert_string_equal(nn_str_cstr(nn_dict_get_str(d, "name")), "lin");
        NN_RELEASE(d);
    }

    /* a second GPU: PyTorch's device-count error, unless mapped to the first */
    assert_null(nn_torch_load_file(FIX "cuda1.pt", NULL));
    tu_assert_error(NN_ERR_RUNTIME, "Attempting to deserialize object on CUDA device 1 but "
                                    "torch.cuda.device_count() is 1. Please use torch.load with map_location");
    nn_object *d = tu_ok(nn_torch_load_file(FIX "cuda1.pt", m));
    assert_on(get(d, "weight"), NN_CUDA);
    tu_assert_values(get(d, "weight"), 2, s23, w, 0);
    NN_RELEASE(d);
    nn_object *bad = tu_ok(nn_str_new("cuda:x"));
    assert_null(nn_torch_load_file(FIX "cuda0.pt", bad));
    tu_assert_error(NN_ERR_RUNTIME, "Invalid device string: 'cuda:x'");
    NN_RELEASE(bad);

    /* no CUDA backend: the CPU build's error, and map_location="cpu" still works */
    nn_loopback_unregister();
    assert_null(nn_torch_load_file(FIX "cuda0.pt", NULL));
    tu_assert_error(NN_ERR_RUNTIME,
                    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you "
                    "are running on a CPU-only machine, please use torch.load with "
                    "map_location=torch.device('cpu') to map your storages to the CPU.");
    nn_loopback_register(true);

    NN_RELEASE(m);
    NN_RELEASE(dev);
    NN_RELEASE(cuda);
    NN_RELEASE(host);
}

/* safetensors bytes (files, and the pieces session snapshots write) of device
   tensors are those of the same tensors on the CPU; a non-contiguous view too. */
static void test_safetensors_of_device_tensors(void **state)
{
    (void)state;
    int64_t s23[] = {2, 3}, s4[] = {4};
    double w[] = {1, 2, 3, 4, 5, 6}, v[] = {-1, 0.5, 2, 8};
    nn_tensor *mat = on_device(NN_FLOAT32, 2, s23, w), *vec = on_device(NN_FLOAT64, 1, s4, v);
    nn_tensor *tr = tu_ok(nn_transpose(mat, 0, 1));
    nn_tensor *hmat = tu_ok(nn_to_device(mat, NN_DEVICE_CPU)), *hvec = tu_ok(nn_to_device(vec, NN_DEVICE_CPU));
    nn_tensor *htr = tu_ok(nn_transpose(hmat, 0, 1));
    nn_named_tensor dev[] = {{"mat", mat}, {"tr", tr}, {"vec", vec}}, cpu[] = {{"mat", hmat}, {"tr", htr}, {"vec", hvec}};
    void *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    tu_check(nn_safetensors_serialize(dev, 3, NULL, 0, &a, &la));
    tu_check(nn_safetensors_serialize(cpu, 3, NULL, 0, &b, &lb));
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);

    /* a file */
    char dir[] = "/tmp/nnscope-devst-XXXXXX", path[128];
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    snprintf(path, sizeof path, "%s/dev.safetensors", dir);
    tu_check(nn_safetensors_save_file(path, dev, 3, NULL, 0));
    char *file = tu_read_file(path);
    assert_memory_equal(file, b, lb);
    free(file);
    unlink(path);
    rmdir(dir);

    /* a state dict's pieces (what sessions/ writes for a snapshot) */
    nn_object *sd = tu_ok(nn_dict_new());
    tu_check(nn_dict_set_str(sd, "mat", &mat->ob));
    tu_check(nn_dict_set_str(sd, "tr", &tr->ob));
    tu_check(nn_dict_set_str(sd, "vec", &vec->ob));
    nn_safetensors_pieces pieces;
    tu_check(nn_state_dict_to_pieces(sd, NULL, &pieces));
    assert_int_equal(pieces.total, lb);
    size_t at = 0;
    for (size_t k = 0; k < pieces.n; k++) {
        assert_memory_equal(pieces.pieces[k].data, (char *)b + at, pieces.pieces[k].len);
        at += pieces.pieces[k].len;
    }
    assert_int_equal(at, lb);
    nn_safetensors_pieces_free(&pieces);
    /* and they load back (on the CPU, as safetensors' load_file gives them) */
    nn_object *back = tu_ok(nn_state_dict_from_bytes(a, la, NULL));
    assert_on(get(back, "tr"), NN_CPU);
    double wt[] = {1, 4, 2, 5, 3, 6};
    int64_t s32[] = {3, 2};
    tu_assert_values(get(back, "tr"), 2, s32, wt, 0);
    NN_RELEASE(back);

    NN_RELEASE(sd);
    nn_free(a);
    nn_free(b);
    NN_RELEASE(htr);
    NN_RELEASE(hvec);
    NN_RELEASE(hmat);
    NN_RELEASE(tr);
    NN_RELEASE(vec);
    NN_RELEASE(mat);
}

/* torch.load of a safetensors file honours map_location: every tensor is a
   storage saved on the CPU, so 'cuda:0' puts it on the device, a callable gets
   ('cpu' and) the flat storage, a failing or wrong-sized result is an error. */
static void test_load_safetensors_with_map_location(void **state)
{
    (void)state;
    int64_t s23[] = {2, 3}, s2[] = {2};
    double w[] = {1, 2, 3, 4, 5, 6}, v[] = {-1, 7};
    nn_tensor *mat = tu_tensor(NN_FLOAT32, 2, s23, w), *vec = tu_tensor(NN_INT64, 1, s2, v);
    nn_named_tensor named[] = {{"mat", mat}, {"vec", vec}};
    char dir[] = "/tmp/nnscope-stmap-XXXXXX", path[128];
    if (!mkdtemp(dir)) fail_msg("mkdtemp failed");
    snprintf(path, sizeof path, "%s/w.safetensors", dir);
    tu_check(nn_safetensors_save_file(path, named, 2, NULL, 0));
    nn_object *where = tu_ok(nn_str_new("cuda:0"));
    nn_object *on = tu_ok(nn_torch_load_file(path, where));
    assert_on(get(on, "mat"), NN_CUDA);
    assert_on(get(on, "vec"), NN_CUDA);
    tu_assert_values(get(on, "mat"), 2, s23, w, 0);
    tu_assert_values(get(on, "vec"), 1, s2, v, 0);
    seen s = {.n = 0};
    nn_object *rec = tu_ok(nn_torch_load_file_with(path, recording_restore, &s));
    assert_int_equal(s.n, 2);
    assert_string_equal(s.locations[0], "cpu");
    assert_on(get(rec, "mat"), NN_CPU);
    tu_assert_values(get(rec, "mat"), 2, s23, w, 0);
    /* the bytes' form (sessions) too */
    char bytes[4096];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t len = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    nn_object *fromb = tu_ok(nn_torch_load_bytes(bytes, len, where));
    assert_on(get(fromb, "vec"), NN_CUDA);
    assert_null(nn_torch_load_file_with(path, failing_restore, NULL));
    assert_int_equal(nn_error_current(), NN_ERR_VALUE);
    nn_error_clear();
    assert_null(nn_torch_load_file_with(path, wrong_size_restore, NULL));
    assert_int_equal(nn_error_current(), NN_ERR_RUNTIME);
    nn_error_clear();
    unlink(path);
    rmdir(dir);
    NN_RELEASE(fromb);
    NN_RELEASE(rec);
    NN_RELEASE(on);
    NN_RELEASE(where);
    NN_RELEASE(vec);
    NN_RELEASE(mat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_and_load_device_tensors),
        cmocka_unit_test(test_load_pytorch_cuda_checkpoint),
        cmocka_unit_test(test_safetensors_of_device_tensors),
        cmocka_unit_test(test_load_safetensors_with_map_location),
    };
    return cmocka_run_group_tests_name("torch_file_device", tests, tu_loopback_setup, tu_loopback_teardown);
}
