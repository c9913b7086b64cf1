# expected: by hand (matplotlib is not installed beside PyTorch 1.13 here): what matplotlib 3.6
# with the Agg backend prints when standard output is a pipe: nothing from show(); the figure and
# axes objects, a PNG from savefig (its signature, size and pixels checked here), ValueError for a
# format it cannot write.
import os
import struct
import zlib

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import torch

losses = [1.0 / (1 + i) for i in range(20)]
plt.figure(figsize=(4, 3))
lines = plt.plot(losses, label='train')
plt.plot(torch.linspace(0, 19, 20), torch.linspace(0.5, 0.1, 20), 'r--', label='val')
plt.title('loss')
plt.xlabel('epoch')
plt.ylabel('loss')
plt.legend()
plt.grid(True)
plt.yscale('log')
plt.tight_layout()
print(len(lines), type(lines[0]).__name__, lines[0].get_label())
plt.savefig('mpl_plot.tmp.png')
plt.show()
print('shown')

fig, axes = plt.subplots(1, 2, figsize=(6, 2))
print(fig)
counts, edges, _ = axes[0].hist([0.1, 0.2, 0.25, 0.7, 0.9, 0.95, 0.99], bins=4)
print(counts, edges)
axes[0].set_title('hist')
axes[1].bar(['a', 'b', 'c'], [3, 1, 2])
axes[1].scatter([0, 1, 2], [1, 2, 3])
fig.savefig('mpl_grid.tmp.png', dpi=50)
plt.close(fig)

fig2, ax = plt.subplots()
ax.imshow(torch.arange(16.).reshape(4, 4), cmap='gray')
fig2.savefig('mpl_image.tmp.png')
plt.close('all')


def read_png(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, chunks = 8, []
    while pos < len(data):
        n, = struct.unpack('>I', data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])
        assert crc == zlib.crc32(kind + body) & 0xffffffff
        chunks.append((kind, body))
        pos += 12 + n
    w, h, depth, ctype = struct.unpack('>IIBB', chunks[0][1][:10])
    raw = zlib.decompress(b''.join(body for kind, body in chunks if kind == b'IDAT'))
    return [k for k, _ in chunks], w, h, depth, ctype, raw


for name in ('mpl_plot.tmp.png', 'mpl_grid.tmp.png', 'mpl_image.tmp.png'):
    kinds, w, h, depth, ctype, raw = read_png(name)
    colours = set()
    for y in range(h):
        row = raw[y * (3 * w + 1) + 1:(y + 1) * (3 * w + 1)]
        for x in range(0, 3 * w, 3 * 7):
            colours.add(bytes(row[x:x + 3]).hex())
    os.remove(name)
    print(name, kinds, w, h, depth, ctype, len(raw) == h * (3 * w + 1), 'ffffff' in colours, '000000' in colours,
          '1f77b4' in colours)

for name in ('figure.xyz', 'figure.pdf'):  # matplotlib's words; a PDF it writes, nnscope does not
    try:
        plt.savefig(name)
    except ValueError as e:
        print('ValueError', e)
print(matplotlib.get_backend(), plt.gcf())
