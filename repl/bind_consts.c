/*
 * bind_consts.c — torch's float constants: torch.pi, torch.e, torch.inf and
 * torch.nan (Python floats, as PyTorch 1.13 has them, math's values).
 * Not here: the functions of the torch module (bind_torch.c, bind_math.c).
 */
#include <math.h>

#include "bind_int.h"

int repl_torch_add_constants(nn_object *torch)
{
    static const struct {
        const char *name;
        double value;
    } consts[] = {{"pi", M_PI}, {"e", M_E}, {"inf", INFINITY}, {"nan", NAN}};
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++) {
        nn_object *v = nn_float_new(consts[i].value);
        int rc = v ? repl_namespace_set(torch, consts[i].name, v) : -1;
        NN_RELEASE(v);
        if (rc) return -1;
    }
    return 0;
}
