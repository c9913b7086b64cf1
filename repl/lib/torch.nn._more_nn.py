# torch.nn names written in the language over the built-in ops (issue 16): Embedding.from_pretrained
# (a class method of core's Embedding, bound by repl/native_module_init.c), SyncBatchNorm (on the
# CPU it raises on forward as PyTorch 1.13 does without a GPU; convert_sync_batchnorm works) and
# F.conv_tbc / torch.conv_tbc (a 1-d convolution over [time, batch, channel] input, in ATen's
# order: a matrix product a kernel tap).
import torch
from torch import nn
import torch.nn.functional as F
from torch.nn._grad_names import grad_fn_name
from torch.nn._norm_bases import _BatchNorm


class SyncBatchNorm(_BatchNorm):
    __module__ = 'torch.nn.modules.batchnorm'

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, device=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device=device, dtype=dtype)
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError("expected at least 2D input (got {}D input)".format(input.dim()))

    def forward(self, input):
        if not input.is_cuda:
            raise ValueError("SyncBatchNorm expected input tensor to be on GPU")
        self._check_input_dim(input)
        raise RuntimeError("SyncBatchNorm needs a process group (torch.distributed), which nnscope does not have")

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        out = module
        if isinstance(module, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
            out = SyncBatchNorm(module.num_features, module.eps, module.momentum, module.affine,
                                module.track_running_stats, process_group)
            if module.affine:
                with torch.no_grad():
                    out.weight = module.weight
                    out.bias = module.bias
            out.running_mean = module.running_mean
            out.running_var = module.running_var
            out.num_batches_tracked = module.num_batches_tracked
            if hasattr(module, "qconfig"):
                out.qconfig = module.qconfig
        for name, child in module.named_children():
            out.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return out


@grad_fn_name("ConvTbcBackward0")
def conv_tbc(input, weight, bias, pad=0):
    if input.dim() != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.dim() != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, out_channels.")
    if bias.dim() != 1:
        raise RuntimeError("Bias must be 1-D")
    if input.size(2) != weight.size(1):
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if weight.size(2) != bias.size(0):
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    # ATen's conv_tbc: the output starts as the bias, then each kernel tap adds its
    # [time * batch, in] @ [in, out] product to the rows it reaches (addmm_ in k order)
    ilen, batch, cin = input.shape
    kw, cout = weight.size(0), weight.size(2)
    olen = ilen - kw + 1 + 2 * pad
    real_pad = (olen - ilen + kw - 1) // 2
    output = bias.expand(olen, batch, cout).clone()
    for k in range(kw):
        i_shift, o_shift = max(0, k - real_pad), max(0, real_pad - k)
        t = min(ilen + real_pad - k, olen) - o_shift
        if t > 0:
            rows = input.narrow(0, i_shift, t).reshape(t * batch, cin)
            output[o_shift:o_shift + t] = output[o_shift:o_shift + t] + (rows @ weight[k]).view(t, batch, cout)
    return output


def _embedding_from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.,
                               scale_grad_by_freq=False, sparse=False):
    # Embedding.from_pretrained as 1.13's: the weight wraps embeddings (shares its memory)
    assert embeddings.dim() == 2, 'Embeddings parameter is expected to be 2-dimensional'
    rows, cols = embeddings.shape
    embedding = cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, padding_idx=padding_idx,
                    max_norm=max_norm, norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)
    embedding.weight.requires_grad = not freeze
    return embedding
