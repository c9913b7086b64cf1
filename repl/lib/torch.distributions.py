# torch.distributions: probability distributions as PyTorch 1.13 defines them.
# Sampling draws from torch's random stream the way 1.13's implementations do
# (Normal.sample is torch.normal, rsample is loc + normal_() * scale,
# Categorical.sample is torch.multinomial with replacement, Bernoulli.sample is
# torch.bernoulli, Uniform is torch.rand, Exponential is exponential_(), Laplace
# is uniform_(eps - 1, 1)), so a seeded script gets PyTorch's numbers; densities,
# entropies, validation errors and reprs follow 1.13's formulas and messages.
import math
from numbers import Number, Real

import torch
import torch.nn.functional as F
import torch.distributions.constraints as constraints

__all__ = ['Bernoulli', 'Categorical', 'Distribution', 'Exponential', 'ExponentialFamily', 'Independent', 'Laplace',
           'Normal', 'OneHotCategorical', 'Uniform', 'constraints', 'kl_divergence', 'register_kl']

_default_validate_args = True


def _broadcast_shape(shapes):
    ndim = max([len(s) for s in shapes] + [0])
    out = [1] * ndim
    for s in shapes:
        for i, n in enumerate(s):
            j = ndim - len(s) + i
            if out[j] == 1:
                out[j] = n
            elif n != 1 and n != out[j]:
                raise RuntimeError(f"The size of tensor a ({out[j]}) must match the size of tensor b ({n}) "
                                   f"at non-singleton dimension {j}")
    return torch.Size(out)


def broadcast_all(*values):
    # numbers become tensors of the first tensor's dtype (the default dtype without one),
    # then everything is expanded to the common shape
    if not all(isinstance(v, (torch.Tensor, Number)) for v in values):
        raise ValueError('Input arguments must all be instances of numbers.Number, torch.Tensor or objects '
                         'implementing __torch_function__.')
    like = next((v for v in values if isinstance(v, torch.Tensor)), None)
    dtype = like.dtype if like is not None else torch.get_default_dtype()
    tensors = [v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype) for v in values]
    shape = _broadcast_shape([t.shape for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


def _standard_normal(shape, dtype, device):
    return torch.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    if dim == 0:
        return value
    return value.reshape(value.shape[:value.dim() - dim] + (-1,)).sum(-1)


def clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def logits_to_probs(logits, is_binary=False):
    if is_binary:
        return torch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def probs_to_logits(probs, is_binary=False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class Distribution:
    has_rsample = False
    has_enumerate_support = False
    arg_constraints = {}
    support = None
    _validate_args = None

    @staticmethod
    def set_default_validate_args(value):
        global _default_validate_args
        if value not in [True, False]:
            raise ValueError
        _default_validate_args = value

    def __init__(self, batch_shape=torch.Size(), event_shape=torch.Size(), validate_args=None):
        self._batch_shape = torch.Size(batch_shape)
        self._event_shape = torch.Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        elif self._validate_args is None:
            self._validate_args = _default_validate_args
        if self._validate_args:
            for param, constraint in self.arg_constraints.items():
                if constraints.is_dependent(constraint) or param not in self.__dict__:
                    continue
                value = getattr(self, param)
                if not constraint.check(value).all():
                    raise ValueError(f"Expected parameter {param} ({type(value).__name__} of shape "
                                     f"{tuple(value.shape)}) of distribution {repr(self)} to satisfy the "
                                     f"constraint {repr(constraint)}, but found invalid values:\n{value}")

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError(f"{type(self)} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        raise NotImplementedError

    def expand(self, batch_shape, _instance=None):
        # each distribution's own expand(): repl/lib/torch.distributions.py's last section
        raise NotImplementedError

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError("Subclass {} of {} that defines a custom __init__ method must also define a "
                                      "custom .expand() method.".format(self.__class__.__name__, cls.__name__))
        return object.__new__(type(self)) if _instance is None else _instance

    def sample_n(self, n):
        import warnings
        warnings.warn('sample_n will be deprecated. Use .sample((n,)) instead', UserWarning)
        return self.sample(torch.Size((n,)))

    def log_prob(self, value):
        raise NotImplementedError

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def perplexity(self):
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape=torch.Size()):
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        return torch.Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value):
        if not isinstance(value, torch.Tensor):
            raise ValueError('The value argument to log_prob must be a Tensor')
        event_dim_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError(f'The right-most size of value must match event_shape: {value.size()} vs '
                             f'{self._event_shape}.')
        actual_shape = value.size()
        expected_shape = self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual_shape), reversed(expected_shape)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f'Value is not broadcastable with batch_shape+event_shape: {actual_shape} vs '
                                 f'{expected_shape}.')
        support = self.support
        if not support.check(value).all():
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be "
                             f"within the support ({repr(support)}) of the distribution {repr(self)}, but found "
                             f"invalid values:\n{value}")

    def __repr__(self):
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ', '.join(f'{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}'
                         for p in names)
        return type(self).__name__ + '(' + args + ')'


class ExponentialFamily(Distribution):
    pass


class Normal(ExponentialFamily):
    arg_constraints = {'loc': constraints.real, 'scale': constraints.positive}
    support = constraints.real
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(torch.Size() if scalar else self.loc.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        log_scale = math.log(self.scale) if isinstance(self.scale, Real) else self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + torch.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * torch.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)


class Categorical(Distribution):
    arg_constraints = {'probs': constraints.simplex, 'logits': constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else torch.Size()
        super().__init__(batch_shape, validate_args=validate_args)

    def __getattr__(self, name):
        # the parameter not given is computed on first use and then kept, as
        # PyTorch's lazy_property (it then shows in the repr too)
        if name == 'logits':
            self.logits = probs_to_logits(self.probs)
            return self.logits
        if name == 'probs':
            self.probs = logits_to_probs(self.logits)
            return self.probs
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    @property
    def mode(self):
        return self.probs.argmax(-1)

    @property
    def variance(self):
        return torch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    def sample(self, sample_shape=torch.Size()):
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = torch.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        shape = _broadcast_shape([value.shape, self.logits.shape])
        value = value.expand(shape)[..., :1]
        return self.logits.expand(shape).gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = torch.finfo(self.logits.dtype).min
        logits = torch.clamp(self.logits, min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)

    def enumerate_support(self, expand=True):
        values = torch.arange(self._num_events, dtype=torch.long, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + self._batch_shape)
        return values


class OneHotCategorical(Distribution):
    arg_constraints = {'probs': constraints.simplex, 'logits': constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def mean(self):
        return self._categorical.probs

    @property
    def mode(self):
        probs = self._categorical.probs
        return F.one_hot(probs.argmax(-1), probs.shape[-1]).to(probs)

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape=torch.Size()):
        sample_shape = torch.Size(sample_shape)
        probs = self._categorical.probs
        indices = self._categorical.sample(sample_shape)
        return F.one_hot(indices, self._categorical._num_events).to(probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        indices = value.max(-1)[1]
        return self._categorical.log_prob(indices)

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self.event_shape[0]
        values = torch.eye(n, dtype=self._categorical._param.dtype, device=self._categorical._param.device)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        if expand:
            values = values.expand((n,) + self.batch_shape + (n,))
        return values


class Bernoulli(ExponentialFamily):
    arg_constraints = {'probs': constraints.unit_interval, 'logits': constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            scalar = isinstance(probs, Number)
            self.probs, = broadcast_all(probs)
            self._param = self.probs
        else:
            scalar = isinstance(logits, Number)
            self.logits, = broadcast_all(logits)
            self._param = self.logits
        super().__init__(torch.Size() if scalar else self._param.size(), validate_args=validate_args)

    def __getattr__(self, name):
        if name == 'logits':
            self.logits = probs_to_logits(self.probs, is_binary=True)
            return self.logits
        if name == 'probs':
            self.probs = logits_to_probs(self.logits, is_binary=True)
            return self.probs
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction='none')

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction='none')

    def enumerate_support(self, expand=True):
        values = torch.arange(2, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + self._batch_shape)
        return values


class Uniform(Distribution):
    arg_constraints = {'low': constraints.dependent(is_discrete=False, event_dim=0),
                       'high': constraints.dependent(is_discrete=False, event_dim=0)}
    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = broadcast_all(low, high)
        scalar = isinstance(low, Number) and isinstance(high, Number)
        super().__init__(torch.Size() if scalar else self.low.size(), validate_args=validate_args)
        if self._validate_args and not torch.lt(self.low, self.high).all():
            raise ValueError("Uniform is not defined when low>= high")

    @property
    def support(self):
        return constraints.interval(self.low, self.high)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return math.nan * self.high

    @property
    def stddev(self):
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(shape, dtype=self.low.dtype, device=self.low.device)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return torch.log(self.high - self.low)


class Exponential(ExponentialFamily):
    arg_constraints = {'rate': constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, rate, validate_args=None):
        self.rate, = broadcast_all(rate)
        super().__init__(torch.Size() if isinstance(rate, Number) else self.rate.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return torch.zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        return torch.empty(shape, dtype=self.rate.dtype, device=self.rate.device).exponential_() / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - torch.exp(-self.rate * value)

    def icdf(self, value):
        return -torch.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - torch.log(self.rate)


class Laplace(Distribution):
    arg_constraints = {'loc': constraints.real, 'scale': constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(torch.Size() if scalar else self.loc.size(), validate_args=validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2 ** 0.5) * self.scale

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        finfo = torch.finfo(self.loc.dtype)
        u = torch.empty(shape, dtype=self.loc.dtype, device=self.loc.device).uniform_(finfo.eps - 1, 1)
        return self.loc - self.scale * u.sign() * torch.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -torch.log(2 * self.scale) - torch.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * torch.expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * torch.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + torch.log(2 * self.scale)


class Independent(Distribution):
    arg_constraints = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        if reinterpreted_batch_ndims > len(base_distribution.batch_shape):
            raise ValueError("Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                             f"actual {reinterpreted_batch_ndims} vs {len(base_distribution.batch_shape)}")
        shape = base_distribution.batch_shape + base_distribution.event_shape
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(shape[:len(shape) - event_dim], shape[len(shape) - event_dim:], validate_args=validate_args)

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    @property
    def support(self):
        result = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            result = constraints.independent(result, self.reinterpreted_batch_ndims)
        return result

    @property
    def mean(self):
        return self.base_dist.mean

    @property
    def mode(self):
        return self.base_dist.mode

    @property
    def variance(self):
        return self.base_dist.variance

    def sample(self, sample_shape=torch.Size()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value):
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self):
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_dist}, {self.reinterpreted_batch_ndims})"


# ------------------------------------------------------------------ KL divergence

_KL_REGISTRY = {}


def register_kl(type_p, type_q):
    def decorator(fun):
        _KL_REGISTRY[(type_p, type_q)] = fun
        return fun
    return decorator


def kl_divergence(p, q):
    # the registered function of the most specific pair of classes
    best = None
    for (type_p, type_q), fun in _KL_REGISTRY.items():
        if isinstance(p, type_p) and isinstance(q, type_q):
            rank = (type(p).__mro__.index(type_p), type(q).__mro__.index(type_q))
            if best is None or rank < best[0]:
                best = (rank, fun)
    if best is None:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
                                  f"{type(q).__name__}")
    return best[1](p, q)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = math.inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    t1 = p.probs * (F.softplus(-q.logits) - F.softplus(-p.logits))
    t1[q.probs == 0] = math.inf
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (F.softplus(q.logits) - F.softplus(p.logits))
    t2[q.probs == 1] = math.inf
    t2[p.probs == 1] = 0
    return t1 + t2


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    t1 = -rate_ratio.log()
    return t1 + rate_ratio - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * torch.exp(-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    result = kl_divergence(p.base_dist, q.base_dist)
    return _sum_rightmost(result, p.reinterpreted_batch_ndims)


# ------------------------------------------------------------------ more distributions
# Gamma, Chi2, Beta, Dirichlet, StudentT sample through torch._standard_gamma and
# torch._sample_dirichlet (ATen's sampler: PyTorch's numbers for a seed; rsample is
# differentiable through _standard_gamma's backward and _Dirichlet's), Poisson through torch.poisson, Geometric
# through uniform_, MultivariateNormal through normal_ and a matrix product, and
# TransformedDistribution/LogNormal through their base distribution; densities, means,
# variances and entropies are 1.13's formulas.
import torch.distributions.transforms as transforms
from torch.distributions.transforms import ComposeTransform, ExpTransform, Transform

__all__ += ['Beta', 'Binomial', 'Chi2', 'Dirichlet', 'Gamma', 'Geometric', 'LogNormal', 'MultivariateNormal',
            'Poisson', 'StudentT', 'TransformedDistribution', 'transforms']


def _binary_lazy_param(d, name):
    # probs from logits or logits from probs, computed once (1.13's lazy_property)
    if name == 'logits':
        d.logits = probs_to_logits(d.probs, is_binary=True)
        return d.logits
    if name == 'probs':
        d.probs = logits_to_probs(d.logits, is_binary=True)
        return d.probs
    raise AttributeError(f"'{type(d).__name__}' object has no attribute '{name}'")


class Gamma(ExponentialFamily):
    arg_constraints = {'concentration': constraints.positive, 'rate': constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        if isinstance(concentration, Number) and isinstance(rate, Number):
            batch_shape = torch.Size()
        else:
            batch_shape = self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        value = torch._standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=torch.finfo(value.dtype).tiny)
        return value

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value):
        value = torch.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (torch.xlogy(self.concentration, self.rate) + torch.xlogy(self.concentration - 1, value) -
                self.rate * value - torch.lgamma(self.concentration))

    def cdf(self, value):
        raise NotImplementedError

    def entropy(self):
        return (self.concentration - torch.log(self.rate) + torch.lgamma(self.concentration) +
                (1.0 - self.concentration) * torch.digamma(self.concentration))


class Chi2(Gamma):
    arg_constraints = {'df': constraints.positive}

    def __init__(self, df, validate_args=None):
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    @property
    def df(self):
        return self.concentration * 2


def _Dirichlet_backward(x, concentration, grad_output):
    total = concentration.sum(-1, True).expand_as(concentration)
    grad = torch._dirichlet_grad(x, concentration, total)
    return grad * (grad_output - (x * grad_output).sum(-1, True))


class _Dirichlet(torch.autograd.Function):
    # the draws' reparameterized gradient, as 1.13's torch.distributions.dirichlet
    @staticmethod
    def forward(ctx, concentration):
        x = torch._sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        return _Dirichlet_backward(x, concentration, grad_output)


class Dirichlet(ExponentialFamily):
    arg_constraints = {'concentration': constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return _Dirichlet.apply(self.concentration.expand(shape))

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((torch.log(value) * (self.concentration - 1.0)).sum(-1) +
                torch.lgamma(self.concentration.sum(-1)) - torch.lgamma(self.concentration).sum(-1))

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        concentrationm1 = (self.concentration - 1).clamp(min=0.)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(axis=-1)
        mode[mask] = F.one_hot(mode[mask].argmax(axis=-1), concentrationm1.shape[-1]).to(mode)
        return mode

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (torch.lgamma(self.concentration).sum(-1) - torch.lgamma(a0) - (k - a0) * torch.digamma(a0) -
                ((self.concentration - 1.0) * torch.digamma(self.concentration)).sum(-1))


class Beta(ExponentialFamily):
    arg_constraints = {'concentration1': constraints.positive, 'concentration0': constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        if isinstance(concentration1, Real) and isinstance(concentration0, Real):
            both = torch.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = broadcast_all(concentration1, concentration0)
            both = torch.stack([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        heads_tails = torch.stack([value, 1.0 - value], -1)
        return self._dirichlet.log_prob(heads_tails)

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def concentration1(self):
        result = self._dirichlet.concentration[..., 0]
        return torch.tensor([result]) if isinstance(result, Number) else result

    @property
    def concentration0(self):
        result = self._dirichlet.concentration[..., 1]
        return torch.tensor([result]) if isinstance(result, Number) else result


class StudentT(Distribution):
    arg_constraints = {'df': constraints.positive, 'loc': constraints.real, 'scale': constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0., scale=1., validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    @property
    def mean(self):
        m = self.loc.clone(memory_format=torch.contiguous_format)
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        m = self.df.clone(memory_format=torch.contiguous_format)
        m[self.df > 2] = self.scale[self.df > 2].pow(2) * self.df[self.df > 2] / (self.df[self.df > 2] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        X = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        Z = self._chi2.rsample(sample_shape)
        Y = X * torch.rsqrt(Z / self.df)
        return self.loc + self.scale * Y

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        Z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + torch.lgamma(0.5 * self.df) -
             torch.lgamma(0.5 * (self.df + 1.)))
        return -0.5 * (self.df + 1.) * torch.log1p(y**2. / self.df) - Z

    def entropy(self):
        lbeta = torch.lgamma(0.5 * self.df) + math.lgamma(0.5) - torch.lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) *
                (torch.digamma(0.5 * (self.df + 1)) - torch.digamma(0.5 * self.df)) + 0.5 * self.df.log() + lbeta)


class Poisson(ExponentialFamily):
    arg_constraints = {'rate': constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        self.rate, = broadcast_all(rate)
        batch_shape = torch.Size() if isinstance(rate, Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.poisson(self.rate.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()


class Geometric(Distribution):
    arg_constraints = {'probs': constraints.unit_interval, 'logits': constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs, = broadcast_all(probs)
        else:
            self.logits, = broadcast_all(logits)
        probs_or_logits = probs if probs is not None else logits
        batch_shape = torch.Size() if isinstance(probs_or_logits, Number) else probs_or_logits.size()
        super().__init__(batch_shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            value = self.probs
            valid = value > 0
            if not valid.all():
                invalid_value = value.data[~valid]
                raise ValueError("Expected parameter probs "
                                 f"({type(value).__name__} of shape {tuple(value.shape)}) "
                                 f"of distribution {repr(self)} "
                                 f"to be positive but found invalid values:\n{invalid_value}")

    def __getattr__(self, name):
        return _binary_lazy_param(self, name)

    @property
    def mean(self):
        return 1. / self.probs - 1.

    @property
    def mode(self):
        return torch.zeros_like(self.probs)

    @property
    def variance(self):
        return (1. / self.probs - 1.) / self.probs

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        tiny = torch.finfo(self.probs.dtype).tiny
        with torch.no_grad():
            u = self.probs.new(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone(memory_format=torch.contiguous_format)
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction='none') / self.probs


class Binomial(Distribution):
    arg_constraints = {'total_count': constraints.nonnegative_integer, 'probs': constraints.unit_interval,
                       'logits': constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.total_count, self.probs, = broadcast_all(total_count, probs)
            self.total_count = self.total_count.type_as(self.probs)
            self._param = self.probs
        else:
            self.total_count, self.logits, = broadcast_all(total_count, logits)
            self.total_count = self.total_count.type_as(self.logits)
            self._param = self.logits
        super().__init__(self._param.size(), validate_args=validate_args)

    def __getattr__(self, name):
        return _binary_lazy_param(self, name)

    @property
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = torch.lgamma(self.total_count + 1)
        log_factorial_k = torch.lgamma(value + 1)
        log_factorial_nmk = torch.lgamma(self.total_count - value + 1)
        normalize_term = (self.total_count * self.logits.clamp(min=0) +
                          self.total_count * torch.log1p(torch.exp(-torch.abs(self.logits))) - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self):
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError("Inhomogeneous total count not supported by `entropy`.")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(torch.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError("Inhomogeneous total count not supported by `enumerate_support`.")
        values = torch.arange(1 + total_count, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + self._batch_shape)
        return values


class TransformedDistribution(Distribution):
    arg_constraints = {}

    def __init__(self, base_distribution, transforms, validate_args=None):
        if isinstance(transforms, Transform):
            self.transforms = [transforms]
        elif isinstance(transforms, list):
            if not all(isinstance(t, Transform) for t in transforms):
                raise ValueError("transforms must be a Transform or a list of Transforms")
            self.transforms = transforms
        else:
            raise ValueError("transforms must be a Transform or list, but was {}".format(transforms))
        base_shape = base_distribution.batch_shape + base_distribution.event_shape
        base_event_dim = len(base_distribution.event_shape)
        transform = ComposeTransform(self.transforms)
        if len(base_shape) < transform.domain.event_dim:
            raise ValueError("base_distribution needs to have shape with size at least {}, but got {}."
                             .format(transform.domain.event_dim, base_shape))
        forward_shape = transform.forward_shape(base_shape)
        reinterpreted_batch_ndims = transform.domain.event_dim - base_event_dim
        if reinterpreted_batch_ndims > 0:
            base_distribution = Independent(base_distribution, reinterpreted_batch_ndims)
        self.base_dist = base_distribution
        transform_change_in_event_dim = transform.codomain.event_dim - transform.domain.event_dim
        event_dim = max(transform.codomain.event_dim, base_event_dim + transform_change_in_event_dim)
        cut = len(forward_shape) - event_dim
        super().__init__(forward_shape[:cut], forward_shape[cut:], validate_args=validate_args)

    @property
    def support(self):
        if not self.transforms:
            return self.base_dist.support
        support = self.transforms[-1].codomain
        if len(self.event_shape) > support.event_dim:
            support = constraints.independent(support, len(self.event_shape) - support.event_dim)
        return support

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            x = self.base_dist.sample(sample_shape)
            for transform in self.transforms:
                x = transform(x)
            return x

    def rsample(self, sample_shape=torch.Size()):
        x = self.base_dist.rsample(sample_shape)
        for transform in self.transforms:
            x = transform(x)
        return x

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        event_dim = len(self.event_shape)
        log_prob = 0.0
        y = value
        for transform in reversed(self.transforms):
            x = transform.inv(y)
            event_dim += transform.domain.event_dim - transform.codomain.event_dim
            log_prob = log_prob - _sum_rightmost(transform.log_abs_det_jacobian(x, y),
                                                 event_dim - transform.domain.event_dim)
            y = x
        log_prob = log_prob + _sum_rightmost(self.base_dist.log_prob(y), event_dim - len(self.base_dist.event_shape))
        return log_prob

    def _monotonize_cdf(self, value):
        sign = 1
        for transform in self.transforms:
            sign = sign * transform.sign
        if isinstance(sign, int) and sign == 1:
            return value
        return sign * (value - 0.5) + 0.5

    def cdf(self, value):
        for transform in self.transforms[::-1]:
            value = transform.inv(value)
        if self._validate_args:
            self.base_dist._validate_sample(value)
        value = self.base_dist.cdf(value)
        return self._monotonize_cdf(value)

    def icdf(self, value):
        value = self._monotonize_cdf(value)
        value = self.base_dist.icdf(value)
        for transform in self.transforms:
            value = transform(value)
        return value


class LogNormal(TransformedDistribution):
    arg_constraints = {'loc': constraints.real, 'scale': constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    @property
    def loc(self):
        return self.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mean(self):
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self):
        return (self.scale.pow(2).exp() - 1) * (2 * self.loc + self.scale.pow(2)).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc


def _batch_mv(bmat, bvec):
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _solve_lower(L, B):
    # X with L X = B by forward substitution, L [..., n, n] lower triangular, B [..., n, k]
    # (differentiable through its ops; PyTorch calls LAPACK's trsm: within rounding of it)
    n = L.shape[-1]
    rows = []
    for i in range(n):
        r = B[..., i, :]
        for j in range(i):
            r = r - L[..., i, j].unsqueeze(-1) * rows[j]
        rows.append(r / L[..., i, i].unsqueeze(-1))
    return torch.stack(rows, -2)


def _batch_mahalanobis(bL, bx):
    # |L^-1 x|^2 over the last dim, L broadcast against x's batch dims
    shape = torch.broadcast_shapes(bL.shape[:-2], bx.shape[:-1])
    L = bL.expand(shape + bL.shape[-2:])
    x = bx.expand(shape + bx.shape[-1:])
    return _solve_lower(L, x.unsqueeze(-1)).squeeze(-1).pow(2).sum(-1)


def _precision_to_scale_tril(P):
    Lf = torch.linalg.cholesky(torch.flip(P, (-2, -1)))
    L_inv = torch.transpose(torch.flip(Lf, (-2, -1)), -2, -1)
    Id = torch.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return _solve_lower(L_inv, Id.expand(L_inv.shape))


class MultivariateNormal(Distribution):
    arg_constraints = {'loc': constraints.real_vector, 'covariance_matrix': constraints.positive_definite,
                       'precision_matrix': constraints.positive_definite, 'scale_tril': constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        if scale_tril is not None:
            if scale_tril.dim() < 2:
                raise ValueError("scale_tril matrix must be at least two-dimensional, "
                                 "with optional leading batch dimensions")
            batch_shape = torch.broadcast_shapes(scale_tril.shape[:-2], loc.shape[:-1])
            self.scale_tril = scale_tril.expand(batch_shape + (-1, -1))
        elif covariance_matrix is not None:
            if covariance_matrix.dim() < 2:
                raise ValueError("covariance_matrix must be at least two-dimensional, "
                                 "with optional leading batch dimensions")
            batch_shape = torch.broadcast_shapes(covariance_matrix.shape[:-2], loc.shape[:-1])
            self.covariance_matrix = covariance_matrix.expand(batch_shape + (-1, -1))
        else:
            if precision_matrix.dim() < 2:
                raise ValueError("precision_matrix must be at least two-dimensional, "
                                 "with optional leading batch dimensions")
            batch_shape = torch.broadcast_shapes(precision_matrix.shape[:-2], loc.shape[:-1])
            self.precision_matrix = precision_matrix.expand(batch_shape + (-1, -1))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def __getattr__(self, name):
        L = self.__dict__.get('_unbroadcasted_scale_tril')
        shape = self.__dict__['_batch_shape'] + self.__dict__['_event_shape'] * 2 if L is not None else None
        if name == 'scale_tril' and L is not None:
            self.scale_tril = L.expand(shape)
            return self.scale_tril
        if name == 'covariance_matrix' and L is not None:
            self.covariance_matrix = torch.matmul(L, L.mT).expand(shape)
            return self.covariance_matrix
        if name == 'precision_matrix' and L is not None:
            self.precision_matrix = torch.inverse(torch.matmul(L, L.mT)).expand(shape)
            return self.precision_matrix
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        M = _batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - half_log_det

    def entropy(self):
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        if len(self._batch_shape) == 0:
            return H
        return H.expand(self._batch_shape)


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    t1 = q.concentration * torch.log(p.rate / q.rate)
    t2 = torch.lgamma(q.concentration) - torch.lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * torch.digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    sum_params_p = p.concentration1 + p.concentration0
    sum_params_q = q.concentration1 + q.concentration0
    t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + (sum_params_p).lgamma()
    t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + (sum_params_q).lgamma()
    t3 = (p.concentration1 - q.concentration1) * torch.digamma(p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * torch.digamma(p.concentration0)
    t5 = (sum_params_q - sum_params_p) * torch.digamma(sum_params_p)
    return t1 - t2 + t3 + t4 + t5


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    sum_p_concentration = p.concentration.sum(-1)
    sum_q_concentration = q.concentration.sum(-1)
    t1 = sum_p_concentration.lgamma() - sum_q_concentration.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - sum_p_concentration.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (torch.log(p.rate) - torch.log(q.rate)) - (p.rate - q.rate)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two Multivariate Normals with different event shapes cannot be "
                         "computed")
    half_term1 = (q._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) -
                  p._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1))
    combined_batch_shape = torch.broadcast_shapes(q._unbroadcasted_scale_tril.shape[:-2],
                                                  p._unbroadcasted_scale_tril.shape[:-2])
    n = p.event_shape[0]
    q_scale_tril = q._unbroadcasted_scale_tril.expand(combined_batch_shape + (n, n))
    p_scale_tril = p._unbroadcasted_scale_tril.expand(combined_batch_shape + (n, n))
    term2 = _solve_lower(q_scale_tril, p_scale_tril).pow(2).sum([-2, -1])
    term3 = _batch_mahalanobis(q._unbroadcasted_scale_tril, (q.loc - p.loc))
    return half_term1 + 0.5 * (term2 + term3 - n)


# ------------------------------------------------------------------ expand(batch_shape)
# Distribution.expand(batch_shape) as each 1.13 class defines it: a new instance of the
# same class whose parameters are expanded views (no copies), with validation off while it
# is built and the original's setting after; a subclass with its own __init__ must define
# its own expand (NotImplementedError).
def _expanded(self, cls, batch_shape, _instance, params, event_shape=None):
    new = self._get_checked_instance(cls, _instance)
    batch_shape = torch.Size(batch_shape)
    for name, extra in params:
        if name in self.__dict__:
            setattr(new, name, self.__dict__[name].expand(batch_shape + extra))
    return new, batch_shape


def _expanded_done(new, self, batch_shape, event_shape=torch.Size()):
    Distribution.__init__(new, batch_shape, event_shape, validate_args=False)
    new._validate_args = self._validate_args
    return new


def _expand_by(cls, names):
    # a distribution whose named parameters all have its batch shape
    def expand(self, batch_shape, _instance=None):
        new, batch_shape = _expanded(self, cls, batch_shape, _instance, [(n, torch.Size()) for n in names])
        return _expanded_done(new, self, batch_shape)
    return expand


Normal.expand = _expand_by(Normal, ('loc', 'scale'))
Laplace.expand = _expand_by(Laplace, ('loc', 'scale'))
Uniform.expand = _expand_by(Uniform, ('low', 'high'))
Exponential.expand = _expand_by(Exponential, ('rate',))
Gamma.expand = _expand_by(Gamma, ('concentration', 'rate'))
Poisson.expand = _expand_by(Poisson, ('rate',))
Geometric.expand = _expand_by(Geometric, ('probs', 'logits'))


def _bernoulli_expand(self, batch_shape, _instance=None):
    new, batch_shape = _expanded(self, Bernoulli, batch_shape, _instance, [('probs', ()), ('logits', ())])
    new._param = new.probs if 'probs' in self.__dict__ else new.logits
    return _expanded_done(new, self, batch_shape)


def _binomial_expand(self, batch_shape, _instance=None):
    new, batch_shape = _expanded(self, Binomial, batch_shape, _instance,
                                 [('total_count', ()), ('probs', ()), ('logits', ())])
    new._param = new.probs if 'probs' in self.__dict__ else new.logits
    return _expanded_done(new, self, batch_shape)


def _categorical_expand(self, batch_shape, _instance=None):
    events = torch.Size((self._num_events,))
    new, batch_shape = _expanded(self, Categorical, batch_shape, _instance, [('probs', events), ('logits', events)])
    new._param = new.probs if 'probs' in self.__dict__ else new.logits
    new._num_events = self._num_events
    return _expanded_done(new, self, batch_shape, self._event_shape)


def _one_hot_categorical_expand(self, batch_shape, _instance=None):
    new = self._get_checked_instance(OneHotCategorical, _instance)
    batch_shape = torch.Size(batch_shape)
    new._categorical = self._categorical.expand(batch_shape)
    return _expanded_done(new, self, batch_shape, self._event_shape)


def _chi2_expand(self, batch_shape, _instance=None):
    new = self._get_checked_instance(Chi2, _instance)
    return Gamma.expand(self, batch_shape, new)


def _dirichlet_expand(self, batch_shape, _instance=None):
    new, batch_shape = _expanded(self, Dirichlet, batch_shape, _instance, [('concentration', self._event_shape)])
    return _expanded_done(new, self, batch_shape, self._event_shape)


def _beta_expand(self, batch_shape, _instance=None):
    new = self._get_checked_instance(Beta, _instance)
    batch_shape = torch.Size(batch_shape)
    new._dirichlet = self._dirichlet.expand(batch_shape)
    return _expanded_done(new, self, batch_shape)


def _student_t_expand(self, batch_shape, _instance=None):
    new, batch_shape = _expanded(self, StudentT, batch_shape, _instance, [('df', ()), ('loc', ()), ('scale', ())])
    new._chi2 = self._chi2.expand(batch_shape)
    return _expanded_done(new, self, batch_shape)


def _independent_expand(self, batch_shape, _instance=None):
    new = self._get_checked_instance(Independent, _instance)
    batch_shape = torch.Size(batch_shape)
    new.base_dist = self.base_dist.expand(batch_shape + self._event_shape[:self.reinterpreted_batch_ndims])
    new.reinterpreted_batch_ndims = self.reinterpreted_batch_ndims
    return _expanded_done(new, self, batch_shape, self._event_shape)


def _transformed_expand(self, batch_shape, _instance=None):
    new = self._get_checked_instance(TransformedDistribution, _instance)
    batch_shape = torch.Size(batch_shape)
    shape = batch_shape + self._event_shape
    for t in reversed(self.transforms):
        shape = t.inverse_shape(shape)
    base_batch_shape = shape[:len(shape) - len(self.base_dist.event_shape)]
    new.base_dist = self.base_dist.expand(base_batch_shape)
    new.transforms = self.transforms
    return _expanded_done(new, self, batch_shape, self._event_shape)


def _log_normal_expand(self, batch_shape, _instance=None):
    new = self._get_checked_instance(LogNormal, _instance)
    return TransformedDistribution.expand(self, batch_shape, _instance=new)


def _multivariate_normal_expand(self, batch_shape, _instance=None):
    event, matrix = self._event_shape, self._event_shape + self._event_shape
    new, batch_shape = _expanded(self, MultivariateNormal, batch_shape, _instance,
                                 [('loc', event), ('covariance_matrix', matrix), ('scale_tril', matrix),
                                  ('precision_matrix', matrix)])
    new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
    return _expanded_done(new, self, batch_shape, self._event_shape)


Bernoulli.expand = _bernoulli_expand
Binomial.expand = _binomial_expand
Categorical.expand = _categorical_expand
OneHotCategorical.expand = _one_hot_categorical_expand
Chi2.expand = _chi2_expand
Dirichlet.expand = _dirichlet_expand
Beta.expand = _beta_expand
StudentT.expand = _student_t_expand
Independent.expand = _independent_expand
TransformedDistribution.expand = _transformed_expand
LogNormal.expand = _log_normal_expand
MultivariateNormal.expand = _multivariate_normal_expand
