# the pprint module(s), against CPython 3.11
import pprint
cfg = {'model': {'name': 'resnet18', 'layers': [2, 2, 2, 2], 'dropout': 0.1, 'activation': 'relu'},
       'optim': {'lr': 0.001, 'betas': (0.9, 0.999), 'weight_decay': 1e-4, 'name': 'AdamW'},
       'data': {'root': '/data/imagenet', 'batch_size': 256, 'workers': 8, 'augment': ['flip', 'crop', 'jitter']},
       'epochs': 90, 'seed': 42}
pprint.pprint(cfg)
pprint.pprint(cfg, width=40)
pprint.pprint(list(range(40)))
pprint.pprint(list(range(40)), compact=True)
pprint.pprint({'b': 1, 'a': 2}, sort_dicts=False)
pprint.pp({'z': [1, 2], 'a': (3,)})
pprint.pprint([{'id': i, 'tags': ['x' * i, 'y']} for i in range(6)], indent=2)
print(pprint.pformat({'k': 'v' * 100}, width=50))
pprint.pprint(cfg, depth=1)
print(pprint.pformat((1,)), pprint.saferepr({'b': 1, 'a': [1, {'d': 2, 'c': 3}]}), pprint.pformat([]))
pprint.pprint({'words': 'the quick brown fox jumps over the lazy dog ' * 3})
