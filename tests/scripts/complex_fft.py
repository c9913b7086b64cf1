# torch.fft: fft / ifft / rfft / irfft / fftfreq / rfftfreq on small signals
import torch
import torch.fft

x = torch.tensor([1.0, 2.0, 3.0, 4.0])
X = torch.fft.fft(x)
print(X, torch.fft.ifft(X), torch.fft.ifft(X).real)
print(torch.fft.rfft(x), torch.fft.irfft(torch.fft.rfft(x)))
print(torch.fft.fft(x, n=8), torch.fft.fft(x, n=2), torch.fft.fft(x, norm="ortho"), torch.fft.fft(x, norm="forward"))
print(torch.fft.fft(torch.tensor([1+1j, 0, -1j, 2])), torch.fft.fft(torch.tensor([1, 0, 0, 0])))
m = torch.tensor([[1.0, 0.0, -1.0, 0.0], [0.5, 0.5, 0.5, 0.5]], dtype=torch.float64)
print(torch.fft.fft(m), torch.fft.fft(m, dim=0), torch.fft.rfft(m, dim=1))
print(torch.fft.irfft(torch.tensor([4.0, 0.0, 0.0]), n=4), torch.fft.irfft(torch.tensor([6+0j, -1+1j, -1+0j])))
print(torch.fft.fftfreq(5), torch.fft.fftfreq(4, d=0.5), torch.fft.rfftfreq(6), torch.fft.fftfreq(3, dtype=torch.float64))
t = torch.arange(8, dtype=torch.float32)
s = torch.fft.fft(torch.cos(2 * 3.141592653589793 * t / 8))
print(s.abs() > 1e-3, s.abs().round())
for expr in ["torch.fft.rfft(torch.tensor([1j, 2]))", "torch.fft.fft(x, norm='bad')", "torch.fft.fft(x, n=0)"]:
    try:
        print(expr, eval(expr))
    except Exception as e:
        print(expr, type(e).__name__, e)
