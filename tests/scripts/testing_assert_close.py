# torch.testing.assert_close: default tolerances per dtype, attribute checks, PyTorch 1.13's mismatch
# messages for tensors, scalars, nested sequences and mappings; assert_allclose; torch.allclose.
import torch
from torch.testing import assert_close
def t(f):
    try:
        f()
        print('ok')
    except Exception as e:
        print(type(e).__name__ + ':', e)
a = torch.tensor([1.0, 2.0, 3.0])
t(lambda: assert_close(a, a + 1e-6))
t(lambda: assert_close(a, torch.tensor([1.0, 2.1, 3.0])))
t(lambda: torch.testing.assert_close(a, a.double()))
t(lambda: torch.testing.assert_close(a, a.double(), check_dtype=False))
t(lambda: assert_close(a, a[:2]))
t(lambda: assert_close(a, torch.tensor([1.0, 2.0, 3.1]), rtol=0.1))
t(lambda: assert_close(a, torch.tensor([1.0, 2.0, 3.1]), rtol=0.1, atol=0))
t(lambda: assert_close(a, torch.tensor([1.5, 2.0, 3.2]), rtol=0, atol=0))
t(lambda: assert_close(torch.tensor(1.0), torch.tensor(1.01)))
t(lambda: assert_close(1.0, 1.01))
t(lambda: assert_close(1, 1.0))
t(lambda: assert_close(1.0, 1.0 + 1e-9))
t(lambda: assert_close([a, {'x': a}], [a, {'x': a + 1}]))
t(lambda: assert_close({'a': 1, 'b': 2}, {'a': 1, 'c': 2}))
t(lambda: assert_close([1, 2], [1, 2, 3]))
t(lambda: assert_close(a, 1.0))
t(lambda: assert_close(None, None))
t(lambda: assert_close(True, False))
t(lambda: assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')])))
t(lambda: assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True))
t(lambda: assert_close(torch.arange(6).reshape(2, 3), torch.tensor([[0, 1, 2], [3, 5, 5]])))
t(lambda: assert_close(a, a + 1, msg='custom'))
t(lambda: assert_close(a, a + 1, msg=lambda m: 'H\n' + m))
t(lambda: assert_close(torch.randn(3, 4).t(), torch.randn(3, 4).t().contiguous(), check_stride=True))
t(lambda: torch.testing.assert_allclose(a, [1.0, 2.0, 3.00001]))
t(lambda: torch.testing.assert_allclose(a, [1.0, 2.0, 3.1]))
print(torch.allclose(a, a + 1e-6), torch.allclose(a, a + 1e-3), torch.allclose(a, a + 1e-3, atol=1e-2))
print(torch.allclose(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True))
