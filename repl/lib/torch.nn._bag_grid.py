# nn.EmbeddingBag / F.embedding_bag and F.grid_sample / F.affine_grid, written in the language
# over the built-in ops (embedding, index_add, gather, where, bmm: each runs its kernel behind
# core's kernel boundary), as PyTorch 1.13 computes them:
#   embedding_bag  the bags' rows gathered by F.embedding, summed into their bag by index_add
#                  (mean: divided by the bag's count; max: each bag's max), padding_idx's entries
#                  left out of every reduction, an empty bag zeros
#   grid_sample    ATen's GridSampler.h: the grid unnormalised (align_corners), border/reflection
#                  padding applied to the coordinates (their gradient zero at and past the clip
#                  limits, as ATen's *_set_grad helpers), then the corners (bilinear), the nearest
#                  pixel (round half to even) or the 4x4 taps of the cubic convolution (A = -0.75)
#                  gathered from the input, out-of-bounds taps zero
#   affine_grid    the base grid of linspace(-1, 1) (scaled by (n-1)/n without align_corners)
#                  times theta's transpose
# Autograd comes from the ops they are made of (grad_fn names are those ops', not PyTorch's).
import warnings
import torch
from torch import nn
import torch.nn.functional as F
from torch.nn._grad_names import grad_fn_name


def _size_list(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


# ---------------------------------------------------------------- embedding_bag

@grad_fn_name("EmbeddingBagBackward0")
def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. "
                      "Usage `embedding_bag(weight, input, ...)` is deprecated, "
                      "and should now be `embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError("embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape as "
                         "the input ({})".format(per_sample_weights.shape, input.shape))
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type {}".format(str(type(offsets))))
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError("input has to be 1D or 2D Tensor, but got Tensor of dimension {}".format(input.dim()))
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='{}'). Please open a feature request on "
                                  "GitHub.".format(mode))
    for name, t in (("indices", input), ("offsets", offsets)):
        if t.dtype not in (torch.int64, torch.int32):
            raise RuntimeError("Expected tensor for argument #{} '{}' to have one of the following scalar types: "
                               "Long, Int; but got {} instead (while checking arguments for embedding_bag)".format(
                                   1 if name == "indices" else 2, name, t.type()))
    n = input.numel()
    num = weight.size(0)
    idx = input.long()
    offs = offsets.tolist()
    if offs and offs[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           "position 0. However, got {}".format(offs[0]))
    if offs and offs[-1] > n:
        raise RuntimeError("offsets[-1] can not be greater than input's length {} but got offsets[-1] of {}".format(
            n, offs[-1]))
    bags = len(offs) - 1 if include_last_offset else len(offs)
    if bags < 0:
        bags = 0
    end = offs[-1] if include_last_offset and offs else n
    bad = ((idx < 0) | (idx >= num)) & (torch.arange(n, device=idx.device) < end)
    if bad.any():
        p = int(bad.nonzero()[0, 0].item())
        raise RuntimeError("[enforce fail at embedding_lookup_idx.cc:214] 0 <= idx && idx < data_size. Index {} "
                           "is out of bounds: {}, range 0 to {}".format(p, int(idx[p].item()), num))
    if max_norm is not None:  # embedding_renorm_: each row looked up scaled to max_norm, in place
        with torch.no_grad():
            for r in sorted(set(idx[:end].tolist())):
                norm = weight[r].norm(p=norm_type).item()
                if norm > max_norm:
                    weight[r] *= max_norm / (norm + 1e-7)
    # bag of each position; positions past the last bag and padding_idx's left out
    positions = torch.arange(n, device=idx.device)  # on the input's device, as ATen's, whatever the default
    bag = torch.bucketize(positions, torch.tensor(offs[:bags], dtype=torch.int64, device=idx.device), right=True) - 1
    keep = positions < end
    if padding_idx is not None:
        keep = keep & (idx != padding_idx)
    kidx, kbag = idx[keep], bag[keep]
    # index_select's backward is differentiable (double backward); F.embedding's scales by frequency
    rows = F.embedding(kidx, weight, None, None, 2.0, True) if scale_grad_by_freq else weight.index_select(0, kidx)
    dim = weight.size(1)
    if mode == "max":
        starts = torch.zeros(bags + 1, dtype=torch.int64, device=idx.device).index_add(0, kbag + 1, torch.ones_like(kbag)).cumsum(0)
        starts = starts.tolist()
        out = []
        for b in range(bags):
            if starts[b + 1] > starts[b]:
                out.append(rows[starts[b]:starts[b + 1]].max(0)[0])
            else:
                out.append(weight.new_zeros(dim))
        return torch.stack(out) if out else weight.new_zeros(0, dim)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[keep].unsqueeze(1)
    out = weight.new_zeros(bags, dim).index_add(0, kbag, rows)
    if mode == "mean":
        counts = weight.new_zeros(bags).index_add(0, kbag, weight.new_ones(kbag.numel()))
        out = out / counts.clamp(min=1).unsqueeze(1)
    return out


class EmbeddingBag(nn.Module):
    __module__ = 'torch.nn.modules.sparse'
    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2., scale_grad_by_freq=False,
                 mode='mean', sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < self.num_embeddings, 'padding_idx must be within num_embeddings'
            elif padding_idx < 0:
                assert padding_idx >= -self.num_embeddings, 'padding_idx must be within num_embeddings'
                padding_idx = self.num_embeddings + padding_idx
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = nn.Parameter(torch.empty((num_embeddings, embedding_dim), dtype=dtype))
            self.reset_parameters()
        else:
            assert list(_weight.shape) == [num_embeddings, embedding_dim], \
                'Shape of weight does not match num_embeddings and embedding_dim'
            self.weight = nn.Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self):
        nn.init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self):
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                             self.mode, self.sparse, per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self):
        s = '{}, {}'.format(self.num_embeddings, self.embedding_dim)
        if self.max_norm is not None:
            s += ', max_norm={}'.format(self.max_norm)
        if self.norm_type != 2:
            s += ', norm_type={}'.format(self.norm_type)
        if self.scale_grad_by_freq is not False:
            s += ', scale_grad_by_freq={}'.format(self.scale_grad_by_freq)
        s += ', mode={}'.format(self.mode)
        if self.padding_idx is not None:
            s += ', padding_idx={}'.format(self.padding_idx)
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2., scale_grad_by_freq=False,
                        mode='mean', sparse=False, include_last_offset=False, padding_idx=None):
        assert embeddings.dim() == 2, 'Embeddings parameter is expected to be 2-dimensional'
        rows, cols = embeddings.shape
        bag = cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, max_norm=max_norm,
                  norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                  include_last_offset=include_last_offset, padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag


# ---------------------------------------------------------------- grid_sample / affine_grid

_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                  "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                  "grid_sample for details.")


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _clip(coord, size):
    # clamp to [0, size - 1]; the gradient is zero at and past either limit (clip_coordinates_set_grad)
    zero = torch.zeros_like(coord)
    inside = (coord > 0) & (coord < size - 1)
    return torch.where(inside, coord, torch.where(coord <= 0, zero, zero + (size - 1)))


def _reflect(coord, twice_low, twice_high):
    if twice_low == twice_high:
        return torch.zeros_like(coord)
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    c = (coord - low).abs()
    extra = torch.fmod(c, span)
    flips = torch.floor(c / span)
    even = torch.fmod(flips, 2) == 0
    return torch.where(even, extra + low, span - extra + low)


def _pad_coords(coord, size, padding_mode, align_corners):
    if padding_mode == "border":
        return _clip(coord, size)
    if padding_mode == "reflection":
        if align_corners:
            coord = _reflect(coord, 0, 2 * (size - 1))
        else:
            coord = _reflect(coord, -1, 2 * size - 1)
        return _clip(coord, size)
    return coord


def _gather(flat, sizes, pos):
    # flat [N, C, prod(sizes)]; pos: integer-valued float coordinates, one tensor [N, *out] per spatial dim
    # (last dim first: x, y[, z]); out-of-bounds positions read zero
    inb = None
    lin = None
    stride = 1
    for d, p in enumerate(pos):
        size = sizes[len(sizes) - 1 - d]
        ok = (p >= 0) & (p <= size - 1)
        inb = ok if inb is None else inb & ok
        term = p.clamp(0, size - 1).long() * stride
        lin = term if lin is None else lin + term
        stride *= size
    N, C = flat.shape[0], flat.shape[1]
    out_shape = list(lin.shape[1:])
    v = flat.gather(2, lin.reshape(N, 1, -1).expand(N, C, lin[0].numel())).reshape([N, C] + out_shape)
    return torch.where(inb.unsqueeze(1), v, torch.zeros_like(v))


def _cubic_coeffs(t):
    A = -0.75
    x1 = t
    x2 = 1 - t
    c0 = ((A * (x1 + 1) - 5 * A) * (x1 + 1) + 8 * A) * (x1 + 1) - 4 * A
    c1 = ((A + 2) * x1 - (A + 3)) * x1 * x1 + 1
    c2 = ((A + 2) * x2 - (A + 3)) * x2 * x2 + 1
    c3 = ((A * (x2 + 1) - 5 * A) * (x2 + 1) + 8 * A) * (x2 + 1) - 4 * A
    return [c0, c1, c2, c3]


@grad_fn_name(lambda input, *a, **k: "GridSampler3DBackward0" if input.dim() == 5 else "GridSampler2DBackward0")
def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    if mode != "bilinear" and mode != "nearest" and mode != "bicubic":
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         "got: '{}'".format(mode))
    if padding_mode != "zeros" and padding_mode != "border" and padding_mode != "reflection":
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         "'reflection', but got: '{}'".format(padding_mode))
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING)
        align_corners = False
    if input.dtype != grid.dtype:
        raise RuntimeError("expected scalar type {} but found {}".format(input.type()[6:-6], grid.type()[6:-6]))
    if input.size(0) != grid.size(0):
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, but got input with "
                           "sizes {} and grid with sizes {}".format(_size_list(input), _size_list(grid)))
    k = input.dim() - 2
    if grid.size(-1) != k:
        raise RuntimeError("grid_sampler(): expected grid to have size {} in last dimension, but got grid with sizes "
                           "{}".format(k, _size_list(grid)))
    for d in range(2, input.dim()):
        if input.size(d) == 0:
            raise RuntimeError("grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               "sizes {} with dimension {} being empty".format(_size_list(input), d))
    if input.dim() not in (4, 5) or grid.dim() != input.dim():
        raise RuntimeError("grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but "
                           "got input with sizes {} and grid with sizes {}".format(_size_list(input),
                                                                                   _size_list(grid)))
    if mode == "bicubic" and k != 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if not input.is_floating_point():
        raise RuntimeError("grid_sampler_{}d_cpu not implemented for {}".format(k, input.type()[6:-6]))
    sizes = list(input.shape[2:])  # [D,] H, W
    N, C = input.size(0), input.size(1)
    flat = input.reshape(N, C, -1)
    # coordinates, x (the last spatial dim) first
    coords = [_unnormalize(grid[..., d], sizes[k - 1 - d], align_corners) for d in range(k)]
    if mode == "bicubic":
        base = [torch.floor(c) for c in coords]
        tx, ty = coords[0] - base[0], coords[1] - base[1]
        cx, cy = _cubic_coeffs(tx), _cubic_coeffs(ty)
        out = None
        for j in range(4):
            yj = _pad_coords(base[1].detach() - 1 + j, sizes[0], padding_mode, align_corners)
            row = None
            for i in range(4):
                xi = _pad_coords(base[0].detach() - 1 + i, sizes[1], padding_mode, align_corners)
                term = _gather(flat, sizes, [xi, yj]) * cx[i].unsqueeze(1)
                row = term if row is None else row + term
            term = row * cy[j].unsqueeze(1)
            out = term if out is None else out + term
        return out
    coords = [_pad_coords(coords[d], sizes[k - 1 - d], padding_mode, align_corners) for d in range(k)]
    if mode == "nearest":
        out = _gather(flat, sizes, [torch.round(c).detach() for c in coords])
        if grid.requires_grad:  # the grid's gradient is zero (not None), as ATen's backward gives it
            out = out + (torch.where(torch.isfinite(grid), grid, torch.zeros_like(grid)) * 0).sum()
        return out
    base = [torch.floor(c).detach() for c in coords]
    out = None
    for corner in range(1 << k):
        # x varies fastest: nw, ne, sw, se (2-d); tnw ... bse (3-d)
        pos, w = [], None
        for d in range(k):
            hi = (corner >> d) & 1
            pos.append(base[d] + hi)
            wd = coords[d] - base[d] if hi else base[d] + 1 - coords[d]
            w = wd if w is None else w * wd
        term = _gather(flat, sizes, pos) * w.unsqueeze(1)
        out = term if out is None else out + term
    return out


def _linspace_from_neg_one(num_steps, align_corners, dtype, device):
    if num_steps <= 1:
        return torch.tensor(0, dtype=dtype, device=device)
    r = torch.linspace(-1, 1, num_steps, dtype=dtype, device=device)
    if not align_corners:
        r = r * (num_steps - 1) / num_steps
    return r


@grad_fn_name("AffineGridGeneratorBackward0")
def affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError("Expected theta to have floating point type, but got {}".format(theta.dtype))
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError("Expected a batch of 2D affine matrices of shape Nx2x3 for size {}. Got {}.".format(
                size, theta.shape))
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError("Expected a batch of 3D affine matrices of shape Nx3x4 for size {}. Got {}.".format(
                size, theta.shape))
        spatial_size = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  "respectively. Got size {}.".format(size))
    if align_corners and min(spatial_size) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.")
    elif min(size) <= 0:
        raise ValueError("Expected non-zero, positive output size. Got {}".format(size))
    N = size[0]
    if theta.size(0) != N:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}]."
                           .format(N, theta.size(2), theta.size(0), theta.size(2)))
    dt, dev = theta.dtype, theta.device  # the base grid on theta's device, whatever the default
    if len(size) == 4:
        H, W = size[2], size[3]
        xs = _linspace_from_neg_one(W, align_corners, dt, dev).reshape(1, -1).expand(H, W)
        ys = _linspace_from_neg_one(H, align_corners, dt, dev).reshape(-1, 1).expand(H, W)
        base = torch.stack([xs, ys, torch.ones(H, W, dtype=dt, device=dev)], 2)
        return base.reshape(1, H * W, 3).expand(N, H * W, 3).bmm(theta.transpose(1, 2)).reshape(N, H, W, 2)
    D, H, W = size[2], size[3], size[4]
    xs = _linspace_from_neg_one(W, align_corners, dt, dev).reshape(1, 1, -1).expand(D, H, W)
    ys = _linspace_from_neg_one(H, align_corners, dt, dev).reshape(1, -1, 1).expand(D, H, W)
    zs = _linspace_from_neg_one(D, align_corners, dt, dev).reshape(-1, 1, 1).expand(D, H, W)
    base = torch.stack([xs, ys, zs, torch.ones(D, H, W, dtype=dt, device=dev)], 3)
    return base.reshape(1, D * H * W, 4).expand(N, D * H * W, 4).bmm(theta.transpose(1, 2)).reshape(N, D, H, W, 3)
