# PyTorch 1.13's parsing of shapes and its TypeError words for the calls the first sweep left
# (repl/torch_arg_errors.c, bind_torch.c's factories, bind_tensor.c's shape_fn): a sequence first
# is the whole shape, the size is required (or size=), methods that take no arguments, the
# methods PyTorch writes in Python.
import torch
x = torch.arange(6.)
y = torch.ones(2, 3)


def show(text, f):
    try:
        r = f()
        print(text, "->", tuple(r.shape) if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(text, "->", type(e).__name__ + ":", e)


for text in ["x.view((2, 3), 1)", "x.view([2, 3], 'a', 5)", "x.view(torch.Size([2, 3]), 1)", "x.reshape((3, 2), 1)",
             "y.permute((1, 0), 1)", "y.repeat((1, 2), 1)", "y.expand((2, 3), 1)", "x.view(2, (3,))",
             "y.view(size=(3, 2))", "y.reshape(shape=[6])", "y.permute(dims=(1, 0))",
             "torch.randn()", "torch.rand()", "torch.zeros()", "torch.ones()", "torch.empty()",
             "torch.rand(dtype=torch.float64)", "torch.ones(requires_grad=True)", "y.new_ones()",
             "torch.zeros(size=(2, 3))", "torch.randn(size=[2])", "torch.ones(())", "torch.zeros([])",
             "torch.randn(2, size=(3,))", "torch.Tensor()",
             "torch.randint(5)", "torch.randint()", "torch.randint(high=3)", "torch.randint(0, 5)",
             "torch.randint(3, size=(2,))", "torch.randint(1, 3, (2,))",
             "y.abs(1)", "y.abs(a=1)", "y.item(1)", "y.tolist(2)", "y.numel(1)", "y.dim(1, 2)", "y.t(0)",
             "y.backward(1, 2, 3, 4, 5, 6)", "y.register_hook()"]:
    show(text, lambda: eval(text))
