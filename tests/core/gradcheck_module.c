/* gradcheck cases for core/module_call.c (included by test_gradcheck.c). */

/* A module whose forward multiplies its two inputs, called with a full
   backward hook so that its inputs and output pass through the
   BackwardHookFunctionBackward identity. */
static nn_object *gc_mul_forward(nn_module *self, nn_object *args, nn_object *kwargs)
{
    (void)self;
    (void)kwargs;
    return (nn_object *)nn_mul(NN_TENSOR(nn_tuple_get(args, 0)), NN_TENSOR(nn_tuple_get(args, 1)));
}

static nn_object *gc_ignore_hook(void *ud, nn_object *args, nn_object *kwargs)
{
    (void)ud;
    (void)args;
    (void)kwargs;
    return nn_retain(nn_none());
}

static const nn_module_class gc_mul_class = {.name = "Mul", .forward = gc_mul_forward};

static nn_tensor *gc_backward_hook(nn_tensor **in)
{
    nn_module *m = nn_module_new(&gc_mul_class);
    nn_object *hook = nn_cfunction_new("ignore", gc_ignore_hook, NULL, NULL);
    nn_object *handle = nn_module_register_hook(m, NN_HOOK_FULL_BACKWARD, hook, (nn_hook_options){0});
    nn_object *args = nn_tuple_pack(2, (nn_object *)in[0], (nn_object *)in[1]);
    nn_object *out = nn_module_call(m, args, NULL);
    NN_RELEASE(args); NN_RELEASE(handle); NN_RELEASE(hook); NN_RELEASE(m);
    return (nn_tensor *)out;
}

static const gc_case cases_module[] = {
    {NN_OP_backward_hook, "module output through a full backward hook", gc_backward_hook, 2, {2, 2}, {{2, 3}, {2, 3}}, -1, 1, 0},
    GC_END,
};
