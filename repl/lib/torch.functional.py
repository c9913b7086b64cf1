# torch.functional, the module PyTorch 1.13 defines its Python-level tensor functions in
# (einsum, split, norm, meshgrid, unique, tensordot, cdist, ...). torch re-exports them, so
# here the module names torch's own; tutorials import it (`import torch.functional as F`).
# Not here, as torch has none yet: align_tensors, chain_matmul, istft, lu, pca_lowrank, stft,
# svd_lowrank.
import torch

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors", "cartesian_prod",
           "block_diag", "cdist", "einsum", "norm", "meshgrid", "split", "tensordot", "unique", "unique_consecutive"]

atleast_1d = torch.atleast_1d
atleast_2d = torch.atleast_2d
atleast_3d = torch.atleast_3d
broadcast_shapes = torch.broadcast_shapes
broadcast_tensors = torch.broadcast_tensors
cartesian_prod = torch.cartesian_prod
block_diag = torch.block_diag
cdist = torch.cdist
einsum = torch.einsum
norm = torch.norm
meshgrid = torch.meshgrid
split = torch.split
tensordot = torch.tensordot
unique = torch.unique
unique_consecutive = torch.unique_consecutive
