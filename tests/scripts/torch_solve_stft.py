# torch.cholesky_solve, torch.linalg.lu_solve / torch.lu_solve, torch.chain_matmul and
# torch.stft / torch.istft as PyTorch 1.13 computes them: values (rounded where nnscope's
# triangular solves and FFTs can differ in the last float32 bits), shapes, grad_fn names,
# warnings and messages.
import warnings
import torch

warnings.simplefilter("always")


def attempt(f):
    try:
        r = f()
        print(tuple(r.shape), r.dtype, type(r.grad_fn).__name__ if r.grad_fn is not None else None)
    except Exception as e:
        print(type(e).__name__, e)


def show(t, digits=4):
    print((t * 10 ** digits).round().div(10 ** digits).tolist())


torch.manual_seed(0)
A = torch.randn(4, 4)
A = A @ A.T + torch.eye(4)
L = torch.linalg.cholesky(A)
b = torch.randn(4, 3)
show(torch.cholesky_solve(b, L))
show(torch.cholesky_solve(b, L.T, upper=True))
show(b.cholesky_solve(L))
show(torch.cholesky_solve(torch.randn(2, 4, 1), L))
Lb = torch.linalg.cholesky(torch.stack([A, 2 * A]))
show(torch.cholesky_solve(b, Lb))
bg = b.clone().requires_grad_()
Lg = L.clone().requires_grad_()
xs = torch.cholesky_solve(bg, Lg)
print(xs.grad_fn.name())
xs.sum().backward()
show(bg.grad)
show(Lg.grad, 3)
bg = torch.randn(2, 4, 1, requires_grad=True)
Lg = L.clone().requires_grad_()
torch.cholesky_solve(bg, Lg, upper=True).pow(2).sum().backward()
show(bg.grad, 3)
show(Lg.grad, 3)
attempt(lambda: torch.cholesky_solve(b, torch.randn(4, 5)))
attempt(lambda: torch.cholesky_solve(torch.randn(4), L))
attempt(lambda: torch.cholesky_solve(torch.randn(3, 2), L))
attempt(lambda: torch.cholesky_solve(b, L.double()))

M = torch.randn(4, 4)
LU, piv = torch.linalg.lu_factor(M)
show(torch.linalg.lu_solve(LU, piv, b))
print((M @ torch.linalg.lu_solve(LU, piv, b) - b).abs().max().item() < 1e-5)
show(torch.linalg.lu_solve(LU, piv, b.T, left=False))
show(torch.linalg.lu_solve(LU, piv, b, adjoint=True))
show(torch.linalg.lu_solve(LU, piv, b.T, left=False, adjoint=True))
show(torch.linalg.lu_solve(LU, piv, torch.randn(2, 4, 2)))
with warnings.catch_warnings(record=True) as caught:
    show(torch.lu_solve(b, LU, piv))
    show(b.lu_solve(LU, piv))
print(len(caught), str(caught[0].message).splitlines()[0])
LUb, pivb = torch.linalg.lu_factor(torch.stack([M, M.T]))
show(torch.linalg.lu_solve(LUb, pivb, b))
bg = b.clone().requires_grad_()
xl = torch.linalg.lu_solve(LU, piv, bg)
print(xl.grad_fn.name())
(xl * xl).sum().backward()
show(bg.grad, 3)
attempt(lambda: torch.linalg.lu_solve(LU, piv, torch.randn(5, 2)))
attempt(lambda: torch.linalg.lu_solve(LU, piv, torch.randn(4)))
attempt(lambda: torch.linalg.lu_solve(LU, piv.long(), b))
attempt(lambda: torch.linalg.lu_solve(LU, piv, b, left=False))

with warnings.catch_warnings(record=True) as caught:
    show(torch.chain_matmul(torch.randn(2, 3), torch.randn(3, 4), torch.randn(4, 2)))
    show(torch.chain_matmul(torch.ones(2, 2)))
    attempt(lambda: torch.chain_matmul())
    attempt(lambda: torch.chain_matmul(torch.randn(3)))
    attempt(lambda: torch.chain_matmul(torch.randn(3, 3), torch.randn(4, 3)))
print(len(caught), str(caught[0].message)[:45])

x = torch.randn(2, 400)
w = torch.hann_window(64)
S = torch.stft(x, 64, hop_length=16, window=w, return_complex=True)
print(S.shape, S.dtype)
show(torch.view_as_real(S)[0, :3, :2])
print(round(torch.view_as_real(S).abs().sum().item(), 2))
y = torch.istft(S, 64, hop_length=16, window=w, length=400)
print(y.shape, (y - x).abs().max().item() < 1e-5)
show(y[0, :5])
S2 = torch.stft(x[0], 32, return_complex=True, center=False, normalized=True, win_length=20,
                window=torch.hamming_window(20))
print(S2.shape)
show(torch.view_as_real(S2)[:2, :2])
S3 = torch.stft(x[0], 32, return_complex=True, pad_mode='constant', onesided=False)
print(S3.shape)
with warnings.catch_warnings(record=True) as caught:
    S4 = torch.stft(x[0], 32)
    print(S4.shape, S4.dtype, str(caught[0].message)[:50])
print(torch.stft(x[0], 32, return_complex=False).shape)
y4 = torch.istft(S3, 32, onesided=False)
print(y4.shape)
show(y4[:3])
y5 = torch.istft(S3, 32, onesided=False, return_complex=True)
print(y5.dtype, y5.shape)
print(torch.istft(S, 64, hop_length=16, window=w).shape, torch.istft(S[0], 64, hop_length=16, window=w).shape)
with warnings.catch_warnings(record=True) as caught:
    print(torch.istft(S, 64, hop_length=16, window=w, length=450).shape, str(caught[0].message)[:40])
print(x[0].stft(64, return_complex=True).shape)
attempt(lambda: torch.stft(torch.randn(100), 200, return_complex=True, center=False))
attempt(lambda: torch.stft(torch.randn(100), 16, hop_length=0, return_complex=True))
attempt(lambda: torch.stft(torch.randn(100), 16, win_length=20, return_complex=True))
attempt(lambda: torch.stft(torch.randn(100), 16, window=torch.ones(5), return_complex=True))
attempt(lambda: torch.stft(torch.randn(2, 3, 100), 16, return_complex=True))
attempt(lambda: torch.stft(torch.randn(100).to(torch.complex64), 16, onesided=True))
attempt(lambda: torch.stft(torch.randn(100).to(torch.complex64), 16))
attempt(lambda: torch.stft(torch.randn(100), 16, return_complex=True, pad_mode='bogus'))
attempt(lambda: torch.istft(S, 64, hop_length=16, window=w, center=False))
attempt(lambda: torch.istft(S, 64, hop_length=16, window=w, return_complex=True))
attempt(lambda: torch.istft(S, 64, hop_length=16, window=w, onesided=False))
attempt(lambda: torch.istft(S, 63, hop_length=16))
