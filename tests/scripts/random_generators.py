import torch
g = torch.Generator()
print(g.initial_seed())
g.manual_seed(3)
print(torch.rand(5, generator=g))
print(torch.randn(20, generator=g)[-3:])
print(torch.randint(0, 10, (6,), generator=g))
print(torch.randperm(7, generator=g))
torch.manual_seed(0)
print(torch.rand(2))
x = torch.empty(4, dtype=torch.float64).exponential_(generator=g)
print(x)
print(torch.empty(3).exponential_(2.0, generator=g))
p = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.multinomial(p, 10, replacement=True, generator=g))
print(torch.multinomial(p, 3, generator=g))
print(torch.multinomial(p, 1, generator=g))
P = torch.tensor([[1., 2., 3.], [0., 5., 1.]])
print(torch.multinomial(p, 1, True, generator=g), torch.multinomial(P, 1, True, generator=g))  # 1.13: the cumulative-distribution path
print(torch.multinomial(P, 2, generator=g))
print(torch.multinomial(P, 5, True, generator=g))
print(torch.multinomial(P.double(), 5, True, generator=g))
print(torch.normal(torch.zeros(3), torch.ones(3) * 2, generator=g))
print(torch.normal(2.0, 3.0, (2, 2), generator=g))
print(torch.normal(torch.arange(20.), 1.0, generator=g)[:4])
print(torch.bernoulli(torch.full((6,), 0.5), generator=g))
print(torch.bernoulli(torch.full((4,), 0.5, dtype=torch.float64), generator=g))
print(torch.empty(5).bernoulli_(0.3, generator=g))
print(torch.empty(3).uniform_(-1, 1, generator=g))
print(torch.empty(3).normal_(generator=g))
print(torch.empty(5, dtype=torch.int64).random_(0, 100, generator=g))
s = g.get_state()
a = torch.rand(3, generator=g)
g.set_state(s)
b = torch.rand(3, generator=g)
print(torch.equal(a, b))
torch.manual_seed(1)
print(torch.multinomial(torch.ones(100), 4))
print(torch.randint_like(torch.zeros(2, 3), 5))
print(torch.randint_like(torch.zeros(4), 3, 9))
for bad in [lambda: torch.multinomial(torch.tensor([1, 2]), 1), lambda: torch.multinomial(p, 0),
            lambda: torch.multinomial(p, 5), lambda: torch.multinomial(torch.tensor([-1., 2.]), 1),
            lambda: torch.multinomial(torch.zeros(3), 2, True), lambda: torch.multinomial(torch.zeros(2,2,2), 1),
            lambda: torch.normal(torch.zeros(2), -torch.ones(2)), lambda: torch.empty(2).exponential_(-1),
            lambda: torch.multinomial(torch.tensor([1., float('nan')]), 1), lambda: torch.multinomial(torch.tensor([1., float('inf')]), 2, True)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
g2 = torch.manual_seed(5)
print(g2.initial_seed(), torch.initial_seed())
print(type(torch.default_generator.seed()).__name__, type(torch.seed()).__name__)
torch.manual_seed(7)
print(torch.default_generator.initial_seed())
h = torch.Generator().manual_seed(11)
print(torch.rand(2, 3, generator=h).shape, h.device)
w = torch.rand(3, 50, generator=h)
print(torch.multinomial(w, 20, generator=h))
print(torch.multinomial(w, 60, replacement=True, generator=h)[:, -5:])
print(w.multinomial(2, generator=h))
print(torch.rand(1000, generator=h).multinomial(1000, generator=h)[:10])
print(torch.full((3, 4), 0.7).bernoulli(generator=h))
print(torch.zeros(4).bernoulli_(torch.tensor([0.1, 0.9, 0.5, 0.5]), generator=h))
s = torch.get_rng_state()
a = torch.randn(4)
torch.set_rng_state(s)
print(torch.equal(a, torch.randn(4)))
try:
    torch.rand(2, generator=5)
except TypeError as e:
    print("TypeError")
# the state is a ByteTensor (uint8), as PyTorch's; set_state takes only that
state = torch.get_rng_state()
print(state.dtype, state.shape, torch.Generator().get_state().dtype)
for bad in [state.long(), state[:10], [1, 2]]:
    try:
        torch.Generator().set_state(bad)
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
