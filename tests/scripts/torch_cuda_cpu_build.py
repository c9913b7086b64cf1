# What scripts written for a GPU call on torch.cuda, torch.version and
# torch.multiprocessing, answered as PyTorch 1.13's CPU build answers.
import torch
import torch.multiprocessing as mp
for e in ['torch.cuda.is_available()', 'torch.cuda.device_count()', 'torch.cuda.empty_cache()',
          'torch.cuda.synchronize()', 'torch.cuda.memory_allocated()', 'torch.cuda.max_memory_allocated()',
          'torch.cuda.memory_reserved()', 'torch.cuda.max_memory_reserved()', 'torch.cuda.is_initialized()',
          'torch.cuda.current_device()', 'torch.cuda.get_device_name(0)', 'torch.cuda.get_device_properties(0)',
          'torch.cuda.reset_peak_memory_stats()', 'torch.cuda.set_device(0)', 'torch.cuda.ipc_collect()',
          'torch.cuda.current_stream()', 'torch.cuda.get_rng_state()', 'torch.cuda.seed()',
          'torch.cuda.manual_seed_all(0)', 'torch.cuda.memory_summary()', 'torch.version.cuda', 'torch.cuda.nosuch']:
    try:
        print(e, '->', repr(eval(e)))
    except Exception as ex:
        print(e, 'raises', type(ex).__name__, ex)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
x = torch.ones(2, device=device)
if torch.cuda.is_available():
    torch.cuda.synchronize()
torch.cuda.empty_cache()
print(x, torch.cuda.memory_allocated(device) / 2**20)
print(mp.get_sharing_strategy(), sorted(mp.get_all_sharing_strategies()), mp.cpu_count() > 0)
mp.set_sharing_strategy('file_system')
print(mp.get_sharing_strategy())
