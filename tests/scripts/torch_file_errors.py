# expected: by hand — nnscope's own messages for files torch.load refuses (PyTorch's words
# differ, and its weights_only=False would run the file's code); the files are made by
# tests/fixtures/gen_torch_file.py, the same cases as tests/core/test_torch_file.c.
import torch

d = "../fixtures/torch_file/"
for name in ["bad_global.pt", "bad_opcode.pt", "deep.pt"]:
    try:
        torch.load(d + name)
    except UnpicklingError as e:
        print(name, "UnpicklingError:", e)
for name in ["legacy.pt", "truncated.pt", "short_storage.pt", "huge_numel.pt", "huge_size.pt"]:
    try:
        torch.load(d + name)
    except RuntimeError as e:
        print(name, "RuntimeError:", e)
try:
    torch.save({"f": print}, "torch_file_errors.tmp")
except TypeError as e:
    print("TypeError:", e)
try:
    torch.save([1], "no/such/dir/x.pt")
except RuntimeError as e:
    print("RuntimeError:", e)
