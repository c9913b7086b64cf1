#!/bin/sh
# Tab completion through readline: a unique attribute of `net.` is inserted,
# two Tabs list every candidate of `net.`, a keyword argument inside a call's
# parentheses, a magic after %, a file name inside a string; Tab on an empty
# continuation line indents.
# Usage: sh tests/interactive/complete.sh build/nnscope
. "$(dirname "$0")/lib.sh"

nb_start
nb_type "import torch.nn as nn"; nb_keys Enter
nb_wait "In [2]:"
# each line waits for its prompt: typed ahead of it, a line counts as pasted (no indentation added)
nb_type "class Net(nn.Module):"; nb_keys Enter
nb_wait_count "   ...:" 1
nb_type "def __init__(self):"; nb_keys Enter
nb_wait_count "   ...:" 2
nb_type "super().__init__()"; nb_keys Enter
nb_wait_count "   ...:" 3
nb_type "self.fc1 = nn.Linear(2, 3)"; nb_keys Enter
nb_wait_count "   ...:" 4
nb_type "self.act = nn.ReLU()"; nb_keys Enter BSpace BSpace BSpace BSpace Enter
nb_wait "In [3]:"
nb_type "net = Net()"; nb_keys Enter
nb_wait "In [4]:"

# a unique candidate is inserted: net.fc<Tab> -> net.fc1
nb_type "net.fc"; nb_keys Tab
nb_wait "In [4]: net.fc1"
nb_type ".out_f"; nb_keys Tab
nb_wait "In [4]: net.fc1.out_features"
nb_keys Enter
nb_wait "Out[4]: 3"

# two Tabs list the candidates (attributes, submodules, nn.Module's methods)
nb_type "net."; nb_keys Tab Tab
nb_wait "named_parameters"
screen_has "fc1" && screen_has "act" && screen_has "forward" && screen_has "zero_grad" ||
    fail "net.<Tab><Tab> does not list fc1, act, forward and zero_grad"
nb_keys C-u
nb_type "def scale(value, factor=2):"; nb_keys Enter
nb_wait_count "   ...:" 6
nb_type "return value * factor"; nb_keys Enter Enter
nb_wait "In [6]:"

# keyword arguments of the call the cursor is in
nb_type "scale(3, fac"; nb_keys Tab
nb_wait "In [6]: scale(3, factor="
nb_type "10)"; nb_keys Enter
nb_wait "Out[6]: 30"

# magics after %, file names inside a string
nb_type "%tim"; nb_keys Tab
nb_wait "In [7]: %time"
nb_keys Tab Tab # readline lists on the Tab after one that changed nothing
nb_wait "timeit"
nb_keys C-u
mkdir -p "$HOME/data_dir" && : > "$HOME/data_dir/weights.safetensors"
nb_type "path = '$HOME/data_d"; nb_keys Tab
nb_wait "data_dir/"
nb_type "wei"; nb_keys Tab
nb_wait "data_dir/weights.safetensors"
nb_type "'"; nb_keys Enter
nb_wait "In [7]:"
nb_type "path.endswith('data_dir/weights.safetensors')"; nb_keys Enter
nb_wait "Out[8]: True"

# Tab with only blanks left of the cursor indents (a continuation line)
nb_type "if True:"; nb_keys Enter BSpace BSpace BSpace BSpace Tab
nb_type "y = 5"; nb_keys Enter Enter
nb_wait "In [10]:"
nb_type "y"; nb_keys Enter
nb_wait "Out[10]: 5"
nb_finish
