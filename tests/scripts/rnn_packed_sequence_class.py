# torch.nn.utils.rnn.PackedSequence as a class, as code that checks isinstance(x, PackedSequence) uses it:
# type(), construction (a (data, batch_sizes) pair, unsorted_indices inverted from sorted_indices),
# _fields/_replace, to()/cpu()/double()/long()..., is_cuda, is_pinned(), the tuple methods.
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, PackedSequence
import torch.nn.utils.rnn as rnn_utils
x = torch.arange(12.).reshape(3, 2, 2)
p = pack_padded_sequence(x, [3, 2], batch_first=False)
print(type(p), type(p).__name__, isinstance(p, PackedSequence), isinstance(p, tuple))
print(PackedSequence)
print(p._fields, len(p), p[1], p.is_cuda)
d, b, s, u = p
print(b, s, u)
q = PackedSequence(p.data * 2, p.batch_sizes)
print(q)
print(pad_packed_sequence(q))
q2 = p.to(torch.float64)
print(type(q2).__name__, q2.data.dtype)
print(p.double().data.dtype, p.cpu() is p)
print(p._replace(data=p.data + 1).data.sum())
print(rnn_utils.PackedSequence is PackedSequence)
s = torch.tensor([1, 0])
p3 = PackedSequence(p.data, p.batch_sizes, s)
print(p3.unsorted_indices, p3.sorted_indices)
p4 = PackedSequence((p.data, p.batch_sizes))
print(p4.batch_sizes, p4 == p, p4[0] is p.data)
try:
    PackedSequence((p.data,))
except AssertionError as e:
    print('AssertionError', repr(e))
print(p.float() is p, p.long().data.dtype, p.to('cpu') is p, p.to(torch.float64).data.dtype)
print(p.is_pinned(), p._fields)
print(isinstance(p, tuple), type(p) is PackedSequence, p.count(None), p.index(None))
lstm = torch.nn.LSTM(2, 3)
out, _ = lstm(p.double().float())
print(type(out).__name__, out.sorted_indices, out.batch_sizes)
try:
    p._replace(datum=1)
except ValueError as e:
    print('ValueError', e)
