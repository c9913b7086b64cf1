/*
 * torch_file.c — torch.save / torch.load in PyTorch's own format: the zip
 * archive (libzip) with `archive/data.pkl`, `archive/data/<key>` per storage
 * (raw little-endian elements, stored uncompressed) and `archive/version`, as
 * PyTorch 1.13 writes it; the pickle itself is torch_pickle.c. Reading checks
 * every size against the file before allocating. Not here: safetensors
 * (safetensors.c, state_file.c), which load() still accepts.
 */
#include <errno.h>
#include <stdlib.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>

#include "backend.h"
#include "nn_int.h"

/* deflate cannot expand data more than about 1032 times */
#define MAX_DEFLATE_RATIO 1032

static const char ARCHIVE[] = "archive";

/* --------------------------------------------------------------- writing */

static int zip_fail(const char *what, const char *path, zip_error_t *ze)
{
    return nn_error_set(NN_ERR_RUNTIME, "torch.save: %s '%s': %s", what, path, zip_error_strerror(ze));
}

static int add_record(zip_t *za, const char *name, const void *data, size_t len, const char *path)
{
    static const char empty[1];
    zip_source_t *src = zip_source_buffer(za, len ? data : empty, len, 0);
    zip_int64_t idx = src ? zip_file_add(za, name, src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE) : -1;
    if (idx < 0) {
        zip_source_free(src);
        return zip_fail("cannot add a record to", path, zip_get_error(za));
    }
    if (zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_STORE, 0) < 0)
        return zip_fail("cannot store a record in", path, zip_get_error(za));
    return 0;
}

/* PyTorch's check, in its words, before anything is written */
static int check_parent(const char *path)
{
    char *copy = nn_strdup(path);
    if (!copy) return -1;
    const char *dir = dirname(copy);
    struct stat sb;
    int rc = 0;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        rc = nn_error_set(NN_ERR_RUNTIME, "Parent directory %s does not exist.", dir);
    nn_free(copy);
    return rc;
}

/* The records of po into za (its data.pkl, one per storage, version); the host
   copies of device storages go to copies[] (libzip reads the bytes at zip_close).
   where names the target in messages. 0 or -1. */
static int add_records(zip_t *za, nn_pickle_out *po, void **copies, const char *where)
{
    char name[64];
    snprintf(name, sizeof name, "%s/data.pkl", ARCHIVE);
    int rc = add_record(za, name, po->data, po->len, where);
    for (size_t i = 0; rc == 0 && i < po->n_storages; i++) {
        nn_tensor *t = po->storages[i].tensor;
        snprintf(name, sizeof name, "%s/data/%zu", ARCHIVE, i);
        const void *bytes = nn_host_read_storage(t, &copies[i]);
        rc = bytes ? add_record(za, name, bytes, t->storage->nbytes, where) : -1;
    }
    snprintf(name, sizeof name, "%s/version", ARCHIVE);
    if (rc == 0) rc = add_record(za, name, "3\n", 2, where);
    return rc;
}

/* Writes obj's archive into za (opened for writing) and closes it: 0, or -1 with
   za discarded. */
static int write_archive(zip_t *za, nn_pickle_out *po, const char *where)
{
    void **copies = nn_calloc(po->n_storages ? po->n_storages : 1, sizeof *copies);
    int rc = copies ? add_records(za, po, copies, where) : -1;
    if (rc == 0 && zip_close(za) < 0) {
        rc = zip_fail("cannot write", where, zip_get_error(za));
        zip_discard(za);
    } else if (rc < 0) {
        zip_discard(za);
    }
    for (size_t i = 0; copies && i < po->n_storages; i++) nn_free(copies[i]);
    nn_free(copies);
    return rc;
}

int nn_torch_save_file(nn_object *obj, const char *path)
{
    nn_pickle_out po;
    if (check_parent(path) < 0 || nn_pickle_dump(obj, &po) < 0) return -1;
    /* libzip writes the archive to a temporary file beside path at zip_close and
       renames it over path; zip_discard (or a failed close) leaves path as it was */
    int zerr = 0;
    zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &zerr);
    int rc = 0;
    if (!za) {
        zip_error_t ze;
        zip_error_init_with_code(&ze, zerr);
        rc = zip_fail("cannot create", path, &ze);
        zip_error_fini(&ze);
    } else {
        rc = write_archive(za, &po, path);
    }
    nn_pickle_out_free(&po);
    return rc;
}

int nn_torch_save_bytes(nn_object *obj, void **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    nn_pickle_out po;
    if (nn_pickle_dump(obj, &po) < 0) return -1;
    static const char where[] = "<buffer>";
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(NULL, 0, 0, &ze);
    zip_t *za = NULL;
    int rc = 0;
    if (src) {
        zip_source_keep(src); /* it outlives zip_close, which leaves the archive in it */
        za = zip_open_from_source(src, ZIP_TRUNCATE, &ze);
    }
    if (!za) {
        rc = zip_fail("cannot create", where, &ze);
    } else {
        rc = write_archive(za, &po, where);
    }
    zip_error_fini(&ze);
    nn_pickle_out_free(&po);
    zip_stat_t st;
    if (rc == 0 && (zip_source_open(src) < 0 || zip_source_stat(src, &st) < 0)) {
        rc = zip_fail("cannot read back", where, zip_source_error(src));
    } else if (rc == 0) {
        size_t n = (st.valid & ZIP_STAT_SIZE) ? (size_t)st.size : 0;
        char *buf = nn_malloc(n ? n : 1);
        if (!buf) rc = -1;
        else if (n && zip_source_read(src, buf, n) != (zip_int64_t)n) {
            rc = zip_fail("cannot read back", where, zip_source_error(src));
            nn_free(buf);
        } else {
            *data = buf;
            *len = n;
        }
        zip_source_close(src);
    }
    if (src) zip_source_free(src);
    return rc;
}

/* --------------------------------------------------------------- reading */

typedef struct archive {
    zip_t *za;
    uint64_t file_size;
    char prefix[256]; /* "archive" or whatever name the writer chose */
    nn_restore_fn restore; /* where each storage goes */
    void *restore_ud;
} archive;

/* The entry's index and its uncompressed size, checked against what the file can
   hold; -1 with an error when missing or impossible. */
static int entry_find(archive *ar, const char *name, zip_uint64_t *index, uint64_t *size)
{
    zip_int64_t i = zip_name_locate(ar->za, name, 0);
    zip_stat_t st;
    if (i < 0) /* PyTorch's words, with the name inside the archive's folder */
        return nn_error_set(NN_ERR_RUNTIME, "PytorchStreamReader failed locating file %s: file not found",
                            strchr(name, '/') ? strchr(name, '/') + 1 : name);
    if (zip_stat_index(ar->za, (zip_uint64_t)i, 0, &st) < 0 || !(st.valid & ZIP_STAT_SIZE) ||
        !(st.valid & ZIP_STAT_COMP_SIZE) || !(st.valid & ZIP_STAT_COMP_METHOD))
        return nn_error_set(NN_ERR_RUNTIME, "torch.load: cannot read record '%s' of the archive", name);
    uint64_t limit = st.comp_method == ZIP_CM_STORE ? st.comp_size
                     : st.comp_method == ZIP_CM_DEFLATE ? st.comp_size * MAX_DEFLATE_RATIO + 64
                                                         : 0;
    if (st.comp_method != ZIP_CM_STORE && st.comp_method != ZIP_CM_DEFLATE)
        return nn_error_set(NN_ERR_RUNTIME, "torch.load: record '%s' uses an unsupported compression", name);
    if (st.comp_size > ar->file_size || st.size > limit)
        return nn_error_set(NN_ERR_RUNTIME, "torch.load: record '%s' claims %llu bytes, more than the file holds",
                            name, (unsigned long long)st.size);
    *index = (zip_uint64_t)i;
    *size = st.size;
    return 0;
}

/* Reads exactly len bytes of entry index into buf. */
static int entry_read(archive *ar, zip_uint64_t index, const char *name, void *buf, uint64_t len)
{
    zip_file_t *zf = zip_fopen_index(ar->za, index, 0);
    if (!zf)
        return nn_error_set(NN_ERR_RUNTIME, "torch.load: cannot open record '%s': %s", name,
                            zip_error_strerror(zip_get_error(ar->za)));
    uint64_t got = 0;
    while (got < len) {
        zip_int64_t n = zip_fread(zf, (char *)buf + got, len - got);
        if (n <= 0) break;
        got += (uint64_t)n;
    }
    int rc = 0;
    if (got != len)
        rc = nn_error_set(NN_ERR_RUNTIME, "torch.load: record '%s' is truncated or corrupt: %s", name,
                          zip_error_strerror(zip_file_get_error(zf)));
    zip_fclose(zf);
    return rc;
}

/* The device a location string names ("cpu", "cuda", "cuda:N"), with the errors of
   PyTorch 1.13's default_restore_location. 0 or -1. */
static int location_device(const char *location, nn_device *out)
{
    if (!strcmp(location, "cpu")) {
        *out = NN_DEVICE_CPU;
        return 0;
    }
    if (strncmp(location, "cuda", 4))
        return nn_error_set(NN_ERR_RUNTIME,
                            "don't know how to restore data location of torch.storage.UntypedStorage (tagged with %s)",
                            location);
    long index = 0;
    const char *rest = location + 4;
    if (*rest) {
        char *end = NULL;
        if (*rest != ':' || !(rest[1] >= '0' && rest[1] <= '9') || (index = strtol(rest + 1, &end, 10), *end) ||
            index > 0xffff)
            return nn_error_set(NN_ERR_RUNTIME, "Invalid device string: '%s'", location);
    }
    if (!nn_device_available(NN_CUDA))
        return nn_error_set(NN_ERR_RUNTIME,
                            "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
                            "If you are running on a CPU-only machine, please use torch.load with "
                            "map_location=torch.device('cpu') to map your storages to the CPU.");
    if (index >= 1) /* a registered CUDA backend has one device here */
        return nn_error_set(NN_ERR_RUNTIME,
                            "Attempting to deserialize object on CUDA device %ld but torch.cuda.device_count() is 1. "
                            "Please use torch.load with map_location to map your storages to an existing device.",
                            index);
    *out = (nn_device){NN_CUDA, (int)index};
    return 0;
}

nn_tensor *nn_restore_location(nn_tensor *cpu, const char *location)
{
    nn_device d;
    if (location_device(location, &d) < 0) return NULL;
    if (d.type == NN_CPU) {
        NN_RETAIN(cpu);
        return cpu;
    }
    nn_tensor *out = nn_empty_on(d, cpu->ndim, cpu->sizes, cpu->dtype); /* through the device's backend */
    if (out && nn_copy_across_devices(out, cpu) < 0) NN_SET(out, NULL);
    return out;
}

/* map_location as an object: None, a location string or a dict of location strings
   (torch.device is turned into its string by the caller). */
static nn_tensor *restore_by_object(void *ud, nn_tensor *cpu, const char *location)
{
    nn_object *m = ud;
    if (m && nn_is_str(m)) location = nn_str_cstr(m);
    else if (m && nn_is_dict(m)) {
        nn_object *to = nn_dict_get_str(m, location);
        if (to && nn_is_str(to)) location = nn_str_cstr(to);
    }
    return nn_restore_location(cpu, location);
}

static nn_tensor *load_storage(void *ud, const char *key, nn_dtype dtype, int64_t numel, const char *location)
{
    archive *ar = ud;
    char name[512];
    snprintf(name, sizeof name, "%s/data/%s", ar->prefix, key);
    zip_uint64_t index;
    uint64_t size, need;
    if (entry_find(ar, name, &index, &size) < 0) return NULL;
    if (__builtin_mul_overflow((uint64_t)numel, (uint64_t)nn_dtype_size(dtype), &need) || need > size) {
        nn_error_set(NN_ERR_RUNTIME,
                     "torch.load: storage '%s' claims %lld elements of %s but its record holds %llu bytes "
                     "(a truncated or corrupt file)",
                     key, (long long)numel, nn_dtype_name(dtype), (unsigned long long)size);
        return NULL;
    }
    /* read into host memory, then placed where the restore function says (PyTorch
       too reads every storage on the CPU before map_location moves it) */
    nn_tensor *flat = nn_empty_on(NN_DEVICE_CPU, 1, &numel, dtype);
    if (!flat) return NULL;
    if (need && entry_read(ar, index, name, nn_host_borrow(flat), need) < 0) NN_SET(flat, NULL);
    if (flat && dtype == NN_BOOL) { /* any non-zero byte is true */
        uint8_t *b = nn_host_borrow(flat);
        for (int64_t i = 0; i < numel; i++) b[i] = b[i] != 0;
    }
    if (!flat) return NULL;
    nn_tensor *placed = ar->restore(ar->restore_ud, flat, location);
    NN_RELEASE(flat);
    if (placed && (placed->ndim != 1 || placed->sizes[0] != numel || placed->dtype != dtype)) {
        nn_error_set(NN_ERR_RUNTIME, "torch.load: map_location returned a storage of another size or dtype");
        NN_SET(placed, NULL);
    }
    return placed;
}

static nn_object *load_archive(archive *ar)
{
    /* the pickle is "<prefix>/data.pkl"; every other record shares the prefix */
    zip_int64_t n = zip_get_num_entries(ar->za, 0);
    const char *pkl = NULL;
    for (zip_int64_t i = 0; i < n && !pkl; i++) {
        const char *nm = zip_get_name(ar->za, (zip_uint64_t)i, 0);
        const char *slash = nm ? strchr(nm, '/') : NULL;
        if (slash && !strcmp(slash, "/data.pkl") && (size_t)(slash - nm) < sizeof ar->prefix) pkl = nm;
    }
    if (!pkl) {
        nn_error_set(NN_ERR_RUNTIME, "torch.load: the zip archive has no data.pkl (not a PyTorch checkpoint)");
        return NULL;
    }
    snprintf(ar->prefix, sizeof ar->prefix, "%.*s", (int)(strchr(pkl, '/') - pkl), pkl);
    char name[300];
    snprintf(name, sizeof name, "%s/data.pkl", ar->prefix);
    zip_uint64_t index;
    uint64_t size;
    if (entry_find(ar, name, &index, &size) < 0) return NULL;
    void *data = nn_malloc(size ? size : 1);
    if (!data) return NULL;
    nn_object *obj = NULL;
    if (entry_read(ar, index, name, data, size) == 0) obj = nn_pickle_load(data, size, load_storage, ar);
    nn_free(data);
    return obj;
}

static int check_map_location(nn_object *m)
{
    if (nn_is_none(m) || nn_is_str(m)) return 0;
    if (nn_is_dict(m)) {
        size_t pos = 0;
        nn_object *k, *v;
        while (nn_dict_next(m, &pos, &k, &v))
            if (!nn_is_str(k) || !nn_is_str(v))
                return nn_error_set(NN_ERR_TYPE, "torch.load: a map_location dict maps location strings to strings");
        return 0;
    }
    return nn_error_set(NN_ERR_TYPE, "torch.load: map_location must be None, a device, a str or a dict, not %s",
                        m->type->name);
}

static nn_object *open_and_load(zip_source_t *src, uint64_t size, nn_restore_fn restore, void *ud)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
    if (!za) { /* in the words of PyTorch's zip reader (miniz) where libzip's reason is the same */
        const char *why = zip_error_code_zip(&ze) != ZIP_ER_NOZIP ? zip_error_strerror(&ze)
                          : size < 22                          ? "not a ZIP archive"
                                                               : "failed finding central directory";
        nn_error_set(NN_ERR_RUNTIME, "PytorchStreamReader failed reading zip archive: %s", why);
        zip_error_fini(&ze);
        zip_source_free(src);
        return NULL;
    }
    zip_error_fini(&ze);
    archive ar = {.za = za, .file_size = size, .restore = restore, .restore_ud = ud};
    nn_object *obj = load_archive(&ar);
    zip_discard(za); /* read-only: nothing to write back; frees src */
    return obj;
}

/* What the first bytes say the file is. */
typedef enum kind { K_ZIP, K_LEGACY, K_SAFETENSORS, K_UNKNOWN } kind;

static kind sniff(const uint8_t *b, size_t n, uint64_t size)
{
    if (n >= 4 && b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4) return K_ZIP;
    /* the legacy format starts with a pickled magic number: PROTO 2, LONG1 of 10 bytes */
    if (n >= 4 && b[0] == 0x80 && b[1] == 2 && b[2] == 0x8a && b[3] == 10) return K_LEGACY;
    if (n >= 9 && b[8] == '{') {
        uint64_t hl = 0;
        for (int i = 0; i < 8; i++) hl |= (uint64_t)b[i] << (8 * i);
        if (hl <= size - 8) return K_SAFETENSORS;
    }
    return K_UNKNOWN;
}

/* A file that is no zip archive: PyTorch reads it as the legacy format, whose first
   pickle is a magic number; so a file that is no pickle raises the pickle's error
   (EOFError when empty) and one whose first pickle is something else "Invalid magic
   number". head: the file's first n bytes (at most MAX_SNIFF_PICKLE). */
#define MAX_SNIFF_PICKLE (1 << 20)

static nn_object *not_zip(kind k, const uint8_t *head, size_t n)
{
    if (k == K_LEGACY) {
        nn_error_set(NN_ERR_RUNTIME, "torch.load: this file is in PyTorch's legacy format (before 1.6), which "
                                     "nnscope does not read; load it in PyTorch and torch.save it again");
        return NULL;
    }
    nn_object *first = nn_pickle_load(head, n, NULL, NULL);
    if (first) {
        NN_RELEASE(first);
        nn_error_set(NN_ERR_RUNTIME, "Invalid magic number; corrupt file?");
    }
    return NULL;
}

static nn_object *not_zip_file(kind k, const char *path, uint64_t size)
{
    size_t n = size < MAX_SNIFF_PICKLE ? (size_t)size : MAX_SNIFF_PICKLE;
    uint8_t *head = nn_malloc(n ? n : 1);
    if (!head) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) nn_error_set(NN_ERR_RUNTIME, "cannot open '%s': %s", path, strerror(errno));
    else {
        n = fread(head, 1, n, f);
        fclose(f);
        not_zip(k, head, n);
    }
    nn_free(head);
    return NULL;
}

/* A safetensors file's tensors placed as map_location says: each is handed to
   restore as a storage saved on the CPU (its elements, flat), and takes the
   result's place in the dict with its own shape. Consumes d. */
static nn_object *restore_safetensors(nn_object *d, nn_restore_fn restore, void *ud)
{
    size_t pos = 0;
    nn_object *k, *v;
    while (d && nn_dict_next(d, &pos, &k, &v)) {
        if (!nn_is_tensor(v)) continue;
        nn_tensor *t = NN_TENSOR(v), *placed = NULL, *shaped = NULL;
        int64_t numel = nn_numel(t);
        nn_tensor *flat = nn_reshape(t, 1, &numel);
        if (flat) placed = restore(ud, flat, "cpu");
        NN_RELEASE(flat);
        if (placed && (placed->ndim != 1 || placed->sizes[0] != numel || placed->dtype != t->dtype))
            nn_error_set(NN_ERR_RUNTIME, "torch.load: map_location returned a storage of another size or dtype");
        else if (placed)
            shaped = nn_reshape(placed, t->ndim, t->sizes);
        NN_RELEASE(placed);
        if (!shaped || nn_dict_set(d, k, &shaped->ob) < 0) NN_RELEASE(d), d = NULL;
        NN_RELEASE(shaped);
    }
    return d;
}

nn_object *nn_torch_load_bytes(const void *data, size_t len, nn_object *map_location)
{
    if (check_map_location(map_location) < 0) return NULL;
    return nn_torch_load_bytes_with(data, len, restore_by_object, map_location);
}

nn_object *nn_torch_load_bytes_with(const void *data, size_t len, nn_restore_fn restore, void *ud)
{
    kind k = sniff(data, len, len);
    if (k == K_SAFETENSORS) return restore_safetensors(nn_state_dict_from_bytes(data, len, NULL), restore, ud);
    if (k != K_ZIP) return not_zip(k, data, len < MAX_SNIFF_PICKLE ? len : MAX_SNIFF_PICKLE);
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(data, len, 0, &ze);
    zip_error_fini(&ze);
    if (!src) {
        nn_error_set(NN_ERR_MEMORY, "torch.load: out of memory");
        return NULL;
    }
    return open_and_load(src, len, restore, ud);
}

nn_object *nn_torch_load_file(const char *path, nn_object *map_location)
{
    if (check_map_location(map_location) < 0) return NULL;
    return nn_torch_load_file_with(path, restore_by_object, map_location);
}

nn_object *nn_torch_load_file_with(const char *path, nn_restore_fn restore, void *ud)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        nn_error_set(NN_ERR_RUNTIME, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    uint8_t head[16];
    size_t n = fread(head, 1, sizeof head, f);
    struct stat sb;
    int st = fstat(fileno(f), &sb);
    fclose(f);
    if (st != 0 || !S_ISREG(sb.st_mode)) {
        nn_error_set(NN_ERR_RUNTIME, "cannot read '%s': not a regular file", path);
        return NULL;
    }
    kind k = sniff(head, n, (uint64_t)sb.st_size);
    if (k == K_SAFETENSORS) return restore_safetensors(nn_state_dict_load_file(path, NULL), restore, ud);
    if (k != K_ZIP) return not_zip_file(k, path, (uint64_t)sb.st_size);
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_file_create(path, 0, -1, &ze);
    if (!src) {
        nn_error_set(NN_ERR_RUNTIME, "cannot open '%s': %s", path, zip_error_strerror(&ze));
        zip_error_fini(&ze);
        return NULL;
    }
    zip_error_fini(&ze);
    return open_and_load(src, (uint64_t)sb.st_size, restore, ud);
}
