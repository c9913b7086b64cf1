# torch.onnx: importable (scripts import it at the top and export only when asked);
# nnscope writes no ONNX files, so export() says so.


def export(model, args, f, *rest, **kwargs):
    raise RuntimeError('torch.onnx.export: nnscope cannot write ONNX files')


def is_in_onnx_export():
    return False
