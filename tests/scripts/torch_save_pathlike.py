# torch.save / torch.load with a pathlib.Path (the PyTorch workflow tutorials' MODEL_SAVE_PATH),
# and the keyword arguments of PyTorch 1.13's signatures
import os
from pathlib import Path
import torch
import torch.nn as nn

MODEL_PATH = Path("torch_save_pathlike_dir.tmp")
MODEL_PATH.mkdir(parents=True, exist_ok=True)
MODEL_NAME = "01_pytorch_workflow_model_0.pth"
MODEL_SAVE_PATH = MODEL_PATH / MODEL_NAME
torch.manual_seed(42)
model_0 = nn.Linear(1, 1)
print(f"Saving model to: {MODEL_SAVE_PATH}")
torch.save(obj=model_0.state_dict(), f=MODEL_SAVE_PATH)
loaded_model_0 = nn.Linear(1, 1)
print(loaded_model_0.load_state_dict(torch.load(f=MODEL_SAVE_PATH)))
print(loaded_model_0.state_dict())
torch.save({'x': torch.arange(3)}, MODEL_SAVE_PATH, _use_new_zipfile_serialization=True, pickle_protocol=2)
print(torch.load(MODEL_SAVE_PATH, map_location='cpu', weights_only=True))
try:
    torch.load(MODEL_PATH / 'missing.pth')
except FileNotFoundError as e:
    print('FileNotFoundError', e.errno, e)
os.remove(str(MODEL_SAVE_PATH))
os.rmdir(str(MODEL_PATH))
print(MODEL_PATH.exists())
import torch.onnx  # pytorch/examples' word_language_model imports it at the top
print(torch.onnx.is_in_onnx_export())
