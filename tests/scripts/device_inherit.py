# Where tensors are made, said so that the answers are the same whatever the default
# device (tests/run.sh reruns this with the loopback device standing in for CUDA as the
# default): x.new_*() and *_like keep x's device, device='cpu' makes on the CPU,
# torch.save/torch.load keep the device each storage was saved from, map_location moves it.
import torch

cpu = torch.device("cpu")
x = torch.arange(6.).reshape(2, 3)  # on the default device
c = torch.ones(2, 3, device="cpu")  # on the CPU whatever the default
print(c.device == cpu, c.is_cuda)
for t in (x, c):
    made = [t.new_zeros(2), t.new_ones(2, 2), t.new_full((2,), 7.0), t.new_empty(3), t.new_tensor([1, 2]),
            torch.zeros_like(t), torch.ones_like(t), torch.full_like(t, 2), torch.empty_like(t), torch.rand_like(t),
            torch.randn_like(t)]
    print([m.device == t.device for m in made], [str(m.dtype) for m in made[:5]])
    print(t.new_zeros(2, dtype=torch.int64).dtype, t.new_tensor([1, 2], dtype=torch.float64).dtype,
          t.new_tensor([1.5], requires_grad=True).requires_grad)
made = [torch.zeros(2, device="cpu"), torch.ones(2, device=cpu), torch.full((2,), 3, device="cpu"),
        torch.empty(2, device="cpu"), torch.rand(2, device="cpu"), torch.randn(2, device="cpu"),
        torch.randint(5, (2,), device="cpu"), torch.randperm(4, device="cpu"), torch.arange(3, device="cpu"),
        torch.linspace(0, 1, 3, device="cpu"), torch.eye(2, device="cpu"), torch.tensor([1, 2], device="cpu"),
        torch.zeros_like(x, device="cpu"), x.new_zeros(2, device="cpu")]
print([m.device == cpu for m in made])
print(torch.arange(3, device="cpu").tolist(), torch.eye(2, device="cpu").tolist(), torch.full((2,), 3, device="cpu"))

# save and load: each tensor comes back on the device it was saved from
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
state = {"x": x, "c": c, "view": x.t(), "lin": lin.state_dict()}
torch.save(state, "device_inherit.tmp")
back = torch.load("device_inherit.tmp")
print(back["x"].device == x.device, back["c"].device == cpu, back["view"].device == x.device,
      back["lin"]["weight"].device == lin.weight.device)
print(torch.equal(back["x"], x), torch.equal(back["view"], x.t()), torch.equal(back["lin"]["bias"], lin.bias))
back["x"].add_(1)  # the view shares its storage, as saved
print(torch.equal(back["view"], back["x"].t()))
for m in ["cpu", cpu, {"cuda:0": "cpu"}, lambda storage, loc: storage.cpu()]:
    b = torch.load("device_inherit.tmp", map_location=m)
    print(b["x"].device == cpu, b["c"].device == cpu, b["lin"]["weight"].device == cpu, torch.equal(b["x"].cpu(), x.cpu()))

# devices compare and hash by type and index
print(torch.device("cuda", 0) == torch.device("cuda:0"), torch.device("cuda") == torch.device("cuda:0"),
      torch.device("cpu") != torch.device("cuda"), torch.device("cpu") == "cpu", x.device == x.device)
print({torch.device("cuda:0"): 1}[torch.device("cuda", 0)], len({torch.device("cpu"), torch.device("cpu"), cpu}))
