# math's integer functions on ints of any size, logarithms of big ints, and a
# big int handed to torch (PyTorch 1.13's errors), as CPython 3.11 + PyTorch print.
import math
import torch


def t(name, f):
    try:
        print(name, '->', repr(f()))
    except Exception as e:
        print(name, '->', type(e).__name__, e)


print(math.factorial(21), math.factorial(100) % 10**40, math.factorial(0), len(str(math.factorial(1000))))
print(math.comb(100, 50), math.comb(10**20, 3), math.comb(5, 7), math.perm(30, 20), math.perm(25), math.perm(10**18, 2))
print(math.gcd(2**80, 6**40), math.gcd(-2**70, 3**50 * 2**10), math.gcd(), math.gcd(0, -2**70), math.lcm(2**70, 3**50), math.lcm(-4, 6, 2**65))
print(math.isqrt(10**40), math.isqrt(2**127 - 1), math.isqrt(0), math.isqrt(10**100 - 1))
print(math.log(10**400), math.log(2**1000, 2), math.log10(10**400), math.log2(2**2000), math.log(2**1023), math.log(8, 2**3))
print(math.log(3**1000, 3**10), math.log10(2**64), math.log2(3**700), math.log1p(2**70), math.exp(-2**70 + 2**70))
print(math.floor(2**70), math.trunc(-2**70), math.ceil(2.0**70), math.floor(1e300) == 10**300, math.floor(-1.5e30), type(math.ceil(1e20)))
print(math.sqrt(2**100), math.fabs(-2**70), math.prod([2**40, 2**40, 3]), math.fsum([2**70, 1.5]), math.isclose(2**70, 2.0**70))
t("math.factorial(-1)", lambda: math.factorial(-1))
t("math.factorial(2**70)", lambda: math.factorial(2**70))
t("math.factorial(-2**70)", lambda: math.factorial(-2**70))
t("math.factorial(2.0)", lambda: math.factorial(2.0))
t("math.comb(-1, 2)", lambda: math.comb(-1, 2))
t("math.comb(5, -2**70)", lambda: math.comb(5, -2**70))
t("math.perm(5, 1.5)", lambda: math.perm(5, 1.5))
t("math.gcd(1.5, 2)", lambda: math.gcd(1.5, 2))
t("math.isqrt(-1)", lambda: math.isqrt(-1))
t("math.isqrt(-2**70)", lambda: math.isqrt(-2**70))
t("math.log(-2**70)", lambda: math.log(-2**70))
t("math.log(0)", lambda: math.log(0))
t("math.log10(-10**400)", lambda: math.log10(-10**400))
t("math.log(2**70, 1)", lambda: math.log(2**70, 1))
t("math.sqrt(10**400)", lambda: math.sqrt(10**400))
t("math.exp(2**70)", lambda: math.exp(2**70))

t("torch.tensor([2**63])", lambda: torch.tensor([2**63]))
t("torch.tensor(2**63)", lambda: torch.tensor(2**63))
t("torch.tensor([1, -2**64])", lambda: torch.tensor([1, -2**64]))
t("torch.tensor([2**63 - 1])", lambda: torch.tensor([2**63 - 1]))
t("torch.zeros(2**63)", lambda: torch.zeros(2**63))
t("torch.ones(2**63, 2)", lambda: torch.ones(2**63, 2))
t("torch.ones(3).view(2**63)", lambda: torch.ones(3).view(2**63))
t("torch.ones(3)[2**63]", lambda: torch.ones(3)[2**63])
t("torch.ones(3) + 2**63", lambda: torch.ones(3) + 2**63)
t("2**70 * torch.ones(3)", lambda: 2**70 * torch.ones(3))
t("torch.full((2,), 2**63)", lambda: torch.full((2,), 2**63))
t("torch.randn(3).sum(dim=2**63)", lambda: torch.randn(3).sum(dim=2**63))
t("torch.arange(2**63)", lambda: torch.arange(2**63))
t("int64 * 2**62", lambda: torch.ones(2, dtype=torch.int64) * 2**62)
t("(2**62 * torch.ones(1, dtype=torch.int64)).item() * 4", lambda: (2**62 * torch.ones(1, dtype=torch.int64)).item() * 4)
