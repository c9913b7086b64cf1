# tqdm.auto: tqdm and trange (the console bar: there is no notebook widget).
from tqdm import tqdm, trange
