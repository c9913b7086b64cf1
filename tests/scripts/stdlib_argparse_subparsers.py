# argparse subcommands: add_subparsers/add_parser (aliases, help, required, title, metavar),
# set_defaults(func=...), the help and usage texts and the errors, against CPython 3.11.
import argparse, sys
def train(a): print('train', a.epochs)
def test(a): print('test', a.ckpt)
p = argparse.ArgumentParser(prog='tool', description='A tool.')
p.add_argument('--verbose', '-v', action='count', default=0)
p.add_argument('config', help='config file')
sub = p.add_subparsers(dest='command', help='sub-command help', required=True)
t = sub.add_parser('train', help='train a model', aliases=['tr'])
t.add_argument('--epochs', type=int, default=1, help='epochs')
t.set_defaults(func=train)
e = sub.add_parser('test', help='evaluate')
e.add_argument('ckpt')
e.set_defaults(func=test)
sub.add_parser('noop')
for argv in (['c.yaml', 'train', '--epochs', '3'], ['-vv', 'c.yaml', 'tr'], ['c.yaml', 'test', 'm.pt']):
    a = p.parse_args(argv)
    print({k: getattr(v, "__name__", v) for k, v in vars(a).items()})
    a.func(a)
print(p.format_usage())
print(p.format_help())
print(t.format_help())
print(e.format_usage())
a, rest = p.parse_known_args(['c.yaml', 'test', 'm.pt', '--zzz'])
print(sorted(vars(a)), rest)
def run(argv, parser=p):
    try:
        print(sorted(vars(parser.parse_args(argv)).items()))
    except SystemExit as ex:
        print('exit', ex.code)
sys.stderr = sys.stdout
run(['c.yaml'])
run(['c.yaml', 'bogus'])
run(['c.yaml', 'test'])
run(['c.yaml', 'train', '--epochs', 'x'])
run(['c.yaml', 'train', '--nope'])
q = argparse.ArgumentParser(prog='q')
qs = q.add_subparsers(title='commands', description='pick one', metavar='CMD')
qs.add_parser('go', help='go now')
qs.add_parser('stop', help='stop it')
print(q.format_help())
run([], q)
run(['go'], q)
try:
    q.add_subparsers()
except SystemExit as ex:
    print('exit', ex.code)
