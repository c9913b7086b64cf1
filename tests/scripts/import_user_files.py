# import of a script's own files: NAME.py beside the script, packages with
# __init__.py, a.b as a/b.py; each runs once; errors in them propagate.
import torch
import user_module_helper
from user_module_helper import Net, helper
import user_module_helper as again
import user_pkg
from user_pkg.util import add
import user_pkg.util

torch.manual_seed(0)
net = Net()
print(net, helper(2), user_module_helper.SCALE, again is user_module_helper, user_pkg.VERSION, add(1, 2),
      user_pkg.util.add(3, 4))
print(net(torch.ones(1, 2)), type(net).__module__, user_module_helper.__name__)
try:
    import user_pkg.broken
except ValueError as e:
    print("ValueError", e)
try:
    import no_such_user_module
except ModuleNotFoundError as e:
    print(e)
try:
    from user_module_helper import missing_name
except ImportError as e:
    print(type(e).__name__, str(e).split(" (")[0], str(e).endswith("user_module_helper.py)"))
