# A realistic NumPy + torch script (nlp), written the way tutorials and notebooks use NumPy beside
# torch; compared with NumPy 1.24 and PyTorch 1.13 as a whole.
import numpy as np
import torch
import torch.nn as nn

# NLP-style preprocessing: vocab, padding, numpy int arrays
sentences = ["the cat sat", "the dog ran far away", "a cat ran", "dogs and cats"]
words = sorted(set(w for s in sentences for w in s.split()))
vocab = {w: i + 1 for i, w in enumerate(words)}
print(len(vocab), list(vocab.items())[:3])
seqs = [[vocab[w] for w in s.split()] for s in sentences]
maxlen = max(len(s) for s in seqs)
padded = np.zeros((len(seqs), maxlen), dtype=np.int64)
for i, s in enumerate(seqs):
    padded[i, :len(s)] = s
print(padded)
lengths = np.array([len(s) for s in seqs])
print(lengths, np.argsort(-lengths, kind="stable"))
mask = np.arange(maxlen)[None, :] < lengths[:, None]
print(mask.astype(int))
emb = nn.Embedding(len(vocab) + 1, 4, padding_idx=0)
torch.manual_seed(0)
nn.init.normal_(emb.weight)
out = emb(torch.from_numpy(padded))
print(out.shape)
m = torch.from_numpy(mask).unsqueeze(-1).float()
mean_pool = (out * m).sum(1) / m.sum(1)
print(mean_pool.detach().numpy().round(4))
vecs = mean_pool.detach().numpy()
norms = np.linalg.norm(vecs, axis=1, keepdims=True)
sim = (vecs / norms) @ (vecs / norms).T
print(np.round(sim, 3))
print(np.argmax(sim - np.eye(4) * 2, axis=1))
counts = np.bincount(padded.ravel(), minlength=len(vocab) + 1)
print(counts, counts[1:].argmax() + 1)
tf = counts[1:] / counts[1:].sum()
print(np.round(tf, 3), np.round(-np.sum(tf * np.log(tf)), 4))
onehots = np.eye(len(vocab) + 1, dtype=np.float32)[padded]
print(onehots.shape, onehots.sum(), onehots.dtype)
idx2w = {i: w for w, i in vocab.items()}
print([' '.join(idx2w[i] for i in row if i) for row in padded])
print(np.pad(np.array(seqs[2]), (0, 2), constant_values=0), np.array(seqs[1][:3]) * 2)
batch = np.stack([padded[i] for i in [0, 2]])
print(batch, batch.T.copy().flags.c_contiguous)
print(np.cumsum(lengths), np.split(np.arange(sum(lengths)), np.cumsum(lengths)[:-1]))
print(np.random.RandomState(3).permutation(4), np.random.default_rng(3).permutation(4))
probs = torch.softmax(torch.tensor([[1.0, 2.0, 0.5]]), dim=1).numpy()[0]
print(probs, probs.sum(), np.random.default_rng(0).choice(3, size=5, p=probs))
print(np.log(probs).dtype, np.exp(np.log(probs)))
