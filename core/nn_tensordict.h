/*
 * nn_tensordict.h — a minimal tensordict.TensorDict (tensordict.c) and
 * torchrl's MultiStep post-processing transform (multistep.c).
 * Included by nn.h; the language exposes them as `from tensordict import
 * TensorDict` and `torchrl.data.MultiStep`.
 *
 * A TensorDict maps str keys, in insertion order, to tensors and nested
 * TensorDicts that all start with its batch size. Keys given to the
 * functions below are "nested keys": a str, or a tuple of str (possibly
 * nested tuples, flattened as tensordict's unravel_key does) naming a path
 * through nested TensorDicts, as td["next", "reward"]. Errors carry
 * tensordict's messages: KeyError 'key "x" not found in TensorDict with keys
 * [...]', RuntimeError "batch dimension mismatch, ...". KeyErrors raised with
 * a message hold that message; a plain dict KeyError (del of a missing key)
 * holds repr(key), as core's dicts do.
 */
#ifndef NN_TENSORDICT_H
#define NN_TENSORDICT_H

typedef struct nn_tensordict {
    nn_object ob;                     /* ob.type == &nn_tensordict_type */
    nn_object *items;                 /* owned dict: str -> Tensor or TensorDict, insertion order */
    int batch_dims;
    int64_t batch_size[NN_MAX_DIMS];
} nn_tensordict;

extern const nn_type nn_tensordict_type; /* "TensorDict"; repr as tensordict prints it */
static inline bool nn_is_tensordict(const nn_object *o) { return o && o->type == &nn_tensordict_type; }
#define NN_TENSORDICT(o) ((nn_tensordict *)(o))

/* TensorDict(source, batch_size=[...]). source (borrowed) is NULL (empty), a
   TensorDict (its top-level entries) or a dict whose keys are nested keys and whose
   values are tensors, TensorDicts, dicts (made into TensorDicts of this batch size) or
   Python numbers (0-dim tensors as torch.as_tensor makes them: int64, float32, bool);
   each is set in order as nn_tensordict_set does, so every value's leading dims must
   equal batch_size. Returns a new reference. */
nn_tensordict *nn_tensordict_new(nn_object *source, int batch_dims, const int64_t *batch_size);

/* A nested key from n C strings: a str when n == 1, else a tuple of str. New reference. */
nn_object *nn_tensordict_key(size_t n, ...);

/* td.get(key): borrowed; NULL with KeyError 'key "x" not found in TensorDict with keys
   ['a', 'b']' (the level where it is missing), KeyError "Only NestedKeys are supported.
   Got key ()." for a key that is not one, ValueError "Expected a TensorDictBase instance
   but got <class 'torch.Tensor'> instead for key '('b',)' in tensordict:\n..." when the
   path goes through a tensor. */
nn_object *nn_tensordict_get(nn_tensordict *td, nn_object *key);
/* td.get(key, default): dflt (borrowed, may be NULL; no error set) when the key or one
   of its parents is missing. Other errors as nn_tensordict_get. */
nn_object *nn_tensordict_get_default(nn_tensordict *td, nn_object *key, nn_object *dflt);

/* td.set(key, value) / td[key] = value: borrows value. Missing parents of a nested key
   are created as empty TensorDicts with their parent's batch size; a parent that is a
   tensor is KeyError "The entry next is already present in tensordict ...". The value
   must start with the batch size of the TensorDict it goes into (RuntimeError "batch
   dimension mismatch, got self.batch_size=torch.Size([3, 4]) and
   value.shape=torch.Size([3])."); a TensorDict whose batch size does not start so is
   re-batched (a shallow copy; RuntimeError "the tensor a has shape ... which is
   incompatible with the batch-size ..."). Replacing keeps the key's position. 0 or -1. */
int nn_tensordict_set(nn_tensordict *td, nn_object *key, nn_object *value);
/* key in td: 1 or 0; str keys look at the top level, tuples at nested entries (leaves
   and TensorDicts). -1 with RuntimeError "key must be a NestedKey (a str or a possibly
   tuple of str)." for anything else. */
int nn_tensordict_contains(nn_tensordict *td, nn_object *key);
/* del td[key]: KeyError repr(key) for a missing last key, KeyError 'key "x" not found
   ...' for a missing parent. 0 or -1. */
int nn_tensordict_del(nn_tensordict *td, nn_object *key);
/* td.rename_key_(old_key, new_key): sets new_key to the entry of old_key, then deletes
   old_key (so an existing new_key keeps its position, a new one goes last). 0 or -1. */
int nn_tensordict_rename_key(nn_tensordict *td, nn_object *old_key, nn_object *new_key);
/* list(td.keys(include_nested, leaves_only)): a new list; top-level keys are str,
   nested ones tuples; with include_nested a nested TensorDict's keys come before its
   own key (tensordict's order). */
nn_object *nn_tensordict_keys(nn_tensordict *td, bool include_nested, bool leaves_only);
/* len(td): the first batch dim, 0 without batch dims. */
int64_t nn_tensordict_len(const nn_tensordict *td);

/* td.clone(recurse): recurse copies every tensor (nn_clone); false copies the
   structure only (new TensorDicts sharing the tensors). New reference. */
nn_tensordict *nn_tensordict_clone(nn_tensordict *td, bool recurse);
/* td.batch_size = sizes: nested TensorDicts with fewer batch dims take the new batch
   size too; every entry must start with it (RuntimeError "the tensor a has shape
   torch.Size([3]) which is incompatible with the batch-size torch.Size([4])."). All is
   checked before anything changes. 0 or -1. */
int nn_tensordict_set_batch_size(nn_tensordict *td, int ndim, const int64_t *sizes);
/* td.update(other): other's entries set into td (borrowed), nested TensorDicts
   updated in place recursively. 0 or -1. */
int nn_tensordict_update(nn_tensordict *td, nn_tensordict *other);
/* td.transpose(dim0, dim1) over batch dims (negative allowed): a new TensorDict of
   transposed views (nested TensorDicts too); td itself (retained) when dim0 == dim1;
   ValueError "The provided dimensions are incompatible with the tensordict
   batch-size." out of range. */
nn_tensordict *nn_tensordict_transpose(nn_tensordict *td, int dim0, int dim1);
/* td[items]: every entry indexed along the batch dims (an Ellipsis stands for batch
   dims only), as x[items] does on a tensor (IndexError etc. from the same checks).
   New reference. */
nn_tensordict *nn_tensordict_index(nn_tensordict *td, int n, const nn_index_item *items);

/* ---- torchrl.data.MultiStep (multistep.c) ----
   MultiStep(gamma, n_steps): a module of class "MultiStep" (repr "MultiStep()") with
   attributes gamma, n_steps, done_key ("done"), done_keys (("done", "terminated",
   "truncated")), reward_keys (("reward",)), mask_key (("collector", "mask")) and the
   buffer gammas (float32 [1, 1, n_steps + 1], gamma ** i), as torchrl 0.4 sets them.
   Its forward(tensordict) (called through nn_module_call, hooks included) returns a
   new TensorDict (a structural copy; the input is not modified) with batch dims
   [*B, T], time last, where, trajectories being cut at ("next", "done"):
     ("next", "reward")      the discounted sum of up to n_steps + 1 rewards of the
                             same trajectory, sum_i gamma**i * r[t + i] (reward's dtype),
     ("next", "original_reward")  the reward before,
     ("next", k)             every other entry of "next" but the done keys, taken
                             steps_to_next_obs - 1 steps later,
     "steps_to_next_obs"     int64 [*B, T]: min(n_steps + 1, steps left in the trajectory),
     "gamma"                 float32 [*B, T]: gamma ** steps_to_next_obs,
     "nonterminal"           bool [*B, T]: not the last step of its trajectory (and
                             ("collector", "mask") where present),
   done and reward having the batch shape, optionally followed by a singleton dim (or,
   for done, further dims the TensorDict is re-batched to and transposed back from).
   n_steps == 0 maps every "next" entry to itself (nonterminal all false). This is the
   look-ahead of the seed's documentation (n_steps=4 maps the next step counts of steps
   [0..9] to [5, 6, 7, 8, 9, 10, 10, 10, 10, 10]); later torchrl releases look one
   step less ahead. ValueError "n_steps must be a non-negative integer." for
   n_steps < 0, "got out-of-bounds gamma decay: gamma=1.5" unless 0 < gamma <= 1.
   New reference. */
extern const nn_module_class nn_multistep_class;
nn_module *nn_multistep_new(double gamma, int64_t n_steps);

#endif
