# Tensor.__index__ in the language's sequences: a one-element integer or bool tensor indexes a list,
# tuple or str (word_language_model's generate.py: corpus.dictionary.idx2word[word_idx]); others are
# PyTorch's TypeError.
import torch
l=[10,20,30]
print(l[torch.tensor(1)], l[torch.tensor([2])], (1,2,3)[torch.tensor(-1)], 'abc'[torch.tensor(1)], l[torch.tensor(1,dtype=torch.int32)])
for k in [torch.tensor(1.0), torch.tensor([1,2]), torch.tensor(True), torch.tensor(5)]:
    try: print(l[k])
    except Exception as e: print(type(e).__name__, e)
