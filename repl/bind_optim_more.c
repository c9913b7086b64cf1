/*
 * bind_optim_more.c — the module torch.optim.optimizer, written in the
 * language: Optimizer (PyTorch 1.13's base class, which a script may subclass:
 * __init__(params, defaults), param_groups, state, state_dict,
 * load_state_dict, zero_grad, add_param_group, print) and RMSprop, Adagrad
 * and Adadelta on it. Their per-parameter updates are core's
 * (core/optim_more.c), through the helpers _rmsprop, _adagrad and _adadelta;
 * their state lives in the language's dicts under PyTorch's keys ('step',
 * 'square_avg', 'momentum_buffer', 'grad_avg', 'sum', 'acc_delta').
 * torch.optim.Optimizer/RMSprop/Adagrad/Adadelta are this module's (stdlib.c's
 * aliases); SGD, Adam and AdamW stay core's objects (bind_optim.c), and
 * isinstance(them, torch.optim.Optimizer) holds (repl_optim_is_lang_base).
 */
#include <string.h>

#include "bind_int.h"
#include "nn_optim_more.h"
#include "stdlib_int.h"

#define MODNAME "torch.optim.optimizer"
#define ARGS(n) nn_object *a[n] = {0}

/* A state tensor argument: a tensor, or None (NULL). */
static int opt_tensor(const char *fname, const char *name, nn_object *o, nn_tensor **out)
{
    *out = NULL;
    if (!o || nn_is_none(o)) return 0;
    return repl_arg_tensor(fname, name, 0, o, out);
}

static int truth(nn_object *o, bool *out)
{
    int t = repl_truth(o);
    if (t < 0) return -1;
    *out = t > 0;
    return 0;
}

/* _rmsprop(param, grad, square_avg, grad_avg, buf, lr, alpha, eps, weight_decay, momentum, centered, maximize) */
static nn_object *h_rmsprop(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(12);
    nn_tensor *p, *g, *sq, *ga, *buf;
    nn_rmsprop_args r;
    if (repl_parse_args("_rmsprop",
                        "param, grad, square_avg, grad_avg, buf, lr, alpha, eps, weight_decay, momentum, centered, "
                        "maximize",
                        args, kwargs, a) ||
        repl_arg_tensor("RMSprop", "param", 0, a[0], &p) || repl_arg_tensor("RMSprop", "grad", 0, a[1], &g) ||
        opt_tensor("RMSprop", "square_avg", a[2], &sq) || opt_tensor("RMSprop", "grad_avg", a[3], &ga) ||
        opt_tensor("RMSprop", "momentum_buffer", a[4], &buf) || repl_mod_real(a[5], &r.lr) ||
        repl_mod_real(a[6], &r.alpha) || repl_mod_real(a[7], &r.eps) || repl_mod_real(a[8], &r.weight_decay) ||
        repl_mod_real(a[9], &r.momentum) || truth(a[10], &r.centered) || truth(a[11], &r.maximize) ||
        nn_rmsprop_update(p, g, sq, ga, buf, &r))
        return NULL;
    return nn_retain(nn_none());
}

/* _adagrad(param, grad, sum, clr, eps, weight_decay, maximize) */
static nn_object *h_adagrad(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(7);
    nn_tensor *p, *g, *sum;
    nn_adagrad_args r;
    if (repl_parse_args("_adagrad", "param, grad, sum, clr, eps, weight_decay, maximize", args, kwargs, a) ||
        repl_arg_tensor("Adagrad", "param", 0, a[0], &p) || repl_arg_tensor("Adagrad", "grad", 0, a[1], &g) ||
        opt_tensor("Adagrad", "sum", a[2], &sum) || repl_mod_real(a[3], &r.clr) || repl_mod_real(a[4], &r.eps) ||
        repl_mod_real(a[5], &r.weight_decay) || truth(a[6], &r.maximize) || nn_adagrad_update(p, g, sum, &r))
        return NULL;
    return nn_retain(nn_none());
}

/* _adadelta(param, grad, square_avg, acc_delta, lr, rho, eps, weight_decay, maximize) */
static nn_object *h_adadelta(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(9);
    nn_tensor *p, *g, *sq, *acc;
    nn_adadelta_args r;
    if (repl_parse_args("_adadelta", "param, grad, square_avg, acc_delta, lr, rho, eps, weight_decay, maximize", args,
                        kwargs, a) ||
        repl_arg_tensor("Adadelta", "param", 0, a[0], &p) || repl_arg_tensor("Adadelta", "grad", 0, a[1], &g) ||
        opt_tensor("Adadelta", "square_avg", a[2], &sq) || opt_tensor("Adadelta", "acc_delta", a[3], &acc) ||
        repl_mod_real(a[4], &r.lr) || repl_mod_real(a[5], &r.rho) || repl_mod_real(a[6], &r.eps) ||
        repl_mod_real(a[7], &r.weight_decay) || truth(a[8], &r.maximize) || nn_adadelta_update(p, g, sq, acc, &r))
        return NULL;
    return nn_retain(nn_none());
}

/* _set_module(cls, name): the class's module as PyTorch's (torch.optim.rmsprop), for its repr. */
static nn_object *h_set_module(void *ud, nn_object *args, nn_object *kwargs)
{
    static const char *const names[] = {"torch.optim.rmsprop", "torch.optim.adagrad", "torch.optim.adadelta"};
    ARGS(2);
    if (repl_parse_args("_set_module", "cls, name", args, kwargs, a)) return NULL;
    if (a[0]->type != &repl_class_type || !nn_is_str(a[1])) {
        repl_raise_exc(EXC_TypeError, "_set_module(cls, name)");
        return NULL;
    }
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(names[i], nn_str_cstr(a[1]))) ((class_obj *)a[0])->module = names[i];
    return nn_retain(nn_none());
}

static const repl_mod_fn helpers[] = {
    {"_set_module", h_set_module, NULL},
    {"_rmsprop", h_rmsprop, NULL},
    {"_adagrad", h_adagrad, NULL},
    {"_adadelta", h_adadelta, NULL},
};

/* source: begin */
static const char source[] =
    "# torch.optim.optimizer, written in the language: Optimizer (param_groups as\n"
    "# a list of dicts, state as a defaultdict keyed by parameter, state_dict,\n"
    "# load_state_dict, zero_grad, add_param_group, print) with PyTorch 1.13's\n"
    "# behaviour and messages, so that a script may subclass it; and RMSprop,\n"
    "# Adagrad and Adadelta on it, whose per-parameter updates are core's\n"
    "# (_rmsprop, _adagrad, _adadelta: PyTorch's arithmetic, bit for bit).\n"
    "import torch\n"
    "import warnings\n"
    "from collections import defaultdict\n"
    "from copy import deepcopy\n"
    "\n"
    "\n"
    "class _RequiredParameter:\n"
    "    def __repr__(self):\n"
    "        return '<required parameter>'\n"
    "\n"
    "\n"
    "required = _RequiredParameter()\n"
    "\n"
    "\n"
    "def _typename(o):\n"
    "    if isinstance(o, torch.Tensor):\n"
    "        return o.type()\n"
    "    return type(o).__name__\n"
    "\n"
    "\n"
    "def _cast(param, value, key=None):\n"
    "    # a loaded state value for param: tensors (but 'step') to its dtype\n"
    "    if isinstance(value, torch.Tensor):\n"
    "        if key != 'step':\n"
    "            if param.is_floating_point():\n"
    "                value = value.to(param.dtype)\n"
    "            value = value.to(param.device)\n"
    "        return value\n"
    "    if isinstance(value, dict):\n"
    "        return {k: _cast(param, v, key=k) for k, v in value.items()}\n"
    "    if isinstance(value, (list, tuple)):\n"
    "        return type(value)(_cast(param, v) for v in value)\n"
    "    return value\n"
    "\n"
    "\n"
    "class Optimizer:\n"
    "    def __init__(self, params, defaults):\n"
    "        self.defaults = defaults\n"
    "        if isinstance(params, torch.Tensor):\n"
    "            raise TypeError('params argument given to the optimizer should be an iterable of Tensors or dicts, '\n"
    "                            'but got ' + _typename(params))\n"
    "        self.state = defaultdict(dict)\n"
    "        self.param_groups = []\n"
    "        groups = list(params)\n"
    "        if len(groups) == 0:\n"
    "            raise ValueError('optimizer got an empty parameter list')\n"
    "        if not isinstance(groups[0], dict):\n"
    "            groups = [{'params': groups}]\n"
    "        for group in groups:\n"
    "            self.add_param_group(group)\n"
    "\n"
    "    def __getstate__(self):\n"
    "        return {'defaults': self.defaults, 'state': self.state, 'param_groups': self.param_groups}\n"
    "\n"
    "    def __setstate__(self, state):\n"
    "        for k, v in state.items():\n"
    "            setattr(self, k, v)\n"
    "        self.defaults.setdefault('differentiable', False)\n"
    "\n"
    "    def __repr__(self):\n"
    "        text = self.__class__.__name__ + ' ('\n"
    "        for i, group in enumerate(self.param_groups):\n"
    "            text += '\\nParameter Group ' + str(i) + '\\n'\n"
    "            for key in sorted(group.keys()):\n"
    "                if key != 'params':\n"
    "                    text += '    ' + str(key) + ': ' + str(group[key]) + '\\n'\n"
    "        return text + ')'\n"
    "\n"
    "    def state_dict(self):\n"
    "        index = {}\n"
    "        start = 0\n"
    "        groups = []\n"
    "        for group in self.param_groups:\n"
    "            packed = {k: v for k, v in group.items() if k != 'params'}\n"
    "            fresh = {}\n"
    "            for i, p in enumerate(group['params'], start):\n"
    "                if id(p) not in index:\n"
    "                    fresh[id(p)] = i\n"
    "            index.update(fresh)\n"
    "            packed['params'] = [index[id(p)] for p in group['params']]\n"
    "            start += len(packed['params'])\n"
    "            groups.append(packed)\n"
    "        state = {}\n"
    "        for k, v in self.state.items():\n"
    "            state[index[id(k)] if isinstance(k, torch.Tensor) else k] = v\n"
    "        return {'state': state, 'param_groups': groups}\n"
    "\n"
    "    def load_state_dict(self, state_dict):\n"
    "        state_dict = deepcopy(state_dict)\n"
    "        groups = self.param_groups\n"
    "        saved_groups = state_dict['param_groups']\n"
    "        if len(groups) != len(saved_groups):\n"
    "            raise ValueError('loaded state dict has a different number of parameter groups')\n"
    "        for g, s in zip(groups, saved_groups):\n"
    "            if len(g['params']) != len(s['params']):\n"
    "                raise ValueError(\"loaded state dict contains a parameter group that doesn't match the size of \"\n"
    "                                 \"optimizer's group\")\n"
    "        id_map = {}\n"
    "        for g, s in zip(groups, saved_groups):\n"
    "            for old, p in zip(s['params'], g['params']):\n"
    "                id_map[old] = p\n"
    "        state = defaultdict(dict)\n"
    "        for k, v in state_dict['state'].items():\n"
    "            if k in id_map:\n"
    "                param = id_map[k]\n"
    "                state[param] = _cast(param, v)\n"
    "            else:\n"
    "                state[k] = v\n"
    "        new_groups = []\n"
    "        for g, s in zip(groups, saved_groups):\n"
    "            s['params'] = g['params']\n"
    "            new_groups.append(s)\n"
    "        self.__setstate__({'state': state, 'param_groups': new_groups})\n"
    "\n"
    "    def zero_grad(self, set_to_none=True):\n"
    "        for group in self.param_groups:\n"
    "            for p in group['params']:\n"
    "                if p.grad is not None:\n"
    "                    if set_to_none:\n"
    "                        p.grad = None\n"
    "                    else:\n"
    "                        if p.grad.grad_fn is not None:\n"
    "                            p.grad.detach_()\n"
    "                        else:\n"
    "                            p.grad.requires_grad_(False)\n"
    "                        p.grad.zero_()\n"
    "\n"
    "    def step(self, closure):\n"
    "        raise NotImplementedError\n"
    "\n"
    "    def add_param_group(self, param_group):\n"
    "        assert isinstance(param_group, dict), 'param group must be a dict'\n"
    "        params = param_group['params']\n"
    "        if isinstance(params, torch.Tensor):\n"
    "            param_group['params'] = [params]\n"
    "        elif isinstance(params, set):\n"
    "            raise TypeError('optimizer parameters need to be organized in ordered collections, but the ordering of '\n"
    "                            'tensors in sets will change between runs. Please use a list instead.')\n"
    "        else:\n"
    "            param_group['params'] = list(params)\n"
    "        for p in param_group['params']:\n"
    "            if not isinstance(p, torch.Tensor):\n"
    "                raise TypeError('optimizer can only optimize Tensors, but one of the params is ' + _typename(p))\n"
    "            if not self.defaults.get('differentiable', None) and not (p.is_leaf or p.retains_grad):\n"
    "                raise ValueError(\"can't optimize a non-leaf Tensor\")\n"
    "        for name, default in self.defaults.items():\n"
    "            if default is required and name not in param_group:\n"
    "                raise ValueError(\"parameter group didn't specify a value of required optimization parameter \" +\n"
    "                                 name)\n"
    "            param_group.setdefault(name, default)\n"
    "        ids = [id(p) for p in param_group['params']]\n"
    "        if len(ids) != len(set(ids)):\n"
    "            warnings.warn('optimizer contains a parameter group with duplicate parameters; in future, this will '\n"
    "                          'cause an error; see github.com/pytorch/pytorch/issues/40967 for more information',\n"
    "                          stacklevel=3)\n"
    "        taken = set()\n"
    "        for group in self.param_groups:\n"
    "            for p in group['params']:\n"
    "                taken.add(id(p))\n"
    "        for i in ids:\n"
    "            if i in taken:\n"
    "                raise ValueError('some parameters appear in more than one parameter group')\n"
    "        self.param_groups.append(param_group)\n"
    "\n"
    "\n"
    "def _with_grad(opt, group):\n"
    "    # (param, its state) for each parameter of group that has a grad, in order\n"
    "    return [(p, opt.state[p]) for p in group['params'] if p.grad is not None]\n"
    "\n"
    "\n"
    "def _closure_loss(closure):\n"
    "    if closure is None:\n"
    "        return None\n"
    "    with torch.enable_grad():\n"
    "        return closure()\n"
    "\n"
    "\n"
    "class RMSprop(Optimizer):\n"
    "    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,\n"
    "                 foreach=None, maximize=False, differentiable=False):\n"
    "        if not 0.0 <= lr:\n"
    "            raise ValueError('Invalid learning rate: {}'.format(lr))\n"
    "        if not 0.0 <= eps:\n"
    "            raise ValueError('Invalid epsilon value: {}'.format(eps))\n"
    "        if not 0.0 <= momentum:\n"
    "            raise ValueError('Invalid momentum value: {}'.format(momentum))\n"
    "        if not 0.0 <= weight_decay:\n"
    "            raise ValueError('Invalid weight_decay value: {}'.format(weight_decay))\n"
    "        if not 0.0 <= alpha:\n"
    "            raise ValueError('Invalid alpha value: {}'.format(alpha))\n"
    "        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,\n"
    "                        weight_decay=weight_decay, foreach=foreach, maximize=maximize,\n"
    "                        differentiable=differentiable)\n"
    "        super().__init__(params, defaults)\n"
    "\n"
    "    def __setstate__(self, state):\n"
    "        super().__setstate__(state)\n"
    "        for group in self.param_groups:\n"
    "            group.setdefault('momentum', 0)\n"
    "            group.setdefault('centered', False)\n"
    "            group.setdefault('foreach', None)\n"
    "            group.setdefault('maximize', False)\n"
    "            group.setdefault('differentiable', False)\n"
    "\n"
    "    def step(self, closure=None):\n"
    "        loss = _closure_loss(closure)\n"
    "        with torch.no_grad():\n"
    "            for group in self.param_groups:\n"
    "                todo = _with_grad(self, group)\n"
    "                for p, state in todo:\n"
    "                    if len(state) == 0:\n"
    "                        state['step'] = 0\n"
    "                        state['square_avg'] = torch.zeros_like(p)\n"
    "                        if group['momentum'] > 0:\n"
    "                            state['momentum_buffer'] = torch.zeros_like(p)\n"
    "                        if group['centered']:\n"
    "                            state['grad_avg'] = torch.zeros_like(p)\n"
    "                    state['step'] += 1\n"
    "                for p, state in todo:\n"
    "                    _rmsprop(p, p.grad, state['square_avg'], state['grad_avg'] if group['centered'] else None,\n"
    "                             state['momentum_buffer'] if group['momentum'] > 0 else None, group['lr'],\n"
    "                             group['alpha'], group['eps'], group['weight_decay'], group['momentum'],\n"
    "                             group['centered'], group['maximize'])\n"
    "        return loss\n"
    "\n"
    "\n"
    "class Adagrad(Optimizer):\n"
    "    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,\n"
    "                 foreach=None, *, maximize=False):\n"
    "        if not 0.0 <= lr:\n"
    "            raise ValueError('Invalid learning rate: {}'.format(lr))\n"
    "        if not 0.0 <= lr_decay:\n"
    "            raise ValueError('Invalid lr_decay value: {}'.format(lr_decay))\n"
    "        if not 0.0 <= weight_decay:\n"
    "            raise ValueError('Invalid weight_decay value: {}'.format(weight_decay))\n"
    "        if not 0.0 <= initial_accumulator_value:\n"
    "            raise ValueError('Invalid initial_accumulator_value value: {}'.format(initial_accumulator_value))\n"
    "        if not 0.0 <= eps:\n"
    "            raise ValueError('Invalid epsilon value: {}'.format(eps))\n"
    "        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,\n"
    "                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize)\n"
    "        super().__init__(params, defaults)\n"
    "        for group in self.param_groups:\n"
    "            for p in group['params']:\n"
    "                state = self.state[p]\n"
    "                state['step'] = torch.tensor(0.0)\n"
    "                state['sum'] = torch.full_like(p, initial_accumulator_value)\n"
    "\n"
    "    def __setstate__(self, state):\n"
    "        super().__setstate__(state)\n"
    "        for group in self.param_groups:\n"
    "            group.setdefault('foreach', None)\n"
    "            group.setdefault('maximize', False)\n"
    "        values = list(self.state.values())\n"
    "        if len(values) != 0 and not torch.is_tensor(values[0]['step']):\n"
    "            for s in values:\n"
    "                s['step'] = torch.tensor(float(s['step']))\n"
    "\n"
    "    def share_memory(self):\n"
    "        pass\n"
    "\n"
    "    def step(self, closure=None):\n"
    "        loss = _closure_loss(closure)\n"
    "        with torch.no_grad():\n"
    "            for group in self.param_groups:\n"
    "                todo = [(p, state['sum'], state['step']) for p, state in _with_grad(self, group)]\n"
    "                for p, total, step_t in todo:\n"
    "                    step_t.add_(1)\n"
    "                    step = step_t.item()\n"
    "                    clr = group['lr'] / (1 + (step - 1) * group['lr_decay'])\n"
    "                    _adagrad(p, p.grad, total, clr, group['eps'], group['weight_decay'], group['maximize'])\n"
    "        return loss\n"
    "\n"
    "\n"
    "class Adadelta(Optimizer):\n"
    "    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False):\n"
    "        if not 0.0 <= lr:\n"
    "            raise ValueError('Invalid learning rate: {}'.format(lr))\n"
    "        if not 0.0 <= rho <= 1.0:\n"
    "            raise ValueError('Invalid rho value: {}'.format(rho))\n"
    "        if not 0.0 <= eps:\n"
    "            raise ValueError('Invalid epsilon value: {}'.format(eps))\n"
    "        if not 0.0 <= weight_decay:\n"
    "            raise ValueError('Invalid weight_decay value: {}'.format(weight_decay))\n"
    "        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach)\n"
    "        super().__init__(params, defaults)\n"
    "\n"
    "    def __setstate__(self, state):\n"
    "        super().__setstate__(state)\n"
    "        for group in self.param_groups:\n"
    "            group.setdefault('foreach', None)\n"
    "            group.setdefault('maximize', False)\n"
    "\n"
    "    def step(self, closure=None):\n"
    "        loss = _closure_loss(closure)\n"
    "        with torch.no_grad():\n"
    "            for group in self.param_groups:\n"
    "                todo = _with_grad(self, group)\n"
    "                for p, state in todo:\n"
    "                    if len(state) == 0:\n"
    "                        state['step'] = 0\n"
    "                        state['square_avg'] = torch.zeros_like(p)\n"
    "                        state['acc_delta'] = torch.zeros_like(p)\n"
    "                    state['step'] += 1\n"
    "                for p, state in todo:\n"
    "                    _adadelta(p, p.grad, state['square_avg'], state['acc_delta'], group['lr'], group['rho'],\n"
    "                              group['eps'], group['weight_decay'], group['maximize'])\n"
    "        return loss\n"
    "\n"
    "\n"
    "_set_module(RMSprop, 'torch.optim.rmsprop')\n"
    "_set_module(Adagrad, 'torch.optim.adagrad')\n"
    "_set_module(Adadelta, 'torch.optim.adadelta')\n";
/* source: end */

nn_object *repl_mod_optim_optimizer(void)
{
    return repl_mod_from_source(MODNAME, helpers, sizeof helpers / sizeof *helpers, source);
}

bool repl_optim_is_lang_base(nn_object *cls)
{
    if (!repl_current || cls->type != &repl_class_type) return false;
    nn_object *m = repl_nmap_get(&repl_current->stdlib_modules, MODNAME);
    return m && cls == repl_nmap_get(&((module_obj *)m)->dict, "Optimizer");
}

bool repl_optim_is_optimizer(nn_object *o)
{
    if (nn_is_instance(o, &nn_optimizer_type)) return true;
    if (!repl_current || !o || o->type != &repl_instance_type) return false;
    nn_object *m = repl_nmap_get(&repl_current->stdlib_modules, MODNAME);
    nn_object *base = m ? repl_nmap_get(&((module_obj *)m)->dict, "Optimizer") : NULL;
    return base && base->type == &repl_class_type && repl_class_is_subclass(repl_class_of(o), (class_obj *)base);
}
