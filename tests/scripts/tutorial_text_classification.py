# The text-classification tutorial (EmbeddingBag with offsets, a collate_fn, StepLR with a float step_size)
# on a six-sentence corpus instead of AG_NEWS.
import torch
from torch import nn
import time
torch.manual_seed(1)
class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super(TextClassificationModel, self).__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()
    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()
    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)

corpus = ["the cat sat on the mat", "dogs chase cats", "stocks fell sharply today",
          "the market rallied", "a new phone was released", "tech company earnings beat"]
labels = [0, 0, 1, 1, 2, 2]
from collections import Counter, OrderedDict
counter = Counter()
for line in corpus:
    counter.update(line.split())
vocab = {w: i + 1 for i, (w, _) in enumerate(sorted(counter.items(), key=lambda x: (-x[1], x[0])))}
vocab['<unk>'] = 0
text_pipeline = lambda x: [vocab.get(t, 0) for t in x.split()]
def collate_batch(batch):
    label_list, text_list, offsets = [], [], [0]
    for (_label, _text) in batch:
        label_list.append(_label)
        processed_text = torch.tensor(text_pipeline(_text), dtype=torch.int64)
        text_list.append(processed_text)
        offsets.append(processed_text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    offsets = torch.tensor(offsets[:-1]).cumsum(dim=0)
    text_list = torch.cat(text_list)
    return label_list, text_list, offsets
from torch.utils.data import DataLoader
data = list(zip(labels, corpus))
dataloader = DataLoader(data, batch_size=3, shuffle=True, collate_fn=collate_batch)
model = TextClassificationModel(len(vocab), 8, 3)
print(model)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.1)
for epoch in range(1, 4):
    model.train()
    total_acc, total_count = 0, 0
    for idx, (label, text, offsets) in enumerate(dataloader):
        optimizer.zero_grad()
        predicted_label = model(text, offsets)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
    scheduler.step()
    print('| epoch {:3d} | accuracy {:8.3f} | lr {}'.format(epoch, total_acc / total_count, scheduler.get_last_lr()))
eb = nn.EmbeddingBag(10, 3, mode='max')
print(eb(torch.tensor([[1, 2], [3, 4]])))
eb2 = nn.EmbeddingBag(10, 3, mode='sum', padding_idx=0)
print(eb2(torch.tensor([1, 0, 4, 5, 0]), torch.tensor([0, 2]), per_sample_weights=None))
print(nn.functional.embedding_bag(torch.tensor([1, 2, 4, 5, 4, 3]), eb.weight, torch.tensor([0, 3]), mode='mean'))
w = torch.tensor([0.5, 1., 2., 1., 1., 1.])
print(nn.functional.embedding_bag(torch.tensor([1, 2, 4, 5, 4, 3]), eb.weight, torch.tensor([0, 3]), mode='sum', per_sample_weights=w))
