/*
 * bind_device.c — the language's side of the device model on a CPU-only
 * build: the `device=` argument of every factory and of Tensor.to, and
 * Tensor.cuda(). torch.device itself lives in bind_args.c, x.device and
 * x.is_cuda in bind_tensor.c.
 *
 * Every tensor is on the CPU (core's storage carries nn_device {NN_CPU, 0});
 * asking for CUDA fails as PyTorch's CPU build fails, with
 * `AssertionError: Torch not compiled with CUDA enabled`.
 */
#include <string.h>

#include "bind_int.h"

/* The CPU-build error PyTorch raises from torch.cuda's lazy init. */
static int no_cuda(void) { return nn_error_set(NN_ERR_ASSERTION, "Torch not compiled with CUDA enabled"); }

int repl_arg_device(const char *fname, nn_object *o)
{
    if (!o || nn_is_none(o)) return 0;
    nn_object *dev = NULL;
    if (repl_is_device(o)) dev = nn_retain(o);
    else if (nn_is_str(o)) dev = repl_device_new(nn_str_cstr(o), -1);
    else if (nn_is_int(o) && !nn_is_bool(o)) return nn_int_value(o) < 0 ? nn_error_set(NN_ERR_RUNTIME, "Device index must not be negative") : no_cuda(); /* an int is a CUDA ordinal */
    else
        return nn_error_set(NN_ERR_TYPE, "%s(): argument 'device' must be torch.device, not %s", fname,
                            repl_type_name(o));
    if (!dev) return -1;
    const char *type = repl_device_type(dev);
    int rc = 0;
    if (!strcmp(type, "cuda")) rc = no_cuda();
    else if (strcmp(type, "cpu"))
        rc = nn_error_set(NN_ERR_RUNTIME, "%s(): this build has no '%s' device, only the CPU", fname, type);
    NN_RELEASE(dev);
    return rc;
}

nn_object *repl_tensor_device(const nn_tensor *t)
{
    nn_device d = nn_device_of(t);
    if (d.type == NN_CPU) return nn_retain(repl_cpu_device()); /* PyTorch's CPU device has no index */
    return repl_device_new("cuda", d.index);
}

nn_object *repl_tensor_cuda(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3] = {0};
    if (repl_parse_args("cuda", "device=, non_blocking=, memory_format=", args, kwargs, a)) return NULL;
    no_cuda();
    return NULL;
}

/* ---------------------------------------------------------------- threads */

nn_object *repl_set_num_threads(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    if (repl_parse_args("set_num_threads", "int", args, kwargs, a)) return NULL;
    if (!nn_is_int(a[0]))
        return nn_error_set(NN_ERR_RUNTIME, "set_num_threads expects an int, but got %s", repl_type_name(a[0])), NULL;
    int64_t n = nn_int_value(a[0]);
    if (nn_set_num_threads(n < 1 ? 0 : n > 1 << 20 ? 1 << 20 : (int)n) < 0) return NULL;
    return nn_retain(nn_none());
}

nn_object *repl_get_num_threads(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1] = {0};
    if (repl_parse_args("get_num_threads", "", args, kwargs, a)) return NULL;
    return nn_int_new(nn_get_num_threads());
}
