# torch.optim's Adamax, NAdam, RAdam, Rprop and ASGD as PyTorch 1.13 writes them for the
# CPU (its single-tensor forms, foreach=None): the same tensor operations in the same
# order, so each step gives PyTorch's bits. The state is PyTorch's too (0-dim float 'step'
# tensors, 'exp_inf', 'mu_product', 'prev', 'step_size', 'eta', 'mu', 'ax'), so
# state_dict() round-trips with PyTorch's checkpoints.
import math
import torch
from torch.optim.optimizer import Optimizer

__all__ = ['Adamax', 'NAdam', 'RAdam', 'Rprop', 'ASGD']


def _check_non_negative(name, value):
    if not 0.0 <= value:
        raise ValueError("Invalid {}: {}".format(name, value))


def _check_adam_like(lr, betas, eps, weight_decay):
    _check_non_negative("learning rate", lr)
    _check_non_negative("epsilon value", eps)
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
    _check_non_negative("weight_decay value", weight_decay)


def _tensor_steps(optimizer, *keys):
    # a checkpoint of an older PyTorch keeps these as numbers; 1.13 keeps tensors
    values = list(optimizer.state.values())
    for key in keys:
        if len(values) != 0 and not torch.is_tensor(values[0][key]):
            for s in values:
                s[key] = torch.tensor(float(s[key]))


def _closure_loss(closure):
    if closure is None:
        return None
    with torch.enable_grad():
        return closure()


def _with_grad(optimizer, group, name):
    # (param, its state) for each parameter of group that has a grad, in order
    todo = []
    for p in group['params']:
        if p.grad is None:
            continue
        if p.grad.is_sparse:
            raise RuntimeError('{} does not support sparse gradients'.format(name))
        todo.append((p, optimizer.state[p]))
    return todo


class Adamax(Optimizer):
    __module__ = 'torch.optim.adamax'

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False):
        _check_adam_like(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super(Adamax, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
        _tensor_steps(self, 'step')

    def step(self, closure=None):
        loss = _closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group['betas']
                eps, lr, weight_decay = group['eps'], group['lr'], group['weight_decay']
                for p, state in _with_grad(self, group, 'Adamax'):
                    if len(state) == 0:
                        state['step'] = torch.tensor(0.)
                        state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                        state['exp_inf'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    grad = p.grad if not group['maximize'] else -p.grad
                    exp_avg, exp_inf, step_t = state['exp_avg'], state['exp_inf'], state['step']
                    step_t += 1
                    step = step_t.item()
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                    # the infinity norm: the larger of the decayed old one and |grad| + eps
                    norm_buf = torch.cat([exp_inf.mul_(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0)
                    torch.amax(norm_buf, 0, keepdim=False, out=exp_inf)
                    clr = lr / (1 - beta1 ** step)
                    p.addcdiv_(exp_avg, exp_inf, value=-clr)
        return loss


class NAdam(Optimizer):
    __module__ = 'torch.optim.nadam'

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 foreach=None):
        _check_adam_like(lr, betas, eps, weight_decay)
        _check_non_negative("momentum_decay value", momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        foreach=foreach)
        super(NAdam, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
        _tensor_steps(self, 'step', 'mu_product')

    def step(self, closure=None):
        loss = _closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group['betas']
                lr, weight_decay, eps = group['lr'], group['weight_decay'], group['eps']
                momentum_decay = group['momentum_decay']
                for p, state in _with_grad(self, group, 'NAdam'):
                    if len(state) == 0:
                        state['step'] = torch.tensor(0.)
                        state['mu_product'] = torch.tensor(1.)
                        state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                        state['exp_avg_sq'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    grad = p.grad
                    exp_avg, exp_avg_sq = state['exp_avg'], state['exp_avg_sq']
                    mu_product, step_t = state['mu_product'], state['step']
                    step_t += 1
                    step = step_t.item()
                    bias_correction2 = 1 - beta2 ** step
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    # the momentum schedule of Dozat's NAdam
                    mu = beta1 * (1. - 0.5 * (0.96 ** (step * momentum_decay)))
                    mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
                    mu_product *= mu
                    mu_product_next = mu_product * mu * mu_next
                    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
                    p.addcdiv_(grad, denom, value=-lr * (1. - mu) / (1. - mu_product.item()))
                    p.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1. - mu_product_next.item()))
        return loss


class RAdam(Optimizer):
    __module__ = 'torch.optim.radam'

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None):
        _check_adam_like(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach)
        super(RAdam, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
        _tensor_steps(self, 'step')

    def step(self, closure=None):
        loss = _closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group['betas']
                lr, weight_decay, eps = group['lr'], group['weight_decay'], group['eps']
                for p, state in _with_grad(self, group, 'RAdam'):
                    if len(state) == 0:
                        state['step'] = torch.tensor(0.)
                        state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                        state['exp_avg_sq'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    grad = p.grad
                    exp_avg, exp_avg_sq, step_t = state['exp_avg'], state['exp_avg_sq'], state['step']
                    step_t += 1
                    step = step_t.item()
                    bias_correction1 = 1 - beta1 ** step
                    bias_correction2 = 1 - beta2 ** step
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    bias_corrected_exp_avg = exp_avg / bias_correction1
                    # the variance rectification, once its approximation is tractable (rho_t > 5)
                    rho_inf = 2 / (1 - beta2) - 1
                    rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
                    if rho_t > 5.:
                        rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
                        adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(eps)
                        p.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
                    else:
                        p.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
        return loss


class Rprop(Optimizer):
    __module__ = 'torch.optim.rprop'

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None, maximize=False):
        _check_non_negative("learning rate", lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("Invalid eta values: {}, {}".format(etas[0], etas[1]))
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize)
        super(Rprop, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)

    def step(self, closure=None):
        loss = _closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                etaminus, etaplus = group['etas']
                step_size_min, step_size_max = group['step_sizes']
                todo = _with_grad(self, group, 'Rprop')
                for p, state in todo:
                    if len(state) == 0:
                        state['step'] = 0
                        state['prev'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                        state['step_size'] = torch.full_like(p.grad, group['lr'])
                    state['step'] += 1
                for p, state in todo:
                    grad = p.grad if not group['maximize'] else -p.grad
                    prev, step_size = state['prev'], state['step_size']
                    # each step size grows while its gradient keeps its sign, shrinks when it flips
                    sign = grad.mul(prev).sign()
                    sign[sign.gt(0)] = etaplus
                    sign[sign.lt(0)] = etaminus
                    sign[sign.eq(0)] = 1
                    step_size.mul_(sign).clamp_(step_size_min, step_size_max)
                    grad = grad.clone(memory_format=torch.preserve_format)
                    grad[sign.eq(etaminus)] = 0
                    p.addcmul_(grad.sign(), step_size, value=-1)
                    prev.copy_(grad)
        return loss


class ASGD(Optimizer):
    __module__ = 'torch.optim.asgd'

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False):
        _check_non_negative("learning rate", lr)
        _check_non_negative("weight_decay value", weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize)
        super(ASGD, self).__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
        _tensor_steps(self, 'step', 'eta', 'mu')

    def step(self, closure=None):
        loss = _closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lambd, lr, t0, alpha = group['lambd'], group['lr'], group['t0'], group['alpha']
                weight_decay = group['weight_decay']
                for p, state in _with_grad(self, group, 'ASGD'):
                    if len(state) == 0:
                        state['step'] = torch.tensor(0.)
                        state['eta'] = torch.tensor(group['lr'])
                        state['mu'] = torch.tensor(1.)
                        state['ax'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    grad = p.grad if not group['maximize'] else -p.grad
                    mu, ax, eta, step_t = state['mu'], state['ax'], state['eta'], state['step']
                    step_t += 1
                    step = step_t.item()
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    p.mul_(1 - lambd * eta.item())
                    p.add_(grad, alpha=-eta.item())
                    # the average of the iterates, from step t0 on
                    if mu.item() != 1:
                        ax.add_(p.sub(ax).mul(mu))
                    else:
                        ax.copy_(p)
                    eta.copy_(torch.tensor(lr / math.pow((1 + lambd * lr * step), alpha)))
                    mu.copy_(torch.tensor(1 / max(1, step - t0)))
        return loss
