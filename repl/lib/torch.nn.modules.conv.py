# torch.nn.modules.conv as PyTorch 1.13's: the private bases _ConvNd and _ConvTransposeNd (written
# with Conv3d in torch.nn._layers3d; core's Conv1d/Conv2d/ConvTranspose1d/2d derive from them:
# __mro__, isinstance) and the convolution classes.
from torch.nn import Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d
from torch.nn._layers3d import _ConvNd, _ConvTransposeNd, Conv3d, ConvTranspose3d
