# torch.nn.modules.loss as PyTorch 1.13's: the private bases _Loss and _WeightedLoss (written with
# the losses of torch.nn._losses_more; core's loss classes derive from them: __mro__, isinstance).
from torch.nn._losses_more import _Loss, _WeightedLoss
