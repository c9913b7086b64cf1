# torch.multiprocessing: PyTorch's wrapper of multiprocessing, here the language's
# multiprocessing (one process, green threads), with its sharing strategies.
from multiprocessing import *
from multiprocessing import __all__ as _mp_all

__all__ = _mp_all + ['get_sharing_strategy', 'set_sharing_strategy', 'get_all_sharing_strategies', 'spawn',
                     'start_processes', 'ProcessContext', 'ProcessRaisedException', 'ProcessExitedException']

_sharing_strategy = ['file_descriptor']


def get_sharing_strategy():
    return _sharing_strategy[0]


def set_sharing_strategy(new_strategy):
    if new_strategy not in get_all_sharing_strategies():
        raise AssertionError()
    _sharing_strategy[0] = new_strategy


def get_all_sharing_strategies():
    return {'file_system', 'file_descriptor'}


class ProcessRaisedException(Exception):
    def __init__(self, msg, error_index, error_pid):
        Exception.__init__(self, msg)
        self.error_index = error_index
        self.pid = error_pid


class ProcessExitedException(ProcessRaisedException):
    pass


class ProcessContext:
    def __init__(self, processes):
        self.processes = processes

    def pids(self):
        return [p.pid for p in self.processes]

    def join(self, timeout=None):
        for p in self.processes:
            p.join(timeout)
        return True


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method='spawn'):
    # fn(i, *args) for each process index i, as torch.multiprocessing.spawn calls it
    processes = []
    for i in range(nprocs):
        p = Process(target=fn, args=(i,) + tuple(args), daemon=daemon)
        p.start()
        processes.append(p)
    context = ProcessContext(processes)
    if not join:
        return context
    context.join()
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method='spawn'):
    return start_processes(fn, args, nprocs, join, daemon, start_method)
