# torch.fft's Hermitian transforms (hfft, ihfft, hfft2, ihfft2, hfftn, ihfftn) and the signed zeros
# of inverse transforms of real signals, against PyTorch 1.13.
import torch
torch.manual_seed(0)
t = torch.arange(5.)
print(torch.fft.ifft(t))
print(torch.fft.fft(t))
print(torch.fft.ihfft(t))
print(torch.fft.ihfft(t, n=8, norm="ortho"))
T = torch.fft.ifft(t)
print(torch.fft.hfft(T[:3], n=5))
print(torch.fft.hfft(T[:3]))
print(torch.fft.hfft(T[:3], norm="forward"))
x = torch.rand(4, 6, dtype=torch.float64)
print(torch.fft.ihfft2(x))
print(torch.fft.ihfftn(x, dim=0))
h = torch.fft.ihfft2(x)
print(torch.fft.hfft2(h, s=x.shape))
print(torch.fft.hfftn(h, s=x.shape, norm="ortho"))
print(torch.fft.hfft2(h).shape, torch.fft.hfftn(h).shape)
print(torch.fft.hfftn(torch.rand(3, 4)).dtype, torch.fft.hfft(torch.rand(3)).dtype)
for f in [lambda: torch.fft.ihfft(torch.zeros(3, dtype=torch.complex64)),
          lambda: torch.fft.ihfftn(torch.zeros(3, dtype=torch.complex64)),
          lambda: torch.fft.hfft(T, norm="bad"),
          lambda: torch.fft.ihfft2(torch.zeros(3)),]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
y = torch.rand(6, requires_grad=True)
torch.fft.ihfft(y).abs().sum().backward()
print(y.grad)
z = torch.randn(4, dtype=torch.complex64, requires_grad=True)
torch.fft.hfft(z).pow(2).sum().backward()
print(z.grad)
