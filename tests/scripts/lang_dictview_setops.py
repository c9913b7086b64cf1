# The set operators of dict views as CPython 3.11's (minGPT's configure_optimizers asserts
# `len(param_dict.keys() - union_params) == 0`): keys and items views against sets, lists
# and other views, from either side; dict_values is not set-like; a non-iterable operand.
d = {'a': 1, 'b': 2, 'c': 3}
e = {'b': 0, 'd': 0}
print(sorted(d.keys() - {'a'}), sorted(d.keys() & ['b', 'z']), sorted(d.keys() | {'x'}), sorted(d.keys() ^ {'a', 'q'}))
print(sorted({'a', 'z'} - d.keys()), sorted(['b', 'z'] & d.keys()), sorted(d.keys() - e.keys()), sorted(d.keys() & e.keys()))
print(sorted(d.items() - {('a', 1)}), sorted(d.items() & {('b', 2), ('c', 4)}), type(d.keys() - set()).__name__)
print(len(d.keys() - set(['a', 'b', 'c'])) == 0, {1: 2, 3: 4}.keys() - {3}, {5: 0}.keys() | {6})
names = {n: i for i, n in enumerate(['w', 'b'])}
decay, no_decay = {'w'}, {'b'}
print(len(names.keys() - (decay | no_decay)), decay & no_decay)
for bad in [lambda: d.values() - {1}, lambda: d.keys() - 5, lambda: 5 & d.keys(), lambda: d.keys() + {'a'}]:
    try:
        bad()
    except TypeError as e:
        print('TypeError:', e)
