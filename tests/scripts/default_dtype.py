# torch.set_default_dtype / get_default_dtype / set_default_tensor_type as PyTorch 1.13:
# factories, Python-number promotion, layers' parameters and buffers, printing, errors.
import torch
for d in [torch.int64, torch.float16, torch.bfloat16, torch.bool, "float64", 3]:
    try:
        torch.set_default_dtype(d); print(d, torch.get_default_dtype(), torch.tensor([1.0]).dtype)
    except Exception as e: print(type(e).__name__, e)
torch.set_default_dtype(torch.float32)
for d in [torch.DoubleTensor, "torch.DoubleTensor", torch.LongTensor, "torch.cuda.FloatTensor", torch.float64, "foo", torch.HalfTensor]:
    try:
        torch.set_default_tensor_type(d); print(d, torch.get_default_dtype())
    except Exception as e: print(type(e).__name__, e)
torch.set_default_tensor_type(torch.FloatTensor)
torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
print(torch.randn(3), torch.rand(3), torch.randint(0,5,(3,)), torch.tensor([1,2]).dtype)
print(torch.arange(3).dtype, torch.arange(3.).dtype, torch.arange(0, 1, 0.25), torch.linspace(0,1,3), torch.full((2,), 1.5), torch.full((2,),2).dtype, torch.eye(2), torch.empty(2).dtype)
print((torch.tensor([1,2])*1.5).dtype, (torch.tensor([1,2])/2).dtype, torch.tensor([1,2]).sqrt().dtype, torch.tensor(1.5).dtype, torch.tensor([1.5]).float().dtype)
import numpy as np
print(torch.from_numpy(np.zeros(2, dtype=np.float32)).dtype, torch.as_tensor(np.zeros(2,dtype=np.float32)).dtype, torch.tensor(np.float32(1)).dtype)
l = torch.nn.Linear(2,3); print(l.weight.dtype, torch.nn.BatchNorm1d(3).running_mean.dtype, torch.nn.BatchNorm1d(3).num_batches_tracked.dtype)
print(torch.FloatTensor([1]).dtype, torch.Tensor([1]).dtype, torch.Tensor(2).dtype, torch.randn(2).new_zeros(2).dtype)
print(torch.tensor([1.0]).type(), torch.zeros(2, dtype=torch.float32)+torch.tensor(1.0, dtype=torch.float64))
print(torch.zeros(2, dtype=torch.float32)*1.5, (torch.zeros(2, dtype=torch.float32)*1.5).dtype, torch.finfo().eps, torch.tensor([1, 2.5]).dtype, torch.tensor([]).dtype)
print(torch.get_default_dtype(), torch.is_floating_point(torch.zeros(1)))
torch.set_default_tensor_type('torch.FloatTensor'); print(torch.get_default_dtype())
torch.set_default_tensor_type(torch.DoubleTensor); print(torch.get_default_dtype(), torch.Tensor([1]).dtype)
torch.set_default_dtype(torch.float32)
for d in ["torch.Foo", "torch.LongTensor", None, 3, "torch.DoubleTensor ", torch.Tensor, "torch.cuda.DoubleTensor", "torch.BFloat16Tensor", "torch.HalfTensor"]:
    try:
        torch.set_default_tensor_type(d); print(repr(d), torch.get_default_dtype())
    except BaseException as e: print(repr(d), type(e).__name__, e)
for d in [None, torch.float64, torch.DoubleTensor]:
    try:
        torch.set_default_dtype(d); print(repr(d), torch.get_default_dtype())
    except BaseException as e: print(repr(d), type(e).__name__, e)
try: torch.set_default_dtype()
except BaseException as e: print(type(e).__name__, e)
try: torch.set_default_dtype(d=torch.float64); print("kw ok")
except BaseException as e: print(type(e).__name__, e)
try: torch.set_default_tensor_type(t=torch.FloatTensor); print("kw ok")
except BaseException as e: print(type(e).__name__, e)
try: torch.get_default_dtype(1)
except BaseException as e: print(type(e).__name__, e)
print(torch.set_default_dtype(torch.float32))
torch.set_default_dtype(torch.float32)
import torch.nn as nn
import torch.nn.functional as F
torch.set_default_dtype(torch.float64)
layers = [nn.Linear(3, 2), nn.Bilinear(2, 2, 3), nn.Conv1d(2, 3, 3), nn.Conv2d(2, 3, 3), nn.Conv3d(1, 2, 2), nn.ConvTranspose1d(2, 3, 3),
    nn.ConvTranspose2d(2, 3, 3), nn.ConvTranspose3d(1, 2, 2), nn.BatchNorm1d(3), nn.BatchNorm2d(3), nn.BatchNorm3d(3), nn.LayerNorm(4),
    nn.GroupNorm(2, 4), nn.InstanceNorm1d(3, affine=True, track_running_stats=True), nn.Embedding(5, 3), nn.EmbeddingBag(5, 3),
    nn.LSTM(3, 4), nn.GRU(3, 4), nn.RNN(3, 4), nn.LSTMCell(3, 4), nn.GRUCell(3, 4), nn.RNNCell(3, 4), nn.PReLU(),
    nn.MultiheadAttention(4, 2), nn.TransformerEncoderLayer(4, 2, 8), nn.Transformer(4, 2, 1, 1, 8)]
for m in layers:
    print(type(m).__name__, sorted(set(str(p.dtype) for p in m.parameters())), sorted(set(str(b.dtype) for b in m.buffers())))
torch.manual_seed(0)
lin = nn.Linear(3, 2)
print(lin.weight, lin.bias)
x = torch.randn(4, 3)
print(lin(x))
print(lin.weight.type(), x.type())
i = torch.tensor([1, 2, 3])
print(i * 1.5, i / 2, i.sqrt(), torch.exp(i), i.float(), i.double(), i + 0.5, torch.mean(i.to(torch.get_default_dtype())))
print(torch.tensor(2.5), torch.tensor([[1., 2.]]), torch.ones(2, 2), torch.zeros(3), torch.full((2,), 3.25), torch.arange(0., 1., 0.3))
print(torch.linspace(-1, 1, 5), torch.logspace(0, 2, 3), torch.eye(3), torch.empty(0), torch.tensor([]))
print(torch.randn(2, 3), torch.rand(5), torch.normal(0., 1., size=(3,)), torch.randint(0, 10, (4,)), torch.randperm(5))
print(torch.zeros(2).new_ones(3), torch.zeros(2, dtype=torch.float32), torch.ones(2, dtype=torch.float32) * 2.5)
print(torch.nn.init.xavier_uniform_(torch.empty(2, 3)))
import numpy as np
a = np.array([1.5, 2.5], dtype=np.float32)
print(torch.from_numpy(a), torch.tensor(a), torch.as_tensor(a), torch.from_numpy(np.array([1.0, 2.0])))
print(torch.Tensor([1, 2]), torch.FloatTensor([1, 2]), torch.DoubleTensor([1, 2]), torch.Tensor(2).shape)
print(torch.clamp(i, 0.5, 2.5), torch.where(i > 1, i, 0.5), torch.tensor([1, 2]).mean(dtype=None) if False else None)
print(torch.finfo().eps, torch.finfo().max)
print(F.softmax(torch.tensor([1., 2.]), 0), torch.sigmoid(i), torch.special.expit(i), torch.logit(torch.tensor([1, 0])))
print(torch.tensor(1.5).item(), torch.tensor([0.1]).tolist(), torch.tensor(0.1) + 0.2)
w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward(); print(w.grad)
print(nn.utils.clip_grad_norm_([w], 1.0))
opt = torch.optim.Adam([w], lr=0.1); opt.step(); print(opt.state_dict()['state'])
print(torch.tensor(1.0, dtype=torch.float32) + torch.tensor([1.0]))
print(torch.tensor([1, 2]) @ torch.tensor([1, 2]), torch.tensor([True]) * 1.5)
print(torch.distributions.Normal(0., 1.).sample((2,)), torch.distributions.Normal(torch.tensor(0., dtype=torch.float32), 1.).sample())
print(torch.distributions.Bernoulli(0.3).sample((3,)), torch.distributions.Categorical(torch.tensor([0.2, 0.8])).sample((3,)))
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))
torch.set_default_dtype(torch.float64)
print(torch.Tensor(), torch.Tensor().shape, torch.nn.Parameter())
print(torch.tensor([1, 2]) / 2, torch.where(torch.tensor([True, False]), 1.0, 0.0))
torch.set_default_dtype(torch.float32)
print(torch.Tensor(), torch.Tensor().dtype)
