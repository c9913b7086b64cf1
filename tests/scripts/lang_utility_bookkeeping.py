# Python-heavy training utility code (config with argparse/dataclass/ChainMap, SmoothedValue and
# a MetricLogger, a hand-made progress bar and table, checkpoint rotation with pathlib/pickle/json,
# logging, Counter/OrderedDict, json) as such scripts are written; checked against python3.
import argparse, json, os, pickle, time, math, logging, sys, io, re, shutil, tempfile
from pathlib import Path
from collections import defaultdict, OrderedDict, deque, Counter, namedtuple, ChainMap
from dataclasses import dataclass, field, asdict
from typing import Dict, List, Optional

@dataclass
class TrainConfig:
    lr: float = 3e-4
    batch_size: int = 32
    epochs: int = 3
    betas: tuple = (0.9, 0.999)
    tags: List[str] = field(default_factory=list)
    out_dir: str = 'runs'
    def to_json(self):
        return json.dumps(asdict(self), indent=2, sort_keys=True)

p = argparse.ArgumentParser(description='toy')
p.add_argument('--lr', type=float, default=1e-3)
p.add_argument('--epochs', type=int, default=2)
p.add_argument('--tag', action='append', default=[])
p.add_argument('--no-eval', dest='eval', action='store_false')
args = p.parse_args(['--lr', '0.01', '--tag', 'a', '--tag', 'b', '--no-eval'])
print(args)
cfg = TrainConfig(lr=args.lr, epochs=args.epochs, tags=args.tag)
print(cfg)
print(cfg.to_json())
defaults = {'lr': 0.1, 'wd': 0.0, 'momentum': 0.9}
merged = ChainMap(vars(args), defaults)
print(merged['lr'], merged['wd'], sorted(merged))

class SmoothedValue:  # a window of values and the global series, as torchvision's references
    def __init__(self, window_size=5, fmt='{median:.4f} ({global_avg:.4f})'):
        self.deque = deque(maxlen=window_size)
        self.total = 0.0
        self.count = 0
        self.fmt = fmt
    def update(self, value, n=1):
        self.deque.append(value)
        self.count += n
        self.total += value * n
    @property
    def median(self):
        d = sorted(self.deque)
        return d[len(d) // 2]
    @property
    def global_avg(self):
        return self.total / self.count
    @property
    def value(self):
        return self.deque[-1]
    def __str__(self):
        return self.fmt.format(median=self.median, global_avg=self.global_avg, value=self.value)

class MetricLogger:  # torchvision's references keep their meters so, reached as attributes
    def __init__(self, delimiter='  '):
        self.meters = defaultdict(SmoothedValue)
        self.delimiter = delimiter
    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters[k].update(v)
    def __getattr__(self, attr):
        if attr in self.meters:
            return self.meters[attr]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")
    def __str__(self):
        return self.delimiter.join(f'{name}: {meter}' for name, meter in self.meters.items())

losses = SmoothedValue(fmt='Loss {value:.4e} ({global_avg:.4e})')
acc = SmoothedValue(fmt='Acc@1 {value:6.2f} ({global_avg:6.2f})')
logger = MetricLogger()
hist = defaultdict(list)
window = deque(maxlen=5)
for step in range(0, 120, 17):
    loss = 2.0 * math.exp(-step / 50) + 0.01 * (step % 7)
    losses.update(loss, 32)
    acc.update(100 - 50 * math.exp(-step / 40), 32)
    window.append(loss)
    hist['loss'].append(round(loss, 5))
    hist['lr'].append(cfg.lr * 0.5 ** (step // 40))
    logger.update(loss=loss, lr=hist['lr'][-1])
    print(f'Epoch: [0] [{step:3d}/120]  {losses}  {acc}  {logger}')
print(dict(hist))
print(round(logger.loss.global_avg, 6), logger.lr.count, hasattr(logger, 'acc'), logger.loss.median)
print('smoothed %.4f' % (sum(window) / len(window)), list(window)[-2:])

# progress bar by hand
def bar(frac, width=30):
    filled = int(round(width * frac))
    return '[' + '#' * filled + '-' * (width - filled) + '] %5.1f%%' % (100 * frac)
for i in (0, 7, 15, 30):  # a terminal would get '\r' + bar(...) with end='': the fixture reads text
    print(bar(i / 30))

# table formatting
rows = [('resnet18', 11.69, 69.758, 89.078), ('vgg16', 138.36, 71.592, 90.382), ('mobilenet_v2', 3.5, 71.878, 90.286)]
header = ('model', 'params(M)', 'top1', 'top5')
widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(4)]
print(' | '.join(h.ljust(w) for h, w in zip(header, widths)))
print('-+-'.join('-' * w for w in widths))
for r in rows:
    print(' | '.join([r[0].ljust(widths[0])] + [f'{v:>{w}.2f}' for v, w in zip(r[1:], widths[1:])]))
print(f"{'total':<12}{sum(r[1] for r in rows):>10.3f}")
print('{:^20}|{:*>8}|{:#x}|{:,}|{:+.1e}'.format('centered', 42, 255, 1234567, 0.000123))

# checkpoint bookkeeping
tmp = Path(tempfile.mkdtemp())
ckdir = tmp / 'checkpoints'
ckdir.mkdir(parents=True, exist_ok=True)
Entry = namedtuple('Entry', 'epoch path metric')
saved = []
for epoch in range(4):
    path = ckdir / f'epoch_{epoch:03d}.pkl'
    state = {'epoch': epoch, 'metric': 1.0 / (epoch + 1), 'cfg': asdict(cfg)}
    with open(path, 'wb') as f:
        pickle.dump(state, f)
    saved.append(Entry(epoch, path.name, state['metric']))
    if len(saved) > 2:
        old = saved.pop(0)
        (ckdir / old.path).unlink()
print(sorted(p.name for p in ckdir.iterdir()), saved)
best = min(saved, key=lambda e: e.metric)
with open(ckdir / best.path, 'rb') as f:
    st = pickle.load(f)
print(best, st['epoch'], st['cfg']['tags'])
(ckdir / 'meta.json').write_text(json.dumps({'best': best._asdict(), 'history': dict(hist)}, indent=1))
meta = json.loads((ckdir / 'meta.json').read_text())
print(meta['best'], len(meta['history']['loss']))
m = re.match(r'epoch_(\d+)\.pkl', best.path)
print(m.group(1), int(m.group(1)), re.findall(r'\d+', ' '.join(p.name for p in sorted(ckdir.glob('*.pkl')))))
shutil.rmtree(tmp)
print(tmp.exists())

# logging
log = logging.getLogger('train')
h = logging.StreamHandler(sys.stdout)
h.setFormatter(logging.Formatter('%(levelname)s:%(name)s:%(message)s'))
log.addHandler(h)
log.setLevel(logging.INFO)
log.info('epoch %d loss %.3f', 1, 0.25)
log.debug('hidden')
log.warning('lr=%s', cfg.lr)
c = Counter(w for w in 'the cat and the hat and the bat'.split())
print(c.most_common(2), sorted(c.items()))
od = OrderedDict(sorted({'b': 2, 'a': 1, 'c': 3}.items(), key=lambda kv: -kv[1]))
od.move_to_end('b')
print(od, list(od.items())[0])
print(json.dumps({'a': [1, 2.5, None, True], 'b': {'c': 'ü'}}, ensure_ascii=False), json.dumps([1e-7, 1e16, float('inf')]))
