/*
 * mod_torch_backends.c — torch.backends as PyTorch 1.13's CPU-only Linux build
 * has it, for the lines pasted scripts start with: `torch.backends.mps.is_available()`
 * and `torch.backends.cudnn.is_available()` are False (the device checks of the
 * tutorials), `torch.backends.cudnn.deterministic = True` / `.benchmark = False`
 * are kept as plain attributes (no cuDNN here to steer), as is
 * `torch.backends.cuda.matmul.allow_tf32 = True` (nanoGPT). Written in the language.
 */
#include "eval_int.h"
#include "stdlib_int.h"

static const char backends_source[] =
    "class _Backend:\n"
    "    def __init__(self, name, **flags):\n"
    "        self.__name__ = name\n"
    "        for k in flags:\n"
    "            setattr(self, k, flags[k])\n"
    "    def is_available(self):\n"
    "        return False\n"
    "    def is_built(self):\n"
    "        return False\n"
    "    def __repr__(self):\n"
    "        return \"<module '\" + self.__name__ + \"'>\"\n"
    "\n"
    "mps = _Backend('torch.backends.mps')\n"
    "cudnn = _Backend('torch.backends.cudnn', enabled=True, benchmark=False, deterministic=False,\n"
    "                 allow_tf32=True)\n"
    "cuda = _Backend('torch.backends.cuda')\n"
    "cuda.matmul = _Backend('torch.backends.cuda.matmul', allow_tf32=False,\n"
    "                       allow_fp16_reduced_precision_reduction=True)\n"
    "del _Backend\n";

nn_object *repl_mod_torch_backends(void) { return repl_mod_from_source("torch.backends", NULL, 0, backends_source); }

/* `import torch.backends.cudnn as cudnn` (pytorch/examples' imagenet): the submodules are
   torch.backends' own objects, so a flag set through either name is seen by both. */
static nn_object *backend_attr(const char *name)
{
    nn_object *m = repl_stdlib_module("torch.backends");
    nn_object *v = m ? repl_get_attr(m, name) : NULL;
    NN_RELEASE(m);
    return v;
}

nn_object *repl_mod_torch_backends_cudnn(void) { return backend_attr("cudnn"); }
nn_object *repl_mod_torch_backends_mps(void) { return backend_attr("mps"); }
nn_object *repl_mod_torch_backends_cuda(void) { return backend_attr("cuda"); }
