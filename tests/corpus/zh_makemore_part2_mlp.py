# nnscope corpus script (tests/corpus/README.md): a real public PyTorch script.
# Source: https://github.com/karpathy/nn-zero-to-hero/blob/73c3fcc741f0ec104ca850b1fb0df90e7e8d4cde/lectures/makemore/makemore_part2_mlp.ipynb
# License: MIT (Copyright (c) 2022 Andrej Karpathy)
# Adaptations (nothing else changed):
#  - the notebook's code cells, in order, as one script (markdown cells left out)
#  - `import torch; torch.manual_seed(0)` at the top, so the cells that draw from the global generator are reproducible
#  - the lines `import matplotlib.pyplot as plt` and `%matplotlib inline` removed, and the cells that plot dropped: 28, 31
#  - cells that fail when the notebook is run top to bottom (they were run out of order or depend on a dropped plot) dropped: 19
#  - a cell's last bare expression, which the notebook displayed, printed with print(): cells 1, 2, 5, 8, 11, 12, 15, 18, 19, 29, 30, 33
#  - names.txt is the first 1000 lines of karpathy/makemore's names.txt at commit 988aa59e4d8fefa526d06f3b453ad116258398d4
#  - the training loop cut from 200000 steps to 1000

# nnscope corpus: some cells draw from the global generator unseeded
import torch
torch.manual_seed(0)

# --- notebook cell 0
import torch
import torch.nn.functional as F
# --- notebook cell 1
# read in all the words
words = open('names.txt', 'r').read().splitlines()
print(words[:8])  # nnscope corpus: the notebook displayed it
# --- notebook cell 2
print(len(words))  # nnscope corpus: the notebook displayed it
# --- notebook cell 3
# build the vocabulary of characters and mappings to/from integers
chars = sorted(list(set(''.join(words))))
stoi = {s:i+1 for i,s in enumerate(chars)}
stoi['.'] = 0
itos = {i:s for s,i in stoi.items()}
print(itos)
# --- notebook cell 4
# build the dataset

block_size = 3 # context length: how many characters do we take to predict the next one?
X, Y = [], []
for w in words:
  
  #print(w)
  context = [0] * block_size
  for ch in w + '.':
    ix = stoi[ch]
    X.append(context)
    Y.append(ix)
    #print(''.join(itos[i] for i in context), '--->', itos[ix])
    context = context[1:] + [ix] # crop and append
  
X = torch.tensor(X)
Y = torch.tensor(Y)
# --- notebook cell 5
print(X.shape, X.dtype, Y.shape, Y.dtype)  # nnscope corpus: the notebook displayed it
# --- notebook cell 6
# build the dataset
block_size = 3 # context length: how many characters do we take to predict the next one?

def build_dataset(words):  
  X, Y = [], []
  for w in words:

    #print(w)
    context = [0] * block_size
    for ch in w + '.':
      ix = stoi[ch]
      X.append(context)
      Y.append(ix)
      #print(''.join(itos[i] for i in context), '--->', itos[ix])
      context = context[1:] + [ix] # crop and append

  X = torch.tensor(X)
  Y = torch.tensor(Y)
  print(X.shape, Y.shape)
  return X, Y

import random
random.seed(42)
random.shuffle(words)
n1 = int(0.8*len(words))
n2 = int(0.9*len(words))

Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])
# --- notebook cell 7
C = torch.randn((27, 2))
# --- notebook cell 8
emb = C[X]
print(emb.shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 9
W1 = torch.randn((6, 100))
b1 = torch.randn(100)
# --- notebook cell 10
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
# --- notebook cell 11
print(h)  # nnscope corpus: the notebook displayed it
# --- notebook cell 12
print(h.shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 13
W2 = torch.randn((100, 27))
b2 = torch.randn(27)
# --- notebook cell 14
logits = h @ W2 + b2
# --- notebook cell 15
print(logits.shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 16
counts = logits.exp()
# --- notebook cell 17
prob = counts / counts.sum(1, keepdims=True)
# --- notebook cell 18
print(prob.shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 21
Xtr.shape, Ytr.shape # dataset
# --- notebook cell 22
g = torch.Generator().manual_seed(2147483647) # for reproducibility
C = torch.randn((27, 10), generator=g)
W1 = torch.randn((30, 200), generator=g)
b1 = torch.randn(200, generator=g)
W2 = torch.randn((200, 27), generator=g)
b2 = torch.randn(27, generator=g)
parameters = [C, W1, b1, W2, b2]
# --- notebook cell 23
sum(p.nelement() for p in parameters) # number of parameters in total
# --- notebook cell 24
for p in parameters:
  p.requires_grad = True
# --- notebook cell 25
lre = torch.linspace(-3, 0, 1000)
lrs = 10**lre
# --- notebook cell 26
lri = []
lossi = []
stepi = []
# --- notebook cell 27
for i in range(1000):
  
  # minibatch construct
  ix = torch.randint(0, Xtr.shape[0], (32,))
  
  # forward pass
  emb = C[Xtr[ix]] # (32, 3, 10)
  h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 200)
  logits = h @ W2 + b2 # (32, 27)
  loss = F.cross_entropy(logits, Ytr[ix])
  #print(loss.item())
  
  # backward pass
  for p in parameters:
    p.grad = None
  loss.backward()
  
  # update
  #lr = lrs[i]
  lr = 0.1 if i < 100000 else 0.01
  for p in parameters:
    p.data += -lr * p.grad

  # track stats
  #lri.append(lre[i])
  stepi.append(i)
  lossi.append(loss.log10().item())

#print(loss.item())
# --- notebook cell 29
emb = C[Xtr] # (32, 3, 2)
h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 100)
logits = h @ W2 + b2 # (32, 27)
loss = F.cross_entropy(logits, Ytr)
print(loss)  # nnscope corpus: the notebook displayed it
# --- notebook cell 30
emb = C[Xdev] # (32, 3, 2)
h = torch.tanh(emb.view(-1, 30) @ W1 + b1) # (32, 100)
logits = h @ W2 + b2 # (32, 27)
loss = F.cross_entropy(logits, Ydev)
print(loss)  # nnscope corpus: the notebook displayed it
# --- notebook cell 33
context = [0] * block_size
print(C[torch.tensor([context])].shape)  # nnscope corpus: the notebook displayed it
# --- notebook cell 34


# sample from the model
g = torch.Generator().manual_seed(2147483647 + 10)

for _ in range(20):
    
    out = []
    context = [0] * block_size # initialize with all ...
    while True:
      emb = C[torch.tensor([context])] # (1,block_size,d)
      h = torch.tanh(emb.view(1, -1) @ W1 + b1)
      logits = h @ W2 + b2
      probs = F.softmax(logits, dim=1)
      ix = torch.multinomial(probs, num_samples=1, generator=g).item()
      context = context[1:] + [ix]
      out.append(ix)
      if ix == 0:
        break
    
    print(''.join(itos[i] for i in out))
