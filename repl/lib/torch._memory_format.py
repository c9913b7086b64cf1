# torch.memory_format and its four values (torch.contiguous_format, preserve_format,
# channels_last, channels_last_3d), which scripts pass as memory_format= (clone, to,
# contiguous, empty_like ...). nnscope's tensors are strided and every op it takes them to
# accepts the keyword; the values print as PyTorch's do.


class memory_format:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'torch.' + self._name

    def __reduce__(self):
        return self._name


contiguous_format = memory_format('contiguous_format')
preserve_format = memory_format('preserve_format')
channels_last = memory_format('channels_last')
channels_last_3d = memory_format('channels_last_3d')
