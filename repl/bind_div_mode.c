/*
 * bind_div_mode.c — rounding_mode= of torch.div / torch.divide / Tensor.div / Tensor.div_:
 * a call that names rounding_mode goes to repl/lib/torch._div_mode.py (div.Tensor_mode as
 * PyTorch 1.13: None, 'trunc', 'floor', node DivBackward2); a call without it stays the
 * built-in division. Only bind_tensor.c's div and div_ ask here.
 */
#include <string.h>

#include "bind_int.h"
#include "eval_int.h"

bool repl_div_has_mode(nn_object *kwargs)
{
    return kwargs && nn_dict_get_str(kwargs, "rounding_mode") != NULL;
}

/* self NULL: torch.div(input, other, rounding_mode=...) with args as given; else self.div_(...).
   A new reference or NULL with the error set. */
nn_object *repl_div_mode(nn_object *self, nn_object *args, nn_object *kwargs)
{
    nn_object *m = repl_stdlib_module("torch._div_mode");
    nn_object *f = m ? repl_get_attr(m, self ? "div_" : "div") : NULL;
    NN_RELEASE(m);
    if (!f) return NULL;
    size_t n = args ? nn_tuple_len(args) : 0;
    nn_object *argv[4];
    int k = 0;
    if (self) argv[k++] = self;
    if (n + (size_t)k > 3) {
        NN_RELEASE(f);
        nn_error_set(NN_ERR_TYPE, "%s() takes at most %d positional arguments (%zu given)", self ? "div_" : "div",
                     self ? 2 : 3, n + (size_t)k);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) argv[k++] = nn_tuple_get(args, i);
    nn_object *r = repl_call_object(f, argv, k, kwargs);
    NN_RELEASE(f);
    return r;
}
