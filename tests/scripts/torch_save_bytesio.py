# torch.save(obj, buf) / torch.load(buf) with an io.BytesIO (buf.seek(0) between) and any
# file-like object with write/flush or read/seek/tell, as PyTorch 1.13; PyTorch's own file read
# through a BytesIO; tests/fixtures/check_torch_bytesio.py has PyTorch load what this writes.
import io
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss = model(torch.randn(5, 3)).pow(2).sum()
loss.backward()
opt.step()

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
print(buffer.tell() > 0)
buffer.seek(0)
sd = torch.load(buffer)
print(list(sd.keys()))
print(sd._metadata)
fresh = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
print(fresh.load_state_dict(sd))
print(torch.equal(fresh[0].weight, model[0].weight))

# a whole checkpoint, with the optimizer's state, through one buffer
buf = io.BytesIO()
torch.save({'epoch': 3, 'model': model.state_dict(), 'optimizer': opt.state_dict(), 'loss': loss.item()}, buf)
buf.seek(0)
ck = torch.load(buf, map_location='cpu')
print(ck['epoch'], round(ck['loss'], 4), list(ck['optimizer']['state'].keys()))
print(ck['optimizer']['param_groups'][0]['momentum'])
opt2 = optim.SGD(fresh.parameters(), lr=0.1, momentum=0.9)
opt2.load_state_dict(ck['optimizer'])
print(opt2.state_dict()['state'][0]['momentum_buffer'])

# a tensor, shared views, getvalue() into another BytesIO
t = torch.arange(6.).reshape(2, 3)
b2 = io.BytesIO()
torch.save([t, t[1]], b2)
data = b2.getvalue()
a, b = torch.load(io.BytesIO(data))
a[1, 0] = 100.
print(b)

# loading from the end of the buffer, as PyTorch: EOFError
try:
    torch.load(b2)
except EOFError as e:
    print('EOFError', e)

# not a checkpoint
try:
    torch.load(io.BytesIO(b'garbage'))
except Exception as e:
    print(type(e).__name__)

# a user's own file-like class
class Sink:
    def __init__(self):
        self.parts = []
        self.flushed = False
    def write(self, data):
        self.parts.append(bytes(data))
        return len(data)
    def flush(self):
        self.flushed = True

s = Sink()
torch.save({'x': torch.ones(2)}, s)
print(s.flushed, b''.join(s.parts)[:2])
print(torch.load(io.BytesIO(b''.join(s.parts))))

class NoSeek:
    def read(self, n=-1):
        return b''
try:
    torch.load(NoSeek())
except AttributeError as e:
    print('AttributeError', e)

# a map_location function with a buffer
buf.seek(0)
ck2 = torch.load(buf, map_location=lambda storage, loc: storage)
print(ck2['epoch'])

# a file opened by open() still works, with seek(0) between
with open('torch_save_bytesio_open.tmp', 'wb') as f:
    torch.save(t, f)
with open('torch_save_bytesio_open.tmp', 'rb') as f:
    print(torch.load(f))

# a file PyTorch 1.13 wrote, read into memory first
with open('../fixtures/torch_file/state_dict.pt', 'rb') as f:
    raw = f.read()
theirs = torch.load(io.BytesIO(raw))
print(list(theirs.keys()), theirs._metadata)

# what PyTorch loads (check_torch_bytesio.py): a BytesIO's bytes written out
out = io.BytesIO()
torch.save({'sd': model.state_dict(), 'n': 5, 'view': t[1], 'opt': opt.state_dict()}, out)
with open('torch_save_bytesio.tmp', 'wb') as f:
    f.write(out.getvalue())
