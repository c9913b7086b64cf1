/*
 * default_dtype.c — the default floating dtype (torch.set_default_dtype /
 * torch.get_default_dtype). Factories without a dtype, Python floats taking part
 * in promotion, integer-to-float results (true division, exp, sqrt ...) and new
 * module parameters read it. float32 until set; one setting for the process, as
 * PyTorch's is.
 */
#include "nn.h"

static nn_dtype default_dtype = NN_FLOAT32;

nn_dtype nn_default_dtype(void) { return default_dtype; }

int nn_set_default_dtype(nn_dtype dt)
{
    if ((unsigned)dt >= NN_DTYPE_COUNT || !nn_dtype_is_floating(dt))
        return nn_error_set(NN_ERR_TYPE, "only floating-point types are supported as the default type");
    default_dtype = dt;
    return 0;
}
