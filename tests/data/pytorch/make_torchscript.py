# Writes tests/data/pytorch/torchscript.pt (torch.jit.save of a scripted 4-3-2 MLP with a buffer) and its
# .expected.json: zip entries, and the tensors in data.pkl's order with torch.jit.load's names, dtypes and shapes.
import json, pickletools, sys, zipfile
import torch

torch.manual_seed(46)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
        self.register_buffer("mean", torch.arange(4, dtype=torch.float32))

    def forward(self, x):
        return self.net(x - self.mean)


out = sys.argv[1]
torch.jit.script(Net()).save(out)
loaded = torch.jit.load(out)
state = loaded.state_dict()
order = ["mean", "net.0.weight", "net.0.bias", "net.2.weight", "net.2.bias"]  # data.pkl's attribute order
assert sorted(order) == sorted(state)
names = sorted(zipfile.ZipFile(out).namelist())
json.dump({"zip_entries": names,
           "tensors": [{"name": n, "dtype": str(state[n].dtype).replace("torch.", ""), "shape": list(state[n].shape)}
                       for n in order],
           "scalars": {}}, open(out + ".expected.json", "w"), indent=1)
