# type(m) of the layers written in the language: PyTorch's module paths
import torch
from torch import nn

mods = [nn.Conv3d(1, 2, 3), nn.ConvTranspose3d(1, 2, 3), nn.MaxPool3d(2), nn.AvgPool3d(2),
        nn.AdaptiveAvgPool3d(2), nn.AdaptiveMaxPool3d(2), nn.AdaptiveMaxPool1d(2), nn.Fold(4, 2),
        nn.Unfold(2), nn.ChannelShuffle(2), nn.EmbeddingBag(5, 3), nn.Bilinear(2, 3, 4),
        nn.SoftMarginLoss(), nn.MultiLabelSoftMarginLoss(), nn.HingeEmbeddingLoss(), nn.PoissonNLLLoss(),
        nn.GaussianNLLLoss(), nn.MultiMarginLoss(), nn.MultiLabelMarginLoss(),
        nn.TripletMarginWithDistanceLoss(), nn.LPPool1d(2, 2), nn.LPPool2d(2, 2), nn.MaxUnpool1d(2),
        nn.MaxUnpool3d(2), nn.CTCLoss(), nn.Conv2d(1, 1, 1), nn.Linear(1, 1)]
for m in mods:
    t = type(m)
    print(t, repr(t), t.__module__, t.__name__, t.__qualname__)
print(type(nn.TransformerDecoderLayer(8, 2)))
print(nn.Conv3d.__module__, nn.MaxPool3d.__module__, nn.EmbeddingBag.__module__)
print(nn.Conv3d.__mro__[1].__name__, nn.Conv3d.__mro__[1].__module__)


class Mine(nn.Conv3d):
    pass


print(Mine, Mine.__module__)


class Elsewhere:
    __module__ = 'pkg.sub'


print(Elsewhere, Elsewhere.__module__, repr(Elsewhere()).split(' object at ')[0])
