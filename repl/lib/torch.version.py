# torch.version: the version of the PyTorch whose behaviour nnscope follows, and no CUDA.
__version__ = '1.13.0'
debug = False
cuda = None
git_version = None
hip = None
