# tqdm.notebook: the console bar (nnscope has no widgets).
from tqdm import tqdm, trange
