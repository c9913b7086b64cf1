# Python-heavy utility code: csv round trip with newline='', durations and datetime formats, Enum,
# itertools/functools/heapq/bisect/statistics, textwrap, pprint, deepcopy, Template, custom
# exceptions, contextlib, random, % and f-string formats; checked against python3.
import csv, io, itertools, functools, operator, pprint, textwrap, datetime, enum, heapq, bisect, statistics, string, random, copy, sys
from contextlib import contextmanager, suppress, redirect_stdout

random.seed(0)
# csv round trip through files with newline handling
rows = [{'epoch': i, 'loss': round(1 / (i + 1), 4), 'note': 'ok, fine' if i % 2 else 'a"b'} for i in range(4)]
with open('lang_utility_stdlib.tmp', 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=['epoch', 'loss', 'note'])
    w.writeheader(); w.writerows(rows)
with open('lang_utility_stdlib.tmp', newline='') as f:
    back = list(csv.DictReader(f))
print(back[1], len(back))
with open('lang_utility_stdlib.tmp') as f:
    print([line for line in f][:2])
with open('lang_utility_stdlib.tmp', 'rb') as f:
    print(f.read(30))

# timing / durations
def fmt_time(s):
    m, s = divmod(int(s), 60); h, m = divmod(m, 60)
    return f'{h:d}:{m:02d}:{s:02d}'
print(fmt_time(3725.9), str(datetime.timedelta(seconds=3725)), datetime.timedelta(days=1, seconds=5, microseconds=10))
d = datetime.datetime(2024, 3, 5, 14, 7, 9)
print(d.strftime('%Y%m%d-%H%M%S'), d.isoformat(), (d + datetime.timedelta(hours=12)).strftime('%a %d %b %Y %I:%M%p'))

class Phase(enum.Enum):
    TRAIN = 'train'
    VAL = 'val'
class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2
print(Phase.TRAIN, Phase('val'), repr(Phase.VAL), Phase.TRAIN.value, [p.name for p in Phase], Level.HIGH > Level.LOW, Level(1))

# itertools / functools
print(list(itertools.accumulate([1, 2, 3, 4], operator.mul)), list(itertools.pairwise('abcd')) if hasattr(itertools, 'pairwise') else None)
print(list(itertools.islice(itertools.cycle('ab'), 5)), [list(g) for k, g in itertools.groupby(sorted('aabbcab'))])
print(list(itertools.product('ab', repeat=2)), list(itertools.combinations(range(4), 2))[:3], list(itertools.chain.from_iterable([[1], [2, 3]])))
@functools.lru_cache(maxsize=None)
def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(60), fib.cache_info())
print(functools.reduce(lambda a, b: a * 10 + b, [1, 2, 3]), sorted(['b10', 'a2', 'a10'], key=lambda s: (s[0], int(s[1:]))))
print(heapq.nsmallest(3, [5, 1, 4, 1, 9, 2]), bisect.bisect_left([1, 3, 5, 7], 4), statistics.mean([1, 2, 3, 4]), statistics.pstdev([1, 2, 3, 4]))
print(textwrap.fill('the quick brown fox jumps over the lazy dog ' * 3, width=40))
print(textwrap.shorten('Hello  world, this is a long sentence', width=20))
pprint.pprint({'model': {'layers': [64, 128, 256], 'act': 'relu', 'dropout': 0.1}, 'opt': {'name': 'adam', 'lr': 1e-3, 'betas': (0.9, 0.999)}, 'data': list(range(12))}, width=60)
cfg = {'a': [1, {'b': 2}]}
c2 = copy.deepcopy(cfg); c2['a'][1]['b'] = 3
print(cfg, c2)
tmpl = string.Template('run-$name-${epoch}')
print(tmpl.substitute(name='x', epoch=3), tmpl.safe_substitute(name='y'))

class TrainError(Exception):
    def __init__(self, step, msg):
        super().__init__(f'step {step}: {msg}')
        self.step = step
try:
    raise TrainError(5, 'nan loss')
except TrainError as e:
    print(type(e).__name__, e, e.step, e.args, repr(e))
with suppress(KeyError):
    {}['x']
buf = io.StringIO()
with redirect_stdout(buf):
    print('captured', 1, 2, sep='-')
print(repr(buf.getvalue()))

@contextmanager
def timer(name):
    print('start', name)
    try:
        yield name.upper()
    finally:
        print('end', name)
with timer('epoch') as t:
    print('inside', t)

nums = [random.random() for _ in range(5)]
print(['%.3f' % x for x in nums], random.randint(1, 100), random.choice('abc'), random.sample(range(10), 3))
print(sorted({'b': 1, 'a': 2}.items(), key=operator.itemgetter(1), reverse=True), max([(1, 'a'), (3, 'b')], key=lambda t: t[0]))
print('%-10s|%5.2f|%05d|%x|%r|%%' % ('name', 3.14159, 42, 255, 'q'))
print(f'{1234567.891:,.2f} {0.5:.0%} {12:b} {-3:03d} {"x"!r:>5} {3.0:g} {1e-5:g} {123456789:e}')
vals = {'loss': 0.123456, 'acc': 0.9}
print(' '.join(f'{k}={v:.3f}' for k, v in vals.items()), str(vals), repr(1e22), 1e16, 123456789012345678.0, 0.1 + 0.2, round(2.675, 2), round(0.5), round(1.5))
print(sys.version_info[:2] >= (3, 8), isinstance(sys.argv, list))
