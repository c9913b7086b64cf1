# optimizer.state_dict()/load_state_dict() in PyTorch's layout, carried by
# torch.save/torch.load both ways: checkpoints PyTorch 1.13 wrote
# (tests/fixtures/gen_optim_state.py) resume here with PyTorch's numbers, and
# nnscope's own checkpoints resume the same (tests/fixtures/check_optim_state.py
# loads them in PyTorch).
import torch

KINDS = ["sgd", "sgd_plain", "adam", "adamw"]


def setup(kind):
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    groups = [{"params": m[0].parameters()}, {"params": m[2].parameters(), "lr": 0.05}]
    if kind == "sgd":
        opt = torch.optim.SGD(groups, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
    elif kind == "sgd_plain":
        opt = torch.optim.SGD(groups, lr=0.1)
    elif kind == "adam":
        opt = torch.optim.Adam(groups, lr=0.01, amsgrad=True)
    else:
        opt = torch.optim.AdamW(groups, lr=0.01, weight_decay=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return m, opt, sched


x = torch.linspace(-1, 1, 24).reshape(8, 3)
y = torch.linspace(0, 1, 8).reshape(8, 1)


def train(m, opt, sched, n):
    for i in range(n):
        opt.zero_grad()
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        sched.step()


def rounded(t):
    # six digits: core's matmul may sum a batch in another order than PyTorch's BLAS
    # (a last-bit difference in a gradient); the optimizers' own arithmetic is exact
    return [round(v, 6) for v in t.view(-1).tolist()]


def show(name, m, opt, sched):
    print(name, [rounded(p) for p in m.parameters()])
    print("  lr", [g["lr"] for g in opt.param_groups], sched.get_last_lr(), sched.last_epoch)


if __name__ == "__main__":
    for kind in KINDS:
        # a checkpoint PyTorch wrote, resumed
        m, opt, sched = setup(kind)
        ck = torch.load("../fixtures/optim_state/%s.pt" % kind)
        m.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optimizer"])
        sched.load_state_dict(ck["scheduler"])
        sd = opt.state_dict()
        print(kind, "epoch", ck["epoch"], list(sd["state"].keys()), sd["param_groups"])
        for k, st in sd["state"].items():
            print(" ", k, {n: (v if n == "step" or v is None else v.view(-1).tolist()) for n, v in st.items()})
        # (the loaded state is PyTorch's, printed exactly)
        train(m, opt, sched, 2)
        show("resumed", m, opt, sched)
        # the same run uninterrupted
        m2, opt2, sched2 = setup(kind)
        train(m2, opt2, sched2, 5)
        print("  same as uninterrupted:", all(rounded(a) == rounded(b) for a, b in zip(m.parameters(), m2.parameters())))
        # nnscope's own checkpoint, saved, loaded into fresh objects and resumed
        m3, opt3, sched3 = setup(kind)
        train(m3, opt3, sched3, 3)
        torch.save({"model": m3.state_dict(), "optimizer": opt3.state_dict(), "scheduler": sched3.state_dict(), "epoch": 3},
                   "optim_state_%s.tmp" % kind)
        m4, opt4, sched4 = setup(kind)
        ck = torch.load("optim_state_%s.tmp" % kind)
        m4.load_state_dict(ck["model"])
        opt4.load_state_dict(ck["optimizer"])
        sched4.load_state_dict(ck["scheduler"])
        train(m4, opt4, sched4, 2)
        print("  own checkpoint resumes the same:", all(a.equal(b) for a, b in zip(m4.parameters(), m2.parameters())))
    # bad state dicts change nothing
    m, opt, sched = setup("adam")
    train(m, opt, sched, 1)
    before = opt.state_dict()["state"][0]["exp_avg"].clone()
    good = opt.state_dict()
    bads = [{"state": {}, "param_groups": []}, {"state": {}},
            {"state": {}, "param_groups": [{"params": [0]}, {"params": [1, 2]}]}]
    for bad in bads:
        try:
            opt.load_state_dict(bad)
        except (ValueError, KeyError) as e:
            print(type(e).__name__, e)
    print(opt.state_dict()["state"][0]["exp_avg"].equal(before), len(opt.state))
