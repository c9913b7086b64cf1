# Variable-length batches through a 2-layer bidirectional LSTM, as popular tagger/classifier repos write them:
# pad_sequence, sort by length, pack_padded_sequence (enforce_sorted both ways), pad_packed_sequence with
# total_length, the last hidden state of both directions unsorted back, a GRU on pack_sequence, masked mean pooling.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence
torch.manual_seed(3)

seqs = [[4, 2, 7, 1], [3, 9], [5, 6, 8], [1]]
vocab = 10
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence([torch.tensor(s) for s in seqs], batch_first=True, padding_value=0)
print(padded, lengths)

lens_sorted, perm_idx = lengths.sort(0, descending=True)
padded_sorted = padded[perm_idx]
print(lens_sorted, perm_idx)

emb = nn.Embedding(vocab, 5, padding_idx=0)
lstm = nn.LSTM(5, 6, num_layers=2, bidirectional=True, batch_first=True)
x = emb(padded_sorted)
packed = pack_padded_sequence(x, lens_sorted, batch_first=True)
print(type(packed).__name__, packed.batch_sizes, packed.data.shape)
out, (h, c) = lstm(packed)
unpacked, unpacked_len = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, unpacked_len)
print(unpacked[:, :, :3])
print(h.shape, c.shape)
# last hidden of both directions
last = torch.cat((h[-2, :, :], h[-1, :, :]), dim=1)
_, unperm_idx = perm_idx.sort(0)
last = last[unperm_idx]
print(last)
# enforce_sorted=False path
packed2 = pack_padded_sequence(emb(padded), lengths, batch_first=True, enforce_sorted=False)
print(packed2.sorted_indices, packed2.unsorted_indices)
out2, (h2, c2) = lstm(packed2)
print(torch.allclose(torch.cat((h2[-2], h2[-1]), 1), last))
un2, l2 = pad_packed_sequence(out2, batch_first=True, total_length=5)
print(un2.shape, l2)
# GRU with pack_sequence, time-major
gru = nn.GRU(5, 4)
ps = pack_sequence([emb(torch.tensor(s)) for s in sorted(seqs, key=len, reverse=True)])
o, hn = gru(ps)
po, pl = pad_packed_sequence(o)
print(po.shape, pl, hn)
# masked mean pooling
mask = (padded != 0).unsqueeze(-1).float()
pooled = (emb(padded) * mask).sum(1) / mask.sum(1)
print(pooled)
clf = nn.Linear(12, 3)
logits = clf(last)
loss = nn.CrossEntropyLoss()(logits, torch.tensor([0, 1, 2, 1]))
loss.backward()
print(loss, lstm.weight_hh_l1_reverse.grad.abs().sum())
print(emb.weight.grad[0])
