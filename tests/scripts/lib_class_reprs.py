# Classes of the modules written in the language, reached as attributes of torch without an
# import of their module: their repr names the module they live in (a use-after-return
# once, when the module's name was the caller's stack buffer).
import torch

for cls in (torch.distributions.Normal, torch.distributions.Categorical, torch.optim.LBFGS,
            torch.nn.Transformer, torch.nn.TransformerDecoderLayer):
    text = repr(cls)
    print(text.startswith("<class 'torch."), text.endswith('.' + cls.__name__ + "'>"),
          cls.__module__.startswith('torch.'))
