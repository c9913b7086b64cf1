# argparse: usage and help text as CPython 3.11 formats them (width 78), parsing, defaults, errors and exit 2
import argparse, sys
p = argparse.ArgumentParser(description='Train a model.', prog='train.py')
p.add_argument('--lr', type=float, default=0.01, help='learning rate')
p.add_argument('--epochs', '-e', type=int, default=10, help='number of epochs (default: %(default)s)')
p.add_argument('--name', default='run')
p.add_argument('--cuda', action='store_true', help='use CUDA')
p.add_argument('--no-log', dest='log', action='store_false')
p.add_argument('--opt', choices=['sgd', 'adam'], default='sgd')
p.add_argument('data', nargs='?', default='data.txt', help='input file')
p.add_argument('--layers', type=int, nargs='+', default=[16])
p.add_argument('-v', '--verbose', action='count', default=0)
p.add_argument('--tag', action='append')
p.print_help()
print(p.format_usage())
args = p.parse_args([])
print(args, args.lr, args.cuda, vars(args)['epochs'])
print(p.parse_args(['--lr', '0.1', '-e', '3', '--cuda', 'x.csv', '--layers', '1', '2', '-vv', '--tag', 'a', '--tag=b', '--no-log', '--opt=adam']))
print(p.parse_args(['-e5', '--lr=-1e-3', '--epo', '7']))
print(p.parse_known_args(['--zzz', 'a.txt', 'extra']))
q = argparse.ArgumentParser(prog='prog', formatter_class=argparse.ArgumentDefaultsHelpFormatter)
q.add_argument('src', help='source')
q.add_argument('dst', nargs='*', help='targets')
q.add_argument('--batch-size', type=int, default=64, metavar='N', help='input batch size for training')
q.add_argument('--seed', type=int, default=1, help='random seed')
g = q.add_argument_group('model', 'model options')
g.add_argument('--hidden', type=int, default=128, help='hidden units')
q.add_argument('--mode', required=True, choices=['a', 'b'])
q.set_defaults(extra=5)
q.print_help()
print(q.parse_args(['s', 'd1', 'd2', '--mode', 'b']))
print(q.parse_args(['s', '--mode', 'a', '--batch-size', '8']))
ns = argparse.Namespace(a=1, b='x')
print(ns, 'a' in ns, ns == argparse.Namespace(a=1, b='x'))
for bad in [['--lr', 'abc'], ['--opt', 'rmsprop'], ['--bogus'], ['--epochs'], ['a', 'b'], ['--layers']]:
    try:
        p.parse_args(bad)
    except SystemExit as e:
        print('SystemExit', e.code)
for bad in [['s'], []]:
    try:
        q.parse_args(bad)
    except SystemExit as e:
        print('SystemExit', e.code)
try:
    p.parse_args(['-h'])
except SystemExit as e:
    print('SystemExit', e.code)
try:
    vars(3)
except TypeError as e:
    print('TypeError', e)
p.parse_args(['--epochs', 'x'])
