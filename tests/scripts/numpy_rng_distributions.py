# np.random.default_rng's distributions as NumPy 1.24 draws them, bit for bit:
# standard_exponential/exponential (its ziggurat, tables read from NumPy by
# tests/fixtures/gen_np_ziggurat.py), standard_gamma/gamma (Marsaglia-Tsang and the
# shape < 1 rejection), chisquare, beta (Johnk's and the gamma ratio), poisson (the
# multiplication method and PTRS), binomial (inversion), bytes; array parameters
# broadcast one value per draw; bit_generator.state read and written;
# SeedSequence.spawn; NumPy's errors.
import numpy as np

for seed in [0, 7, 2 ** 40]:
    rng = np.random.default_rng(seed)
    print(rng.standard_exponential(), rng.standard_exponential(4))
    print(rng.exponential(2.0, size=3), rng.exponential(scale=[1.0, 10.0, 100.0]))
    print(rng.standard_gamma(0.5, 3), rng.standard_gamma(3.0, size=(2, 2)), rng.standard_gamma(1.0))
    print(rng.gamma(2.0, 2.0, size=4), rng.gamma([0.3, 5.0], 1.5))
    print(rng.chisquare(3, size=3), rng.chisquare(0.5))
    print(rng.beta(0.5, 0.5, size=3), rng.beta(2.0, 5.0, size=3), rng.beta([0.2, 3.0], [0.9, 4.0]))
    print(rng.poisson(3.0, size=6), rng.poisson(25.5, size=6), rng.poisson([0.0, 1.0, 100.0]), rng.poisson())
    print(rng.binomial(10, 0.3, size=6), rng.binomial(20, 0.9, size=4), rng.binomial([5, 50], [0.5, 0.01]), rng.binomial(0, 0.5))
    print(rng.bytes(10), rng.random())
rng = np.random.default_rng(3)
e = rng.standard_exponential(100000)
print(float(e.sum()), float(e.max()), float(rng.gamma(0.1, size=20000).sum()), int(rng.poisson(40.0, size=20000).sum()))
s = rng.bit_generator.state
print(s['bit_generator'], s['has_uint32'], s['uinteger'], sorted(s['state']))
first = rng.normal(size=3)
rng.bit_generator.state = s
print(first.tolist() == rng.normal(size=3).tolist())
rng.bytes(1)
print(rng.bit_generator.state['has_uint32'], rng.bit_generator.state['uinteger'])
print(np.random.default_rng(12).bit_generator.state)
ss = np.random.SeedSequence(5)
children = ss.spawn(2)
print(children, ss.n_children_spawned, ss.spawn(1)[0].spawn_key)
print([np.random.default_rng(c).integers(0, 100, size=3).tolist() for c in children])
print(np.random.default_rng(children[0]).random(2), np.random.SeedSequence(5, spawn_key=(1,)).generate_state(2))
for bad in [lambda: rng.exponential(-1.0), lambda: rng.gamma(-1.0), lambda: rng.gamma(1.0, -2.0),
            lambda: rng.beta(0.0, 1.0), lambda: rng.beta(1.0, -1.0), lambda: rng.poisson(-1.0),
            lambda: rng.binomial(-1, 0.5), lambda: rng.binomial(5, 1.5), lambda: rng.chisquare(0),
            lambda: setattr(rng.bit_generator, 'state', {'bit_generator': 'MT19937'})]:
    try:
        bad()
    except ValueError as e:
        print('ValueError:', e)
