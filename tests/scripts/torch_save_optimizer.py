# torch.save of optimizer and scheduler objects themselves (and a defaultdict), as PyTorch 1.13
# pickles them: the class by reference (torch.optim.sgd.SGD), BUILD with {'defaults', 'state',
# 'param_groups'} whose state is a defaultdict(dict) keyed by the parameters. A file PyTorch
# wrote (tests/fixtures/torch_file/optimizer_objects.pt, tests/fixtures/gen_torch_optimizer.py)
# and nnscope's own round trip: the loaded optimizers share the loaded model's parameters and
# keep stepping as PyTorch's do.
from collections import defaultdict

import torch


def build():
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 1)
    x = torch.randn(4, 2)
    opts = {'sgd': torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9),
            'adam': torch.optim.Adam(m.parameters(), lr=0.01),
            'rmsprop': torch.optim.RMSprop(m.parameters(), lr=0.01)}
    for o in opts.values():
        o.zero_grad()
        m(x).pow(2).sum().backward()
        o.step()
    sched = torch.optim.lr_scheduler.StepLR(opts['sgd'], 2, gamma=0.5)
    for _ in range(3):
        opts['sgd'].step()
        sched.step()
    return dict(model=m, sched=sched, counts=defaultdict(int, {'a': 3}), **opts)


def check(ck):
    m = ck['model']
    print(type(ck['counts']).__name__, ck['counts']['a'], ck['counts']['missing'])
    s = ck['sched']
    print(type(s).__name__, s.last_epoch, s.get_last_lr(), s.optimizer is ck['sgd'])
    x = torch.ones(3, 2)
    for k in ['sgd', 'adam', 'rmsprop']:
        o = ck[k]
        print(type(o).__name__, o.defaults['lr'], o.param_groups[0]['lr'], o.param_groups[0]['params'][0] is m.weight)
        print(sorted(o.state_dict()['state'][0].keys()))
        o.zero_grad()
        m(x).sum().backward()
        o.step()
        print(m.weight.data)
    s.step()
    print(s.get_last_lr())


if __name__ == '__main__':
    print('-- written by PyTorch 1.13')
    check(torch.load('../fixtures/torch_file/optimizer_objects.pt'))
    print('-- saved and loaded here')
    torch.save(build(), 'torch_save_optimizer.tmp')
    check(torch.load('torch_save_optimizer.tmp'))
    torch.save(torch.optim.Adam(torch.nn.Linear(1, 1).parameters()), 'torch_save_optimizer2.tmp')
    print(type(torch.load('torch_save_optimizer2.tmp')).__name__)
    try:
        torch.load('torch_save_optimizer.tmp', weights_only=True)
    except Exception as e:
        print(type(e).__name__)
