# torch.distributed as PyTorch 1.13 shows it in a single process that has not
# called init_process_group (scripts such as nanoGPT's train.py import it and take
# their single-process path): is_available, is_initialized, and the calls that need
# a process group raise PyTorch's errors. No process group can be made here.

_NOT_INITIALIZED = ('Default process group has not been initialized, please make sure to call '
                    'init_process_group.')


class Backend:
    UNDEFINED = 'undefined'
    GLOO = 'gloo'
    NCCL = 'nccl'
    MPI = 'mpi'


class ReduceOp:
    SUM = 'SUM'
    PRODUCT = 'PRODUCT'
    MIN = 'MIN'
    MAX = 'MAX'
    AVG = 'AVG'


def is_available():
    return True


def is_initialized():
    return False


def is_nccl_available():
    return False


def is_gloo_available():
    return False


def is_mpi_available():
    return False


def is_torchelastic_launched():
    return False


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name='', pg_options=None):
    raise RuntimeError('torch.distributed: nnscope runs a single process; init_process_group is not available')


def _needs_group(*args, **kwargs):
    raise RuntimeError(_NOT_INITIALIZED)


destroy_process_group = _needs_group
get_rank = _needs_group
get_world_size = _needs_group
get_backend = _needs_group
barrier = _needs_group
all_reduce = _needs_group
all_gather = _needs_group
broadcast = _needs_group
reduce = _needs_group
new_group = _needs_group
