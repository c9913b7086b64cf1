/*
 * bind_device.c — the language's side of the device model on a CPU-only
 * build: the `device=` argument of every factory and of Tensor.to, and
 * Tensor.cuda(). torch.device itself lives in bind_args.c, x.device and
 * x.is_cuda in bind_tensor.c.
 *
 * Tensors live on the CPU unless a CUDA backend is registered in core (a CUDA
 * build, or the loopback test device that stands in for it: NNSCOPE_TEST_DEVICE=
 * loopback, which also makes it the factories' default device so that scripts
 * rerun on it). Without one, asking for CUDA fails as PyTorch's CPU build fails,
 * with `AssertionError: Torch not compiled with CUDA enabled`.
 */
#include <stdlib.h>
#include <string.h>

#include "bind_int.h"

/* The CPU-build error PyTorch raises from torch.cuda's lazy init. */
static int no_cuda(void) { return nn_error_set(NN_ERR_ASSERTION, "Torch not compiled with CUDA enabled"); }

/* The factories' device when none is given: the CPU, or the loopback device
   under NNSCOPE_TEST_DEVICE=loopback (registered here on first use; with
   NNSCOPE_LOOPBACK_POISON=1 its memory is poisoned under AddressSanitizer). */
nn_device repl_default_device(void)
{
    static int state; /* 0: not read yet, 1: CPU, 2: loopback */
    if (!state) {
        const char *e = getenv("NNSCOPE_TEST_DEVICE");
        state = e && !strcmp(e, "loopback") ? 2 : 1;
        if (state == 2) {
            const char *p = getenv("NNSCOPE_LOOPBACK_POISON");
            nn_loopback_register(p && !strcmp(p, "1"));
            nn_set_default_device((nn_device){NN_CUDA, 0}); /* so that scripts rerun on it, modules included */
        }
    }
    return state == 2 ? (nn_device){NN_CUDA, 0} : NN_DEVICE_CPU;
}

void repl_devices_init(void) { repl_default_device(); }

/* A CUDA ordinal: the one device of a registered CUDA backend, or PyTorch's errors. */
static int cuda_device(int64_t index, nn_device *out)
{
    repl_default_device();
    if (!nn_device_available(NN_CUDA)) return no_cuda();
    if (index > 0) return nn_error_set(NN_ERR_RUNTIME, "CUDA error: invalid device ordinal");
    *out = (nn_device){NN_CUDA, 0};
    return 0;
}

int repl_arg_device_to(const char *fname, nn_object *o, nn_device *out)
{
    *out = repl_default_device();
    if (!o || nn_is_none(o)) return 0;
    nn_object *dev = NULL;
    if (repl_is_device(o)) dev = nn_retain(o);
    else if (nn_is_str(o)) dev = repl_device_new(nn_str_cstr(o), -1);
    else if (nn_is_int(o) && !nn_is_bool(o)) return nn_int_value(o) < 0 ? nn_error_set(NN_ERR_RUNTIME, "Device index must not be negative") : cuda_device(nn_int_value(o), out); /* an int is a CUDA ordinal */
    else
        return nn_error_set(NN_ERR_TYPE, "%s(): argument 'device' must be torch.device, not %s", fname,
                            repl_type_name(o));
    if (!dev) return -1;
    const char *type = repl_device_type(dev);
    int rc = 0;
    if (!strcmp(type, "cuda")) {
        nn_object *index = repl_device_getattr(dev, "index");
        rc = index ? cuda_device(nn_is_int(index) ? nn_int_value(index) : 0, out) : -1;
        NN_RELEASE(index);
    } else if (strcmp(type, "cpu")) {
        rc = nn_error_set(NN_ERR_RUNTIME, "%s(): this build has no '%s' device, only the CPU", fname, type);
    } else {
        *out = NN_DEVICE_CPU;
    }
    NN_RELEASE(dev);
    return rc;
}

int repl_arg_device(const char *fname, nn_object *o)
{
    nn_device d;
    return repl_arg_device_to(fname, o, &d);
}

nn_tensor *repl_tensor_on(nn_tensor *t, nn_device d)
{
    if (!t || nn_same_device(nn_device_of(t), d)) return t;
    nn_tensor *r = nn_to_device(t, d);
    NN_RELEASE(t);
    return r;
}

bool repl_cuda_available(void)
{
    repl_default_device();
    return nn_device_available(NN_CUDA);
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
    nn_device d;
    if (a[0] && !nn_is_none(a[0]) ? repl_arg_device_to("cuda", a[0], &d) : cuda_device(0, &d)) return NULL;
    if (d.type != NN_CUDA) return nn_error_set(NN_ERR_RUNTIME, "Invalid device, must be cuda device"), NULL;
    return (nn_object *)nn_to_device(NN_TENSOR(self), d);
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
