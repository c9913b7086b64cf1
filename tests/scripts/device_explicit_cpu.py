# Tensors put on the CPU explicitly stay there whatever the default device (the loopback run of
# tests/run.sh makes another device the default): cat/stack, dropout's masks, affine_grid's base grid,
# embedding_bag's offsets, and the backwards of max_pool2d, nll_loss, gather and slicing.
import torch
import torch.nn.functional as F

c = torch.device('cpu')


def check(name, f):
    torch.manual_seed(0)
    x = torch.randn(2, 1, 6, 6, device=c, requires_grad=True)
    y = f(x)
    y.sum().backward()
    print(name, y.device, x.grad.device, round(x.grad.sum().item(), 4))


th = torch.tensor([[[1., 0, 0], [0, 1, 0]]] * 2, device=c)
check('grid_sample', lambda x: F.grid_sample(x, F.affine_grid(th, x.size(), align_corners=False), align_corners=False))
check('max_pool2d', lambda x: F.max_pool2d(x, 2))
check('dropout', lambda x: F.dropout(x, p=0.5, training=True))
check('dropout_all', lambda x: F.dropout(x, p=1.0, training=True))
check('dropout2d', lambda x: F.dropout2d(x, training=True))
check('nll', lambda x: F.nll_loss(F.log_softmax(x.view(2, -1), 1), torch.tensor([1, 2], device=c)))
check('stack', lambda x: torch.stack([x, x * 2], 1))
check('cat', lambda x: torch.cat([x, x * 2], 1))
check('slice', lambda x: x[:, :, 1:4, ::2])
check('select', lambda x: x[1, 0])
check('index', lambda x: x[torch.tensor([1, 0], device=c), 0, 2])
theta = torch.randn(1, 2, 3, device=c, requires_grad=True)
g = F.affine_grid(theta, (1, 1, 3, 4), align_corners=True)
g.sum().backward()
print('affine_grid', g.device, theta.grad.device, g.shape)
w = torch.randn(10, 3, device=c, requires_grad=True)
bag = F.embedding_bag(torch.tensor([[1, 2], [4, 5]], device=c), w, mode='mean')
bag.sum().backward()
print('embedding_bag', bag.device, w.grad.device, w.grad.sum().item())
bag = F.embedding_bag(torch.tensor([1, 2, 4, 5, 4], device=c), w, torch.tensor([0, 2], device=c), mode='max')
print('embedding_bag max', bag.device, bag.shape)
