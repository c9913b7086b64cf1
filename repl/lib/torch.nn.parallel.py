# torch.nn.parallel as PyTorch 1.13 runs it on a machine with no CUDA device:
# DataParallel wraps its module and calls it directly (device_ids is empty), and
# DistributedDataParallel needs a process group, which a single nnscope process
# never has (torch.distributed), so it raises PyTorch's error.

import torch
import torch.nn as nn


class DataParallel(nn.Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []
        self.output_device = None
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


class DistributedDataParallel(nn.Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 process_group=None, bucket_cap_mb=25, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False):
        super().__init__()
        raise RuntimeError('Default process group has not been initialized, please make sure to call '
                           'init_process_group.')


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    return module(*inputs, **(module_kwargs or {}))
