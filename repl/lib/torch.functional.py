# torch.functional, the module PyTorch 1.13 defines its Python-level tensor functions in
# (einsum, split, norm, meshgrid, unique, tensordot, cdist, ...). torch re-exports them, so
# here the module names torch's own; tutorials import it (`import torch.functional as F`).
# Not here, as torch has none yet: align_tensors, pca_lowrank, svd_lowrank.
import torch

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors", "cartesian_prod",
           "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu", "norm", "meshgrid", "split", "stft",
           "tensordot", "unique", "unique_consecutive"]

atleast_1d = torch.atleast_1d
atleast_2d = torch.atleast_2d
atleast_3d = torch.atleast_3d
broadcast_shapes = torch.broadcast_shapes
broadcast_tensors = torch.broadcast_tensors
cartesian_prod = torch.cartesian_prod
block_diag = torch.block_diag
cdist = torch.cdist
chain_matmul = torch.chain_matmul
istft = torch.istft
lu = torch.lu
stft = torch.stft
einsum = torch.einsum
norm = torch.norm
meshgrid = torch.meshgrid
split = torch.split
tensordot = torch.tensordot
unique = torch.unique
unique_consecutive = torch.unique_consecutive
