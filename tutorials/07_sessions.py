# Sessions: every cell recorded, %snapshot and %diff of a model, %restore, --replay --verify, %export
#
# Lesson 7 of the nnscope course: `nnscope --lesson sessions`. nnscope records every
# cell you run (this lesson's too) in one SQLite database; the cells marked [nnscope]
# are its session magics, which PyTorch does not have. `.` names this session.

# %% A model and some data; this cell, like every cell, is recorded as it finishes
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(32, 3)
y = x.sum(dim=1, keepdim=True).sin()
print("loss at the start:", F.mse_loss(model(x), y).item())

# %% [nnscope] %snapshot stores the model's state_dict in the session, under a tag
%snapshot model init

# %% Train for a while
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(50):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss after 50 steps:", loss.item())

# %% [nnscope] A second snapshot
%snapshot model trained

# %% [nnscope] %diff: what training changed, tensor by tensor, the largest change first
%diff init trained

# %% [nnscope] %restore loads a snapshot back into the model (strict, as load_state_dict)
%restore model init

# %% [nnscope] Back where it started (an nnscope cell too: PyTorch alone has no %restore to undo the training)
print("loss after %restore:", F.mse_loss(model(x), y).item())

# %% [nnscope] %replay re-runs a session's cells in a fresh nnscope from the recorded random states; --verify compares every output with the recording (from the command line: nnscope --replay NAME --verify)
%replay . --verify

# %% [nnscope] %export writes the session as a script that python3 with PyTorch runs too (or as a Jupyter notebook: FILE.ipynb)
%export . lesson7_export.py

# %% [nnscope] The magics are kept as comments in the script
%cat lesson7_export.py

# %% [nnscope]
%rm lesson7_export.py
