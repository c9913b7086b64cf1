# Native module classes in the class hierarchy, as PyTorch 1.13 shows it (as far
# as nnscope models the intermediate classes: Conv2d has no _ConvNd here, so the
# orders below use classes both have): __mro__, __bases__, __base__, mro(),
# issubclass and isinstance for nn classes and for Python classes derived from them.
import torch
from torch import nn


def names(classes):
    return [c.__name__ for c in classes]


print(names(nn.Module.__mro__), names(nn.Module.__bases__))
print(names(nn.Linear.__mro__), nn.Linear.__base__.__name__, names(nn.Linear.mro()))
print(names(nn.LSTM.__mro__), names(nn.LSTM.__bases__))
print(names(nn.GRUCell.__mro__))


class Net(nn.Module):
    pass


class Mixin:
    def hello(self):
        return 'hello'


class Both(nn.Module, Mixin):
    pass


class MixinFirst(Mixin, nn.Linear):
    pass


class Deeper(Net):
    pass


class MyLSTM(nn.LSTM):
    pass


print(names(Net.__mro__), names(Net.__bases__), Net.__base__.__name__)
print(names(Both.__mro__), names(Both.__bases__), Both.__base__.__name__)
print(names(MixinFirst.__mro__), names(MixinFirst.__bases__), names(MixinFirst.mro()))
print(names(Deeper.__mro__), names(Deeper.__bases__))
print(names(MyLSTM.__mro__))

print(issubclass(Net, nn.Module), issubclass(Deeper, nn.Module), issubclass(MyLSTM, nn.RNNBase),
      issubclass(MyLSTM, nn.LSTM), issubclass(MyLSTM, nn.GRU), issubclass(MixinFirst, nn.Linear),
      issubclass(MixinFirst, Mixin), issubclass(Mixin, nn.Module), issubclass(Net, (nn.Linear, nn.Module)),
      issubclass(nn.LSTM, nn.RNNBase), issubclass(nn.Linear, nn.Module), issubclass(nn.Linear, Net))
m = MixinFirst(2, 3)
print(isinstance(m, nn.Linear), isinstance(m, nn.Module), isinstance(m, Mixin), m.hello(), m.weight.shape)
print(isinstance(Deeper(), Net), isinstance(Deeper(), nn.Module), isinstance(Net(), nn.Linear))
print(isinstance(MyLSTM(2, 3), nn.RNNBase), isinstance(nn.LSTM(2, 3), MyLSTM))
