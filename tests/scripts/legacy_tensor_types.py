# The legacy typed constructors torch.FloatTensor, DoubleTensor, LongTensor,
# IntTensor, BoolTensor; x.type() and x.type(...) by class or name; isinstance
# (expected output from PyTorch 1.13).
import torch


def err(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


print(torch.FloatTensor, torch.LongTensor, torch.DoubleTensor, torch.IntTensor, torch.BoolTensor)
x = torch.FloatTensor(2, 3)
print(x.shape, x.dtype, type(x))
print(torch.FloatTensor([1, 2]), torch.DoubleTensor([[1.5], [2.5]]), torch.LongTensor([1.7, -2.5]))
print(torch.IntTensor([3, 4]), torch.BoolTensor([1, 0, 2]), torch.HalfTensor([0.5]).dtype, torch.BFloat16Tensor(1).dtype)
print(torch.FloatTensor(), torch.LongTensor(torch.Size([2])).shape, torch.FloatTensor((2, 3)))
print(torch.LongTensor(3).dtype, torch.FloatTensor(2, 0).shape)
y = torch.tensor([1, 2])
print(torch.LongTensor(y) is y)
v = torch.tensor([[0.5, 1.5], [2.5, -3.5]])
print(v.type(), y.type(), torch.zeros(1, dtype=torch.bool).type(), v.double().type())
print(v.type(torch.LongTensor), v.type("torch.IntTensor"), y.type(torch.FloatTensor), v.type(torch.float64))
print(isinstance(v, torch.FloatTensor), isinstance(v, torch.LongTensor), isinstance(y, torch.LongTensor))
print(isinstance(v, torch.Tensor), isinstance(3, torch.FloatTensor), isinstance(v, (torch.LongTensor, torch.FloatTensor)))
inputs = torch.LongTensor([[0, 1], [2, 3]])
emb = torch.nn.Embedding(4, 2)
print(emb(inputs).shape)
err(lambda: v.type("torch.FooTensor"))
err(lambda: torch.FloatTensor(2, "a"))
