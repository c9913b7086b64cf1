# The Tensor samplers' argument-type errors in PyTorch 1.13's words: "must be
# float", with "(position N)" only for a value passed by position.
import torch

x = torch.zeros(3)
cases = [
    ('normal_', lambda: x.normal_(1, 'a')),
    ('normal_None', lambda: x.normal_(1, None)),
    ('normal_kw', lambda: x.normal_(mean='a')),
    ('uniform_', lambda: x.uniform_('a')),
    ('uniform_2', lambda: x.uniform_(0, 'b')),
    ('uniform_kw', lambda: x.uniform_(to=[1])),
    ('exponential_', lambda: x.exponential_('a')),
    ('exponential_kw', lambda: x.exponential_(lambd='a')),
    ('cauchy_', lambda: x.cauchy_('a')),
    ('cauchy_2', lambda: x.cauchy_(0, [1])),
    ('geometric_', lambda: x.geometric_('a')),
    ('geometric_None', lambda: x.geometric_(None)),
    ('log_normal_', lambda: x.log_normal_('a')),
    ('log_normal_kw', lambda: x.log_normal_(std='q')),
    ('normal_gen', lambda: x.normal_(generator=1)),
    ('uniform_gen', lambda: x.uniform_(generator='g')),
    ('multinomial', lambda: torch.multinomial(x + 1, 'a')),
    ('randint', lambda: torch.randint('a', (2,))),
    ('randperm', lambda: torch.randperm('a')),
    ('poisson', lambda: torch.poisson('a')),
]
for name, f in cases:
    try:
        f()
        print(name, 'no error')
    except Exception as e:
        print(name, type(e).__name__, e)
print(x)
