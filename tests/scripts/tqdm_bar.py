# expected: by hand, from tqdm 4.64's format_meter (l_bar "{desc}: {percentage:3.0f}%|", a 10-cell
# bar of " ▏▎▍▌▋▊▉█" without a terminal width, r_bar "| {n}/{total} [{elapsed}<{remaining},
# {rate}it/s{, postfix}]", "{n}it [{elapsed}, {rate}]" without a total); rates and times masked
import io
import re
import sys

from tqdm import tqdm, trange
import tqdm as tqdm_module
from tqdm.auto import tqdm as auto_tqdm


def lines(buf):
    # each refresh starts with "\r" (padded to the previous line's length); the rate varies
    out = []
    for part in buf.getvalue().split('\r'):
        if part.strip():
            part = re.sub(r'[0-9.]+(it|s)/(s|it)', 'R', part.rstrip(' \n'))
            out.append(re.sub(r'([\[<])[0-9][0-9]:[0-9][0-9]', r'\1MM:SS', part))
    return out, buf.getvalue().endswith('\n')


buf = io.StringIO()
total = 0
for i in tqdm(range(10), file=buf):
    total += i
print(total)
print(lines(buf))

buf = io.StringIO()
bar = tqdm(total=8, desc='epoch 1', file=buf, mininterval=1000)
for step in range(3):
    bar.update(1)
bar.set_postfix(loss=0.123456, acc=0.5, step=3, name='x')
print(lines(buf)[0][-1])
bar.update(2)
bar.set_description('epoch 2')
bar.close()
print(lines(buf)[0][-1])

buf = io.StringIO()
for x in tqdm(iter([1, 2, 3]), file=buf):
    pass
print(lines(buf))

buf = io.StringIO()
for x in trange(4, leave=False, file=buf):
    pass
print(repr(buf.getvalue()[-20:]))

buf = io.StringIO()
with tqdm(total=3, file=buf, ascii=True) as t:
    t.update(1)
    t.refresh()
print(lines(buf)[0][1])
buf = io.StringIO()
tqdm(range(50), ncols=60, file=buf, desc='wide').close()
print(lines(buf)[0])
tqdm.write('written to stdout')
print(tqdm_module.tqdm is tqdm, auto_tqdm is tqdm, len(tqdm(range(5), disable=True)))
print(list(tqdm([3, 4], disable=True)))
