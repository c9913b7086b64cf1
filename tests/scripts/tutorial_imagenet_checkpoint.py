# pytorch/examples imagenet/main.py's helpers (AverageMeter with Summary enum, ProgressMeter, accuracy with
# topk, save_checkpoint with shutil.copyfile) on an MLP and random data, then resume from the checkpoint;
# random_split (counts and fractions), WeightedRandomSampler, BatchSampler, ConcatDataset, collate_fn.
import os, shutil, io
from enum import Enum
import torch
import torch.nn as nn
from torch.utils.data import random_split, DataLoader, TensorDataset, Subset, WeightedRandomSampler, SubsetRandomSampler, BatchSampler, SequentialSampler, RandomSampler, ConcatDataset

torch.manual_seed(42)

class Summary(Enum):
    NONE = 0
    AVERAGE = 1
    SUM = 2
    COUNT = 3

class AverageMeter(object):
    """Computes and stores the average and current value"""
    def __init__(self, name, fmt=':f', summary_type=Summary.AVERAGE):
        self.name = name
        self.fmt = fmt
        self.summary_type = summary_type
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = '{name} {val' + self.fmt + '} ({avg' + self.fmt + '})'
        return fmtstr.format(**self.__dict__)

    def summary(self):
        fmtstr = ''
        if self.summary_type is Summary.NONE:
            fmtstr = ''
        elif self.summary_type is Summary.AVERAGE:
            fmtstr = '{name} {avg:.3f}'
        elif self.summary_type is Summary.SUM:
            fmtstr = '{name} {sum:.3f}'
        elif self.summary_type is Summary.COUNT:
            fmtstr = '{name} {count:.3f}'
        else:
            raise ValueError('invalid summary type %r' % self.summary_type)
        return fmtstr.format(**self.__dict__)


class ProgressMeter(object):
    def __init__(self, num_batches, meters, prefix=""):
        self.batch_fmtstr = self._get_batch_fmtstr(num_batches)
        self.meters = meters
        self.prefix = prefix

    def display(self, batch):
        entries = [self.prefix + self.batch_fmtstr.format(batch)]
        entries += [str(meter) for meter in self.meters]
        print('\t'.join(entries))

    def display_summary(self):
        entries = [" *"]
        entries += [meter.summary() for meter in self.meters]
        print(' '.join(entries))

    def _get_batch_fmtstr(self, num_batches):
        num_digits = len(str(num_batches // 1))
        fmt = '{:' + str(num_digits) + 'd}'
        return '[' + fmt + '/' + fmt.format(num_batches) + ']'

def accuracy(output, target, topk=(1,)):
    """Computes the accuracy over the k top predictions for the specified values of k"""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)

        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))

        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res

def save_checkpoint(state, is_best, filename='checkpoint.pth.tar'):
    torch.save(state, filename)
    if is_best:
        shutil.copyfile(filename, 'model_best_probe.tmp')

full = TensorDataset(torch.randn(50, 8), torch.randint(0, 6, (50,)))
train_set, val_set = random_split(full, [40, 10], generator=torch.Generator().manual_seed(42))
print(len(train_set), len(val_set), train_set.indices[:8], type(train_set).__name__)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))
print(list(a), list(b), list(c))
weights = [0.1 if y < 3 else 0.9 for _, y in train_set]
sampler = WeightedRandomSampler(weights, num_samples=16, replacement=True)
print(list(sampler))
print(list(SubsetRandomSampler(range(5))))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(RandomSampler(range(7)), batch_size=3, drop_last=True)))
cat = ConcatDataset([Subset(full, [0, 1]), val_set])
print(len(cat), cat.cumulative_sizes, cat[2][1])

def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs), torch.tensor(ys)

train_loader = DataLoader(train_set, batch_size=16, shuffle=True, drop_last=True, collate_fn=collate)
val_loader = DataLoader(val_set, batch_size=4, sampler=SequentialSampler(val_set))
print(len(train_loader), len(val_loader))

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 6))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.1)
best_acc1 = 0
start_epoch = 0

def train_one(epoch):
    batch_time = AverageMeter('Time', ':6.3f')
    losses = AverageMeter('Loss', ':.4e')
    top1 = AverageMeter('Acc@1', ':6.2f')
    top5 = AverageMeter('Acc@5', ':6.2f')
    progress = ProgressMeter(len(train_loader), [batch_time, losses, top1, top5], prefix="Epoch: [{}]".format(epoch))
    model.train()
    for i, (images, target) in enumerate(train_loader):
        output = model(images)
        loss = criterion(output, target)
        acc1, acc5 = accuracy(output, target, topk=(1, 5))
        losses.update(loss.item(), images.size(0))
        top1.update(acc1[0], images.size(0))
        top5.update(acc5[0], images.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        batch_time.update(0.0)
        progress.display(i + 1)

def validate():
    losses = AverageMeter('Loss', ':.4e', Summary.NONE)
    top1 = AverageMeter('Acc@1', ':6.2f', Summary.AVERAGE)
    top5 = AverageMeter('Acc@5', ':6.2f', Summary.AVERAGE)
    progress = ProgressMeter(len(val_loader), [losses, top1, top5], prefix='Test: ')
    model.eval()
    with torch.no_grad():
        for i, (images, target) in enumerate(val_loader):
            output = model(images)
            loss = criterion(output, target)
            acc1, acc5 = accuracy(output, target, topk=(1, 5))
            losses.update(loss.item(), images.size(0))
            top1.update(acc1[0], images.size(0))
            top5.update(acc5[0], images.size(0))
    progress.display_summary()
    return top1.avg

for epoch in range(start_epoch, 3):
    train_one(epoch)
    acc1 = validate()
    scheduler.step()
    is_best = acc1 > best_acc1
    best_acc1 = max(acc1, best_acc1)
    save_checkpoint({
        'epoch': epoch + 1,
        'arch': 'mlp',
        'state_dict': model.state_dict(),
        'best_acc1': best_acc1,
        'optimizer' : optimizer.state_dict(),
        'scheduler' : scheduler.state_dict()
    }, is_best, filename='ckpt_probe.tmp')

checkpoint = torch.load('ckpt_probe.tmp')
print(checkpoint.keys(), checkpoint['epoch'], checkpoint['best_acc1'])
model2 = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 6))
optimizer2 = torch.optim.SGD(model2.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
scheduler2 = torch.optim.lr_scheduler.StepLR(optimizer2, step_size=2, gamma=0.1)
start_epoch = checkpoint['epoch']
best_acc1 = checkpoint['best_acc1']
print(model2.load_state_dict(checkpoint['state_dict']))
optimizer2.load_state_dict(checkpoint['optimizer'])
scheduler2.load_state_dict(checkpoint['scheduler'])
print("=> loaded checkpoint '{}' (epoch {})".format('ckpt_probe.tmp', checkpoint['epoch']))
print(optimizer2.param_groups[0]['lr'], scheduler2.last_epoch, optimizer2.state_dict()['state'][0]['momentum_buffer'].sum())
best = torch.load('model_best_probe.tmp', map_location='cpu')
print(best['epoch'])
os.remove('ckpt_probe.tmp'); os.remove('model_best_probe.tmp')
