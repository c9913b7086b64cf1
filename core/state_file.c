/*
 * state_file.c — state dicts (dicts of str -> tensor) to and from safetensors
 * files and bytes, on top of safetensors.c; what torch.save/torch.load and
 * the sessions' snapshots use.
 */
#include <string.h>

#include "nn.h"

/* The dict as named tensors (borrowed names and tensors) and the metadata as
   key/value strings (borrowed); TypeError for anything but str -> tensor. */
static int flatten(nn_object *sd, nn_object *metadata, nn_named_tensor **items, const char ***kv, size_t *n_meta)
{
    if (!nn_is_dict(sd)) return nn_error_set(NN_ERR_TYPE, "expected a state dict (a dict of str -> Tensor)");
    size_t n = nn_dict_len(sd), m = metadata ? nn_dict_len(metadata) : 0;
    *items = nn_calloc(n + 1, sizeof **items);
    *kv = *items ? nn_calloc(2 * m + 1, sizeof **kv) : NULL;
    if (!*kv) {
        nn_free(*items);
        return -1;
    }
    size_t pos = 0, i = 0;
    nn_object *k, *v;
    while (nn_dict_next(sd, &pos, &k, &v)) {
        if (!nn_is_str(k) || !nn_is_tensor(v)) {
            nn_free(*items);
            nn_free(*kv);
            return nn_error_set(NN_ERR_TYPE, "safetensors stores tensors under str keys only; '%s' is a %s",
                                nn_is_str(k) ? nn_str_cstr(k) : "?", v->type->name);
        }
        (*items)[i].name = (char *)nn_str_cstr(k);
        (*items)[i++].tensor = NN_TENSOR(v);
    }
    pos = i = 0;
    while (metadata && nn_dict_next(metadata, &pos, &k, &v)) {
        if (!nn_is_str(k) || !nn_is_str(v)) {
            nn_free(*items);
            nn_free(*kv);
            return nn_error_set(NN_ERR_TYPE, "safetensors metadata maps str to str");
        }
        (*kv)[i++] = nn_str_cstr(k);
        (*kv)[i++] = nn_str_cstr(v);
    }
    *n_meta = m;
    return 0;
}

int nn_state_dict_save_file(nn_object *state_dict, const char *path, nn_object *metadata)
{
    nn_named_tensor *items;
    const char **kv;
    size_t n_meta;
    if (flatten(state_dict, metadata, &items, &kv, &n_meta) < 0) return -1;
    int rc = nn_safetensors_save_file(path, items, nn_dict_len(state_dict), metadata ? kv : NULL, n_meta);
    nn_free(items);
    nn_free(kv);
    return rc;
}

int nn_state_dict_to_bytes(nn_object *state_dict, nn_object *metadata, void **out, size_t *out_len)
{
    nn_named_tensor *items;
    const char **kv;
    size_t n_meta;
    if (flatten(state_dict, metadata, &items, &kv, &n_meta) < 0) return -1;
    int rc = nn_safetensors_serialize(items, nn_dict_len(state_dict), metadata ? kv : NULL, n_meta, out, out_len);
    nn_free(items);
    nn_free(kv);
    return rc;
}

int nn_state_dict_to_pieces(nn_object *state_dict, nn_object *metadata, nn_safetensors_pieces *out)
{
    nn_named_tensor *items;
    const char **kv;
    size_t n_meta;
    if (flatten(state_dict, metadata, &items, &kv, &n_meta) < 0) return -1;
    int rc = nn_safetensors_pieces_make(items, nn_dict_len(state_dict), metadata ? kv : NULL, n_meta, out);
    nn_free(items);
    nn_free(kv);
    return rc;
}

/* A loaded file as a new ordered dict, as torch.load gives a saved state_dict
   (and its metadata as a new plain dict when asked). */
static nn_object *to_dict(nn_safetensors *st, nn_object **metadata_out)
{
    if (!st) return NULL;
    nn_object *sd = nn_ordered_dict_new(), *meta = NULL;
    int rc = sd ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < st->n; i++) rc = nn_dict_set_str(sd, st->tensors[i].name, &st->tensors[i].tensor->ob);
    if (rc == 0 && metadata_out) {
        meta = nn_dict_new();
        rc = meta ? 0 : -1;
        for (size_t i = 0; rc == 0 && i < st->n_metadata; i++) {
            nn_object *v = nn_str_new(st->metadata[2 * i + 1]);
            rc = v ? nn_dict_set_str(meta, st->metadata[2 * i], v) : -1;
            NN_RELEASE(v);
        }
    }
    nn_safetensors_free(st);
    if (rc < 0) {
        NN_RELEASE(sd);
        NN_RELEASE(meta);
        return NULL;
    }
    if (metadata_out) *metadata_out = meta;
    return sd;
}

nn_object *nn_state_dict_load_file(const char *path, nn_object **metadata_out)
{
    return to_dict(nn_safetensors_load_file(path), metadata_out);
}

nn_object *nn_state_dict_from_bytes(const void *data, size_t len, nn_object **metadata_out)
{
    return to_dict(nn_safetensors_parse(data, len), metadata_out);
}
