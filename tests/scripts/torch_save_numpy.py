# NumPy arrays and scalars inside torch.save / torch.load, pickled as PyTorch 1.13 pickles them
# (numpy.core.multiarray._reconstruct, numpy.dtype, _codecs.encode): a file PyTorch wrote
# (tests/fixtures/torch_file/numpy_values.pt, tests/fixtures/gen_torch_numpy.py), a round trip
# of nnscope's own file, and weights_only=True refusing them. The other direction:
# tests/fixtures/check_torch_numpy.py has PyTorch load what this script saves.
import numpy as np
import torch


def values():
    np.random.seed(2)
    return {
        'f64': np.random.randn(3, 4),
        'f32': np.arange(6, dtype=np.float32).reshape(2, 3),
        'f16': np.array([0.5, -2.0], dtype=np.float16),
        'i64': np.arange(-3, 3).reshape(3, 2),
        'i32': np.array([1, 2, 3], dtype=np.int32),
        'bool': np.array([[True, False], [False, True]]),
        'empty': np.zeros((0, 2)),
        'col': np.asfortranarray(np.arange(6.0).reshape(2, 3)) if hasattr(np, 'asfortranarray') else None,
        'f32_scalar': np.float32(2.5),
        'i32_scalar': np.int32(-7),
        'tensor': torch.arange(4.0),
        'nested': [np.ones(2), (np.int32(3), 'x')],
        'bytes': b'\x00\xff ab',
        'no_bytes': b'',
    }


def show(d):
    for k, v in d.items():
        if k.endswith('_scalar'):
            print(k, v.dtype, v.item())
        elif isinstance(v, np.ndarray):
            print(k, v.dtype, v.shape, v.tolist())
        else:
            print(k, v)


if __name__ == '__main__':
    print('-- written by PyTorch 1.13')
    show(torch.load('../fixtures/torch_file/numpy_values.pt'))
    print('-- saved and loaded here')
    v = values()
    v['col'] = v['f32'].T
    torch.save(v, 'torch_save_numpy.tmp')
    back = torch.load('torch_save_numpy.tmp')
    show(back)
    print(np.array_equal(back['f64'], v['f64']), back['f64'].dtype == v['f64'].dtype)
    data = np.sin(np.arange(10).reshape(2, 5) / 3.0)
    torch.save(data, open('torch_save_numpy2.tmp', 'wb'))  # time_sequence_prediction's way
    print(torch.load('torch_save_numpy2.tmp').shape)
    try:
        torch.load('torch_save_numpy.tmp', weights_only=True)
    except Exception as e:
        print(type(e).__name__)
