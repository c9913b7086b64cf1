# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/karpathy/nn-zero-to-hero/blob/73c3fcc741f0ec104ca850b1fb0df90e7e8d4cde/lectures/makemore/makemore_part1_bigrams.ipynb
# License: MIT (Copyright (c) 2022 Andrej Karpathy)
# Adaptations (nothing else changed):
#  - the notebook's code cells, in order, as one script (markdown cells left out)
#  - `import torch; torch.manual_seed(0)` at the top, so the cells that draw from the global generator are reproducible
#  - the lines `import matplotlib.pyplot as plt` and `%matplotlib inline` removed, and the cells that plot dropped: 11, 32
#  - cells that fail when the notebook is run top to bottom (they were run out of order or depend on a dropped plot) dropped: 18, 19, 21
#  - a cell's last bare expression, which the notebook displayed, printed with print(): cells 1, 2, 3, 4, 6, 12, 13, 14, 15, 16, 17, 18, 19, 21, 28, 29, 30, 31, 33, 34, 35, 36, 37, 38, 41, 42, 45, 48, 49, 53
#  - names.txt is the first 1000 lines of karpathy/makemore's names.txt at commit 988aa59e4d8fefa526d06f3b453ad116258398d4

# nnscope corpus: some cells draw from the global generator unseeded
import torch
torch.manual_seed(0)

# --- notebook cell 0
words = open('names.txt', 'r').read().splitlines()
# --- notebook cell 1
print(words[:10])  # nnscope corpus: the notebook displayed it
# --- notebook cell 2
print(len(words))  # nnscope corpus: the notebook displayed it
# --- notebook cell 3
print(min(len(w) for w in words))  # nnscope corpus: the notebook displayed it
# --- notebook cell 4
print(max(len(w) for w in words))  # nnscope corpus: the notebook displayed it
# --- notebook cell 5
b = {}
for w in words:
  chs = ['<S>'] + list(w) + ['<E>']
  for ch1, ch2 in zip(chs, chs[1:]):
    bigram = (ch1, ch2)
    b[bigram] = b.get(bigram, 0) + 1
# --- notebook cell 6
print(sorted(b.items(), key = lambda kv: -kv[1]))  # nnscope corpus: the notebook displayed it
# --- notebook cell 7
import torch
# --- notebook cell 8
N = torch.zeros((27, 27), dtype=torch.int32)
# --- notebook cell 9
chars = sorted(list(set(''.join(words))))
stoi = {s:i+1 for i,s in enumerate(chars)}
stoi['.'] = 0
itos = {i:s for s,i in stoi.items()}
# --- notebook cell 10

for w in words:
  chs = ['.'] + list(w) + ['.']
  for ch1, ch2 in zip(chs, chs[1:]):
    ix1 = stoi[ch1]
    ix2 = stoi[ch2]
    N[ix1, ix2] += 1
    
# --- notebook cell 12
print(N[0])  # nnscope corpus: the notebook displayed it
# --- notebook cell 13
p = N[0].float()
p = p / p.sum()
print(p)  # nnscope corpus: the notebook displayed it
# --- notebook cell 14
g = torch.Generator().manual_seed(2147483647)
ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
print(itos[ix])  # nnscope corpus: the notebook displayed it
# --- notebook cell 15
g = torch.Generator().manual_seed(2147483647)
p = torch.rand(3, generator=g)
p = p / p.sum()
print(p)  # nnscope corpus: the notebook displayed it
# --- notebook cell 16
print(torch.multinomial(p, num_samples=100, replacement=True, generator=g))  # nnscope corpus: the notebook displayed it
# --- notebook cell 17
print(p.shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 23
P = (N+1).float()
P /= P.sum(1, keepdims=True)
# --- notebook cell 24
g = torch.Generator().manual_seed(2147483647)

for i in range(5):
  
  out = []
  ix = 0
  while True:
    p = P[ix]
    ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
    out.append(itos[ix])
    if ix == 0:
      break
  print(''.join(out))
# --- notebook cell 26
log_likelihood = 0.0
n = 0

for w in words:
#for w in ["andrejq"]:
  chs = ['.'] + list(w) + ['.']
  for ch1, ch2 in zip(chs, chs[1:]):
    ix1 = stoi[ch1]
    ix2 = stoi[ch2]
    prob = P[ix1, ix2]
    logprob = torch.log(prob)
    log_likelihood += logprob
    n += 1
    #print(f'{ch1}{ch2}: {prob:.4f} {logprob:.4f}')

print(f'{log_likelihood=}')
nll = -log_likelihood
print(f'{nll=}')
print(f'{nll/n}')
# --- notebook cell 27
# create the training set of bigrams (x,y)
xs, ys = [], []

for w in words[:1]:
  chs = ['.'] + list(w) + ['.']
  for ch1, ch2 in zip(chs, chs[1:]):
    ix1 = stoi[ch1]
    ix2 = stoi[ch2]
    print(ch1, ch2)
    xs.append(ix1)
    ys.append(ix2)
    
xs = torch.tensor(xs)
ys = torch.tensor(ys)
# --- notebook cell 28
print(xs)  # nnscope corpus: the notebook displayed it
# --- notebook cell 29
print(ys)  # nnscope corpus: the notebook displayed it
# --- notebook cell 30
import torch.nn.functional as F
xenc = F.one_hot(xs, num_classes=27).float()
print(xenc)  # nnscope corpus: the notebook displayed it
# --- notebook cell 31
print(xenc.shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 33
print(xenc.dtype)  # nnscope corpus: the notebook displayed it
# --- notebook cell 34
W = torch.randn((27, 1))
print(xenc @ W)  # nnscope corpus: the notebook displayed it
# --- notebook cell 35
logits = xenc @ W # log-counts
counts = logits.exp() # equivalent N
probs = counts / counts.sum(1, keepdims=True)
print(probs)  # nnscope corpus: the notebook displayed it
# --- notebook cell 36
print(probs[0])  # nnscope corpus: the notebook displayed it
# --- notebook cell 37
print(probs[0].shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 38
print(probs[0].sum())  # nnscope corpus: the notebook displayed it
# --- notebook cell 41
print(xs)  # nnscope corpus: the notebook displayed it
# --- notebook cell 42
print(ys)  # nnscope corpus: the notebook displayed it
# --- notebook cell 43
# randomly initialize 27 neurons' weights. each neuron receives 27 inputs
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g)
# --- notebook cell 44
xenc = F.one_hot(xs, num_classes=27).float() # input to the network: one-hot encoding
logits = xenc @ W # predict log-counts
counts = logits.exp() # counts, equivalent to N
probs = counts / counts.sum(1, keepdims=True) # probabilities for next character
# btw: the last 2 lines here are together called a 'softmax'
# --- notebook cell 45
print(probs.shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 46

nlls = torch.zeros(5)
for i in range(5):
  # i-th bigram:
  x = xs[i].item() # input character index
  y = ys[i].item() # label character index
  print('--------')
  print(f'bigram example {i+1}: {itos[x]}{itos[y]} (indexes {x},{y})')
  print('input to the neural net:', x)
  print('output probabilities from the neural net:', probs[i])
  print('label (actual next character):', y)
  p = probs[i, y]
  print('probability assigned by the net to the the correct character:', p.item())
  logp = torch.log(p)
  print('log likelihood:', logp.item())
  nll = -logp
  print('negative log likelihood:', nll.item())
  nlls[i] = nll

print('=========')
print('average negative log likelihood, i.e. loss =', nlls.mean().item())
# --- notebook cell 48
print(xs)  # nnscope corpus: the notebook displayed it
# --- notebook cell 49
print(ys)  # nnscope corpus: the notebook displayed it
# --- notebook cell 50
# randomly initialize 27 neurons' weights. each neuron receives 27 inputs
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
# --- notebook cell 51
# forward pass
xenc = F.one_hot(xs, num_classes=27).float() # input to the network: one-hot encoding
logits = xenc @ W # predict log-counts
counts = logits.exp() # counts, equivalent to N
probs = counts / counts.sum(1, keepdims=True) # probabilities for next character
loss = -probs[torch.arange(5), ys].log().mean()
# --- notebook cell 52
print(loss.item())
# --- notebook cell 53
# backward pass
W.grad = None # set to zero the gradient
print(loss.backward())  # nnscope corpus: the notebook displayed it
# --- notebook cell 54
W.data += -0.1 * W.grad
# --- notebook cell 56
# create the dataset
xs, ys = [], []
for w in words:
  chs = ['.'] + list(w) + ['.']
  for ch1, ch2 in zip(chs, chs[1:]):
    ix1 = stoi[ch1]
    ix2 = stoi[ch2]
    xs.append(ix1)
    ys.append(ix2)
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print('number of examples: ', num)

# initialize the 'network'
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
# --- notebook cell 57
# gradient descent
for k in range(1):
  
  # forward pass
  xenc = F.one_hot(xs, num_classes=27).float() # input to the network: one-hot encoding
  logits = xenc @ W # predict log-counts
  counts = logits.exp() # counts, equivalent to N
  probs = counts / counts.sum(1, keepdims=True) # probabilities for next character
  loss = -probs[torch.arange(num), ys].log().mean() + 0.01*(W**2).mean()
  print(loss.item())
  
  # backward pass
  W.grad = None # set to zero the gradient
  loss.backward()
  
  # update
  W.data += -50 * W.grad
# --- notebook cell 58
# finally, sample from the 'neural net' model
g = torch.Generator().manual_seed(2147483647)

for i in range(5):
  
  out = []
  ix = 0
  while True:
    
    # ----------
    # BEFORE:
    #p = P[ix]
    # ----------
    # NOW:
    xenc = F.one_hot(torch.tensor([ix]), num_classes=27).float()
    logits = xenc @ W # predict log-counts
    counts = logits.exp() # counts, equivalent to N
    p = counts / counts.sum(1, keepdims=True) # probabilities for next character
    # ----------
    
    ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
    out.append(itos[ix])
    if ix == 0:
      break
  print(''.join(out))
