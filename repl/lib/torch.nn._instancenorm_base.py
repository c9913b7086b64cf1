# torch.nn.modules.instancenorm as PyTorch 1.13's: the private base _InstanceNorm (core's
# InstanceNorm1d/2d/3d derive from it: __mro__, isinstance); a language subclass runs the code here.
import warnings
import torch.nn.functional as F
from torch.nn import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from torch.nn.modules.batchnorm import _NormBase


class _InstanceNorm(_NormBase):
    __module__ = 'torch.nn.modules.instancenorm'

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device=device, dtype=dtype)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def _get_no_batch_dim(self):
        raise NotImplementedError

    def _handle_no_batch_input(self, input):
        return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats, self.momentum, self.eps)

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError("expected input's size at dim={} to match num_features ({}), but got: {}.".format(
                    feature_dim, self.num_features, input.size(feature_dim)))
            warnings.warn("input's size at dim={} does not match num_features. You can silence this warning by "
                          "not passing in num_features, which is not used because affine=False".format(feature_dim))
        if input.dim() == self._get_no_batch_dim():
            return self._handle_no_batch_input(input)
        return self._apply_instance_norm(input)
