# torch.stft and torch.istft as PyTorch 1.13 computes them (torch/functional.py's padding, then
# ATen's SpectralOps.cpp): frames of the (centre-padded) signal as a strided view, times the
# window (centred in n_fft), through rfft/fft; istft's inverse transforms overlap-added in frame
# order and divided by the window's squared envelope. Their messages and warnings are 1.13's.
# The transforms are nnscope's torch.fft, not MKL's: numbers agree to a few float32 ulps.
import warnings
import torch
import torch.nn.functional as F

_warned = set()


def _warn_once(key, message):
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=3)


def _opt(v):
    return 'None' if v is None else str(int(v))


def _type_str(t):
    if t.is_complex():
        return 'CPUComplex{}Type'.format('Float' if t.dtype == torch.complex64 else 'Double')
    return t.type()


def _window_str(window):
    return 'None' if window is None else '{}{{{}}}'.format(window.type(), list(window.shape))


def _full_window(window, win_length, n_fft, like):
    # the window (ones when None) centred in n_fft zeros, or None for a rectangular n_fft window
    if win_length >= n_fft:
        return window
    left = (n_fft - win_length) // 2
    if window is None:
        full = torch.zeros(n_fft, dtype=like.dtype if not like.is_complex() else like.real.dtype)
        full[left:left + win_length] = 1
        return full
    full = torch.zeros(n_fft, dtype=window.dtype)
    full[left:left + win_length] = window
    return full


def _pad(x, pad, mode):
    if x.is_complex():  # each part padded
        return torch.complex(_pad(x.real, pad, mode), _pad(x.imag, pad, mode))
    return F.pad(x, [pad, pad], mode)


def _frames(x, frames, n_fft, hop):
    # [batch, frames, n_fft]: frame i starts hop * i along x's last dim (a strided view)
    if x.is_complex():
        return torch.complex(_frames(x.real, frames, n_fft, hop), _frames(x.imag, frames, n_fft, hop))
    return x.as_strided((x.size(0), frames, n_fft), (x.stride(0), hop * x.stride(1), x.stride(1)), x.storage_offset())


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode='reflect',
         normalized=False, onesided=None, return_complex=None):
    if center:
        signal_dim = input.dim()
        extended_shape = [1] * (3 - signal_dim) + list(input.size())
        pad = int(n_fft // 2)
        input = _pad(input.view(extended_shape), pad, pad_mode)
        input = input.view(input.shape[-signal_dim:])
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if return_complex is None:
        return_complex = input.is_complex() or (window is not None and window.is_complex())
        if not return_complex:
            _warn_once('stft', 'stft will soon require the return_complex parameter be given for real inputs, and '
                       'will further require that return_complex=True in a future PyTorch release. (Triggered '
                       'internally at  ./aten/src/ATen/native/SpectralOps.cpp:801.)')
        given_complex = None
    else:
        given_complex = return_complex

    def fail(what):
        raise RuntimeError('stft({}{}, n_fft={}, hop_length={}, win_length={}, window={}, normalized={}, onesided={}, '
                           'return_complex={}) : {}'.format(_type_str(input), list(input.shape), n_fft, hop, win,
                                                            _window_str(window), int(normalized), _opt(onesided),
                                                            _opt(given_complex), what))
    if not (input.is_floating_point() or input.is_complex()):
        fail('expected a tensor of floating point or complex values')
    if input.dim() > 2 or input.dim() < 1:
        fail('expected a 1D or 2D tensor')
    x = input.unsqueeze(0) if input.dim() == 1 else input
    batch, length = x.shape
    if n_fft <= 0 or n_fft > length:
        fail('expected 0 < n_fft < {}, but got n_fft={}'.format(length, n_fft))
    if hop <= 0:
        fail('expected hop_length > 0, but got hop_length={}'.format(hop))
    if win <= 0 or win > n_fft:
        fail('expected 0 < win_length <= n_fft, but got win_length={}'.format(win))
    if window is not None and (window.dim() != 1 or window.size(0) != win):
        fail('expected a 1D window tensor of size equal to win_length={}, but got window with size {}'.format(
            win, list(window.shape)))
    full = _full_window(window, win, n_fft, x)
    frames = 1 + (length - n_fft) // hop
    x = _frames(x, frames, n_fft, hop)
    if full is not None:
        x = x.mul(full)
    complex_fft = x.is_complex()
    if onesided is None:
        onesided = not complex_fft
    norm = 'ortho' if normalized else 'backward'
    if complex_fft:
        if onesided:
            raise RuntimeError('Cannot have onesided output if window or input is complex')
        out = torch.fft.fft(x, dim=-1, norm=norm)
    elif onesided:
        out = torch.fft.rfft(x, dim=-1, norm=norm)
    else:
        out = torch.fft.fft(x, dim=-1, norm=norm)
    out = out.transpose(1, 2)
    if input.dim() == 1:
        out = out.squeeze(0)
    return out if return_complex else torch.view_as_real(out)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=None, length=None, return_complex=False):
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not input.is_complex():
        _warn_once('istft', 'istft will require a complex-valued input tensor in a future PyTorch release. Matching '
                   'the output from stft with return_complex=True.  (Triggered internally at  '
                   './aten/src/ATen/native/SpectralOps.cpp:978.)')
        if input.size(-1) != 2:
            raise RuntimeError('stft input must be a complex tensor or a real tensor with a last dimension of size 2')
        input = torch.view_as_complex(input.contiguous())
    frames, fft_size = input.size(-1), input.size(-2)
    expected_len = n_fft + hop * (frames - 1)

    def fail(what):
        raise RuntimeError('istft({}{}, n_fft={}, hop_length={}, win_length={}, window={}, center={}, normalized={}, '
                           'onesided={}, length={}, return_complex={}) {}'.format(
                               _type_str(input), list(input.shape), n_fft, hop, win, _window_str(window), int(center),
                               int(normalized), _opt(onesided), _opt(length), int(return_complex), what))
    if input.numel() == 0:
        fail(': input tensor cannot be empty.')
    if input.dim() not in (2, 3):
        fail(': expected a tensor with 3 or 4 dimensions of complex, but got {}'.format(input.dim()))
    one_sided = fft_size != n_fft if onesided is None else onesided
    if one_sided and n_fft // 2 + 1 != fft_size:
        fail(': expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 when '
             'onsided=True, but got {}'.format(fft_size))
    if not one_sided and n_fft != fft_size:
        fail(': expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when '
             'onsided=False, but got {}'.format(fft_size))
    if not (0 < hop <= win):
        fail(': expected 0 < hop_length <= win_length')
    if not (0 < win <= n_fft):
        fail(': expected 0 < win_length <= n_fft')
    if window is not None and (window.dim() != 1 or window.size(0) != win):
        fail(': Invalid window shape. window has to be 1D and length of `win_length`')
    real_dtype = input.real.dtype
    w = window if window is not None else torch.ones(win, dtype=real_dtype)
    if win != n_fft:
        left = (n_fft - win) // 2
        w = F.pad(w, [left, n_fft - win - left])
    x = input.unsqueeze(0) if input.dim() == 2 else input
    x = x.transpose(1, 2)
    norm = 'ortho' if normalized else 'backward'
    if return_complex:
        if one_sided:
            raise RuntimeError('Cannot have onesided output if window or input is complex')
        x = torch.fft.ifft(x, dim=-1, norm=norm)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError('Complex windows are incompatible with return_complex=False')
        if not one_sided:
            x = x.narrow(-1, 0, n_fft // 2 + 1)
        x = torch.fft.irfft(x, n=n_fft, dim=-1, norm=norm)
    y_frames = x * w.view(1, 1, n_fft)
    y = _overlap_add(y_frames, expected_len, n_fft, hop)
    envelope = _overlap_add(w.pow(2).expand(1, frames, n_fft), expected_len, n_fft, hop)
    start = n_fft // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = -(n_fft // 2)
    else:
        end = expected_len
    y = y[:, start:end]
    envelope = envelope[:, start:end]
    if bool(envelope.abs().min() < 1e-11):
        fail('window overlap add min: 1\n[ CPUBoolType{} ]')
    y = y / envelope
    if input.dim() == 2:
        y = y.squeeze(0)
    if end > expected_len:
        _warn_once('istft_length', 'The length of signal is shorter than the length parameter. Result is being padded '
                   'with zeros in the tail. Please check your center and hop_length settings. (Triggered internally '
                   'at  ./aten/src/ATen/native/SpectralOps.cpp:1117.)')
        y = F.pad(y, [0, end - expected_len])
    return y


def _overlap_add(frames, total, n_fft, hop):
    # ATen's unfold_backward: each place the sum of the frames over it, in frame order
    y = torch.zeros(frames.size(0), total, dtype=frames.dtype)
    for i in range(frames.size(1)):
        y[:, i * hop:i * hop + n_fft] = y[:, i * hop:i * hop + n_fft] + frames[:, i]
    return y
