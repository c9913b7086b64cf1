# grad_fn names of the torch.nn functions written in the language: PyTorch's names for its one op
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
def r(*s): return torch.randn(*s, requires_grad=True)
x5 = r(1,2,4,4,4); x4=r(1,2,4,4); x3=r(1,2,6)
cases = {
 'conv3d': lambda: F.conv3d(x5, r(3,2,2,2,2)),
 'conv3d_unb': lambda: F.conv3d(r(2,4,4,4), r(3,2,2,2,2)),
 'conv_transpose3d': lambda: F.conv_transpose3d(x5, r(2,3,2,2,2)),
 'max_pool3d': lambda: F.max_pool3d(x5, 2),
 'max_pool3d_idx': lambda: F.max_pool3d(x5, 2, return_indices=True)[0],
 'max_pool3d_unb': lambda: F.max_pool3d(r(2,4,4,4), 2),
 'avg_pool3d': lambda: F.avg_pool3d(x5, 2),
 'avg_pool3d_unb': lambda: F.avg_pool3d(r(2,4,4,4), 2),
 'adaptive_avg_pool3d': lambda: F.adaptive_avg_pool3d(x5, 2),
 'adaptive_avg_pool3d_1': lambda: F.adaptive_avg_pool3d(x5, 1),
 'adaptive_max_pool3d': lambda: F.adaptive_max_pool3d(x5, 2),
 'adaptive_max_pool1d': lambda: F.adaptive_max_pool1d(x3, 2),
 'fold': lambda: F.fold(r(1,8,9), 4, 2),
 'unfold': lambda: F.unfold(x4, 2),
 'channel_shuffle': lambda: F.channel_shuffle(x4, 2),
 'embedding_bag': lambda: F.embedding_bag(torch.tensor([1,2,0,1]), r(5,3), torch.tensor([0,2])),
 'embedding_bag_sum': lambda: F.embedding_bag(torch.tensor([1,2,0,1]), r(5,3), torch.tensor([0,2]), mode='sum'),
 'embedding_bag_max': lambda: F.embedding_bag(torch.tensor([1,2,0,1]), r(5,3), torch.tensor([0,2]), mode='max'),
 'grid_sample': lambda: F.grid_sample(x4, torch.rand(1,3,3,2)*2-1, align_corners=False),
 'grid_sample3d': lambda: F.grid_sample(x5, torch.rand(1,2,2,2,3)*2-1, align_corners=False),
 'affine_grid': lambda: F.affine_grid(r(1,2,3), (1,1,3,3), align_corners=False),
 'bilinear': lambda: F.bilinear(r(2,3), r(2,4), r(5,3,4), r(5)),
 'bilinear_nob': lambda: F.bilinear(r(2,3), r(2,4), r(5,3,4)),
 'lp_pool1d': lambda: F.lp_pool1d(x3, 2, 2),
 'lp_pool2d': lambda: F.lp_pool2d(x4, 2, 2),
 'max_unpool1d': lambda: F.max_unpool1d(*F.max_pool1d(x3, 2, return_indices=True), 2),
 'max_unpool3d': lambda: F.max_unpool3d(*F.max_pool3d(x5, 2, return_indices=True), 2),
 'soft_margin': lambda: F.soft_margin_loss(r(3), torch.tensor([1.,-1,1])),
 'soft_margin_none': lambda: F.soft_margin_loss(r(3), torch.tensor([1.,-1,1]), reduction='none'),
 'multilabel_soft_margin': lambda: F.multilabel_soft_margin_loss(r(2,3), torch.tensor([[1.,0,1],[0,1,0]])),
 'hinge': lambda: F.hinge_embedding_loss(r(3), torch.tensor([1.,-1,1])),
 'poisson': lambda: F.poisson_nll_loss(r(3), torch.rand(3)),
 'gaussian': lambda: F.gaussian_nll_loss(r(3), torch.rand(3), torch.rand(3)+.1),
 'multi_margin': lambda: F.multi_margin_loss(r(2,3), torch.tensor([0,2])),
 'multilabel_margin': lambda: F.multilabel_margin_loss(r(2,3), torch.tensor([[0,2,-1],[1,-1,0]])),
 'triplet_dist': lambda: F.triplet_margin_with_distance_loss(r(2,3), r(2,3), r(2,3)),
 'ctc': lambda: F.ctc_loss(r(5,1,4).log_softmax(2), torch.tensor([[1,2]]), [5], [2]),
 'pdist': lambda: F.pdist(r(3,4)),
 'gumbel': lambda: F.gumbel_softmax(r(2,3)),
 'gumbel_hard': lambda: F.gumbel_softmax(r(2,3), hard=True),
}
for k, f in cases.items():
    try:
        y = f()
        print(k, type(y.grad_fn).__name__)
    except Exception as e:
        print(k, 'ERR', type(e).__name__)
# the modules, and the nodes' own classes
x = torch.randn(2, 3, 4, 4, 4, requires_grad=True)
for m in [nn.Conv3d(3, 2, 2), nn.ConvTranspose3d(3, 2, 2), nn.MaxPool3d(2), nn.AvgPool3d(2), nn.AdaptiveAvgPool3d(2),
          nn.AdaptiveMaxPool3d(2)]:
    y = m(x)
    print(type(m).__name__, type(y.grad_fn).__name__, y.grad_fn.name())
bag = nn.EmbeddingBag(10, 3)
print(type(bag(torch.tensor([[1, 2], [3, 4]])).grad_fn).__name__)
# a layer's node named as PyTorch's still gives the same gradients
xs = torch.randn(1, 2, 4, 4, 4, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda a: F.max_pool3d(a, 2), (xs,)))
print(torch.autograd.gradcheck(lambda a: F.avg_pool3d(a, 2, 1), (xs,)))
# an input passed through unchanged keeps its own node's name
h = x * 2
print(type(F.adaptive_max_pool3d(h, (4, 4, 4)).grad_fn).__name__, type(h.grad_fn).__name__)
# double backward through a convolution: PyTorch's node of the gradients
w = torch.randn(2, 3, 3, 3, requires_grad=True)
x2 = torch.randn(1, 3, 5, 5, requires_grad=True)
gx, gw = torch.autograd.grad(F.conv2d(x2, w).pow(2).sum(), (x2, w), create_graph=True)
print(type(gx.grad_fn).__name__, type(gw.grad_fn).__name__)
