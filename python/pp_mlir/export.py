"""pp-import-torch: export a PyTorch module to a pp-mlir model.

Takes a module spec (``package.module:factory`` or ``path/to/file.py:factory``),
the shapes and dtypes of one micro-batch's inputs and of its target, and
writes

- MODEL.mlir: one ``func.func`` (TOSA, or linalg on tensors) whose arguments
  are the module's trainable parameters, each marked ``pp.parameter`` and
  ``pp.name = "<PyTorch name>"``, followed by the data arguments (marked
  ``pp.data``), returning the module's output for one micro-batch;
- one ``.npy`` per parameter argument holding the module's initial value;
- with ``--sample-data``, M micro-batches of inputs and targets and PyTorch's
  mean loss on them, which pp-run's first step must reproduce;

and prints the ``pp-run`` command that trains it. See docs/Frontends.md.

The weights become arguments by ``torch.func.functional_call`` in a wrapper
module whose ``forward`` takes (weights..., data...); ``torch_mlir.fx.
export_and_import`` (torch.export, then torch-mlir's FX importer and its
lowering) turns the wrapper into MLIR. Parameters tied in PyTorch (one tensor
under several names) are one argument, named by its first name
(``pp.name``), the others listed in ``pp.aliases``.
"""

import argparse
import importlib
import importlib.util
import os
import shlex
import sys

# The dtypes of --input and --target: name -> torch dtype.
DTYPES = {"f32": "float32", "f64": "float64", "i32": "int32", "i64": "int64"}


class ExportError(Exception):
    pass



def batch_norm_in_training_form(torch, module):
    """Batch norm in train() mode normalizes by the batch's statistics and
    also updates its running statistics, which torch.export turns into extra
    results (buffer mutations) that a loss function cannot have. Training
    does not read them, so every batch norm stops tracking them."""
    for m in module.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            m.track_running_stats = False
            m.running_mean = None
            m.running_var = None
            m.num_batches_tracked = None


def persistent_buffers(module):
    """torch.export lifts a non-persistent buffer (register_buffer(...,
    persistent=False), such as the rotary embedding's inv_freq in
    transformers' Llama) into ExportedProgram.constants instead of its
    state_dict, where torch-mlir's import_frozen_program looks every buffer
    up ("Could not find state mapping for buffer"). Buffers become constants
    of the export either way (docs/Frontends.md), so every buffer is made
    persistent."""
    for m in module.modules():
        m._non_persistent_buffers_set.clear()


def parse_shape(text, what, default_dtype="f32"):
    """'4x32' or '4x32:f32' or '4:i32' -> ((4, 32), 'f32')."""
    shape_text, _, dtype = text.partition(":")
    dtype = dtype or default_dtype
    if dtype not in DTYPES:
        raise ExportError("%s %r: unknown dtype %r (one of %s)" %
                          (what, text, dtype, ", ".join(DTYPES)))
    try:
        shape = tuple(int(d) for d in shape_text.split("x")) if shape_text else ()
    except ValueError:
        raise ExportError("%s %r: a shape is sizes joined by 'x', e.g. 4x32"
                          % (what, text)) from None
    if any(d <= 0 for d in shape):
        raise ExportError("%s %r: every size must be positive" % (what, text))
    return shape, dtype


def load_factory(spec):
    """'pkg.mod:name' or 'path/file.py:name' -> the callable."""
    if ":" not in spec:
        raise ExportError("module spec %r: expected package.module:factory "
                          "or path/to/file.py:factory" % spec)
    where, _, name = spec.rpartition(":")
    if where.endswith(".py") or os.sep in where:
        if not os.path.isfile(where):
            raise ExportError("module spec %r: no file %s" % (spec, where))
        modname = "_pp_import_" + os.path.splitext(os.path.basename(where))[0]
        loader_spec = importlib.util.spec_from_file_location(modname, where)
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[modname] = module
        sys.path.insert(0, os.path.dirname(os.path.abspath(where)))
        loader_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ExportError("module spec %r: %s has no %r" %
                              (spec, where, name))
        obj = getattr(obj, part)
    return obj


def unique_parameters(module):
    """The trainable parameters, one entry per tensor: (names, parameter),
    in the order of module.named_parameters(), all names of a tied tensor
    together (the first is its name)."""
    by_id = {}
    order = []
    for name, p in module.named_parameters(remove_duplicate=False):
        if not p.requires_grad:
            continue
        if id(p) not in by_id:
            by_id[id(p)] = ([], p)
            order.append(id(p))
        by_id[id(p)][0].append(name)
    return [by_id[i] for i in order]


def make_wrapper(torch, module, names):
    """An nn.Module whose forward(*weights, *data) runs `module` with the
    weights substituted by functional_call; tied names follow their first
    (tie_weights=True)."""

    class Functional(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = module

        def forward(self, *args):
            weights = dict(zip(names, args[:len(names)]))
            out = torch.func.functional_call(self.inner, weights,
                                             tuple(args[len(names):]),
                                             tie_weights=True)
            return select_output(torch, out)

    return Functional()


def select_output(torch, out):
    """One tensor from what a module returns: itself, `.logits` of a
    transformers ModelOutput, else the first element of a tuple/list."""
    if isinstance(out, torch.Tensor):
        return out
    if hasattr(out, "logits") and isinstance(out.logits, torch.Tensor):
        return out.logits
    if isinstance(out, (tuple, list)) and out and \
            isinstance(out[0], torch.Tensor):
        return out[0]
    raise ExportError("the module returns %s: pp-run trains a function with "
                      "one tensor result" % type(out).__name__)


def make_data(torch, shape, dtype, generator, high=10):
    tdtype = getattr(torch, DTYPES[dtype])
    if dtype.startswith("f"):
        return torch.rand(shape, generator=generator, dtype=tdtype)
    return torch.randint(0, high, shape, generator=generator, dtype=tdtype)


def torch_loss(torch, kind, y, target):
    if kind == "mse":
        return torch.nn.functional.mse_loss(y, target)
    return torch.nn.functional.cross_entropy(y, target.long())


def sgd_step_losses(torch, wrapper, weights, batches, targets, kind, lr):
    """PyTorch's mean loss over the micro-batches, and again after one SGD
    step p -= lr * dL/dp on it: pp-run's first two steps on the same data."""
    ws = [w.clone().requires_grad_(True) for w in weights]
    mean = sum(torch_loss(torch, kind, wrapper(*ws, *b), t)
               for b, t in zip(batches, targets)) / len(batches)
    grads = torch.autograd.grad(mean, ws)
    with torch.no_grad():
        ws = [w - lr * g for w, g in zip(ws, grads)]
        after = sum(torch_loss(torch, kind, wrapper(*ws, *b), t)
                    for b, t in zip(batches, targets)) / len(batches)
    return float(mean.detach()), float(after)


def embedding_one_hot(torch):
    """aten.embedding as one_hot(ids) @ weight: a contraction pp-autodiff
    differentiates, where the gather that torch-mlir makes of it
    (tensor.extract in a linalg.generic, with cf.assert bounds checks on
    the linalg path) is not (docs/Frontends.md). V times the FLOPs of the
    gather: for small vocabularies."""

    def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False,
                  sparse=False):
        # 1 - min((id - class)^2, 1): integer arithmetic, no tensor of i1
        # (F.one_hot and ids == classes both go through a tensor<...xi1>,
        # which pp-run's CPU lowering computes wrongly, and abs() becomes
        # math.absi, which it cannot lower; docs/Frontends.md).
        classes = torch.arange(weight.shape[0], device=indices.device)
        diff = indices.unsqueeze(-1) - classes
        return (1 - (diff * diff).clamp(max=1)).to(weight.dtype) @ weight

    return {torch.ops.aten.embedding.default: embedding}


def decompositions(torch, one_hot_embedding=False):
    """torch-mlir's decomposition table, plus two of PyTorch's own:
    - aten.gelu: torch-mlir's linalg lowering of GELU's tanh approximation
      multiplies by 0.797724 where sqrt(2/pi) = 0.7978846 (about 5e-5 off
      PyTorch on unit-scale activations), its TOSA lowering computes x^3 as
      tosa.pow(x, 3.0) of a possibly negative base; PyTorch's decomposition
      has the exact constant and x * x * x;
    - aten._softmax: into amax, exp, sum and div, as PyTorch computes it
      (docs/Frontends.md)."""
    from torch._decomp import get_decompositions
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table
    table = dict(get_decomposition_table())
    table.update(get_decompositions([torch.ops.aten.gelu,
                                      torch.ops.aten._softmax]))
    if one_hot_embedding:
        table.update(embedding_one_hot(torch))
    return table


def set_arg_attrs(ir, func_op, attrs):
    """attrs: one dict per argument of str -> ir.Attribute."""
    with func_op.context:
        func_op.attributes["arg_attrs"] = ir.ArrayAttr.get(
            [ir.DictAttr.get(a) for a in attrs])


def find_func(module, name):
    for op in module.body.operations:
        if op.operation.name == "func.func" and \
                str(op.attributes["sym_name"]) == '"%s"' % name:
            return op
    raise ExportError("torch-mlir's module holds no func.func @%s" % name)


def versions():
    import importlib.metadata as md
    out = []
    for pkg in ("torch", "torch-mlir"):
        try:
            out.append("%s %s" % (pkg, md.version(pkg)))
        except md.PackageNotFoundError:
            out.append("%s ?" % pkg)
    return ", ".join(out)


def build_parser():
    ap = argparse.ArgumentParser(
        prog="pp-import-torch",
        description="Export a PyTorch nn.Module to a pp-mlir model "
                    "(MLIR with the weights as pp.parameter arguments, one "
                    ".npy per weight) and print the pp-run command that "
                    "trains it. See docs/Frontends.md.")
    ap.add_argument("spec", help="package.module:factory or "
                    "path/to/file.py:factory; the factory (a function or an "
                    "nn.Module class) returns the nn.Module")
    ap.add_argument("--input", action="append", default=[], metavar="SHAPE",
                    help="one micro-batch's input, e.g. 4x32 or 4x16:i64 "
                    "(dtypes %s; default f32); repeat for several inputs, "
                    "in forward's order" % ", ".join(DTYPES))
    ap.add_argument("--target", required=True, metavar="SHAPE",
                    help="one micro-batch's target: the output's shape for "
                    "mse (e.g. 4x10), B:i32 class labels for cross-entropy "
                    "(e.g. 4:i32)")
    ap.add_argument("--loss", choices=["mse", "cross-entropy"],
                    help="default: cross-entropy for an integer target, "
                    "else mse")
    ap.add_argument("-o", "--output", required=True, metavar="MODEL.mlir")
    ap.add_argument("--function", help="the function's name (default: the "
                    "output file's stem, '-' and '.' as '_')")
    ap.add_argument("--weights-dir", help="where the .npy files go "
                    "(default: MODEL.weights/ beside MODEL.mlir); 'none': "
                    "write none")
    ap.add_argument("--output-type", default="tosa",
                    choices=["tosa", "linalg-on-tensors"],
                    help="torch-mlir's lowering (default tosa: pp-run "
                    "differentiates softmax there, not on the linalg path, "
                    "where its max carries an unused arg-max)")
    ap.add_argument("--factory-args", default="{}", metavar="JSON",
                    help="keyword arguments of the factory, a JSON object")
    ap.add_argument("--one-hot-embedding", action="store_true",
                    help="export nn.Embedding lookups as one_hot(ids) @ "
                    "weight, which pp-run can differentiate (the gather "
                    "it cannot); costs V times the lookup")
    ap.add_argument("--seed", type=int, default=0,
                    help="torch.manual_seed before the factory runs, so the "
                    "initial weights are reproducible (default 0)")
    ap.add_argument("--train-mode", action="store_true",
                    help="export in train() mode (default eval(): dropout "
                    "off, batch norm on its running statistics); batch norm "
                    "then normalizes by the micro-batch's statistics and "
                    "keeps no running statistics")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--microbatches", type=int, default=2)
    ap.add_argument("--schedule", default="1f1b")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--lr", type=float, default=0.01,
                    help="the learning rate of the printed command and of "
                    "PyTorch's SGD step on the sample data (default 0.01, "
                    "pp-run's)")
    ap.add_argument("--sample-data", metavar="DIR",
                    help="also write --microbatches micro-batches of inputs "
                    "and targets there (uniform floats, integers in [0, 10), "
                    "labels in [0, C)), print PyTorch's mean loss on them "
                    "and pass them to pp-run with --inputs: its first step's "
                    "loss must agree")
    ap.add_argument("--no-header", action="store_true",
                    help="no comment header in MODEL.mlir")
    return ap


def export(argv=None):
    args = build_parser().parse_args(argv)
    import json
    import numpy as np
    import torch
    from torch_mlir import fx, ir

    inputs = [parse_shape(t, "--input") for t in args.input]
    if not inputs:
        raise ExportError("give at least one --input")
    target_shape, target_dtype = parse_shape(args.target, "--target")
    loss = args.loss or ("cross-entropy" if target_dtype.startswith("i")
                         else "mse")
    if loss == "cross-entropy" and target_dtype != "i32":
        raise ExportError("cross-entropy: the target is class labels, "
                          "B:i32 (pp-append-loss takes tensor<B x i32>)")
    out_path = os.path.abspath(args.output)
    stem = os.path.splitext(os.path.basename(out_path))[0]
    function = args.function or stem.replace("-", "_").replace(".", "_")

    factory = load_factory(args.spec)
    torch.manual_seed(args.seed)
    module = factory(**json.loads(args.factory_args))
    if not isinstance(module, torch.nn.Module):
        raise ExportError("%s returned %s, not an nn.Module" %
                          (args.spec, type(module).__name__))
    module.train(args.train_mode)
    if args.train_mode:
        batch_norm_in_training_form(torch, module)
    persistent_buffers(module)

    params = unique_parameters(module)
    if not params:
        raise ExportError("%s has no trainable parameters" % args.spec)
    for names, p in params:
        if p.dtype not in (torch.float32, torch.float64):
            raise ExportError("parameter %s is %s: pp-run trains f32 and f64 "
                              "parameters (cast the module with .float())" %
                              (names[0], p.dtype))
    first_names = [names[0] for names, _ in params]
    wrapper = make_wrapper(torch, module, first_names)

    gen = torch.Generator().manual_seed(args.seed)
    example = [make_data(torch, s, d, gen) for s, d in inputs]
    weights = [p.detach().clone() for _, p in params]
    with torch.no_grad():
        y = wrapper(*weights, *example)
    if loss == "mse" and (tuple(y.shape) != target_shape or
                          y.dtype not in (torch.float32, torch.float64)):
        raise ExportError("mse: the target %s does not match the output "
                          "%s %s" % (args.target, "x".join(map(str, y.shape)),
                                     y.dtype))
    if loss == "cross-entropy" and (y.dim() != 2 or
                                    target_shape != (y.shape[0],)):
        raise ExportError("cross-entropy: the output is %s, the target %s: "
                          "expected logits BxC and labels B:i32" %
                          ("x".join(map(str, y.shape)), args.target))

    mlir_module = fx.export_and_import(
        wrapper, *weights, *example, output_type=args.output_type,
        func_name=function, decomposition_table=decompositions(torch, args.one_hot_embedding))
    func_op = find_func(mlir_module, function)
    n_args = len(func_op.regions[0].blocks[0].arguments)
    if n_args != len(params) + len(inputs):
        raise ExportError("@%s has %d arguments, expected %d parameters and "
                          "%d inputs" % (function, n_args, len(params),
                                         len(inputs)))
    with mlir_module.context:
        attrs = []
        for names, _ in params:
            a = {"pp.parameter": ir.UnitAttr.get(),
                 "pp.name": ir.StringAttr.get(names[0])}
            if len(names) > 1:
                a["pp.aliases"] = ir.ArrayAttr.get(
                    [ir.StringAttr.get(n) for n in names[1:]])
            attrs.append(a)
        attrs += [{"pp.data": ir.UnitAttr.get()} for _ in inputs]
        set_arg_attrs(ir, func_op, attrs)
        # torch-mlir's bookkeeping attribute names the wrapper, not the model.
        if "torch.debug_module_name" in mlir_module.operation.attributes:
            del mlir_module.operation.attributes["torch.debug_module_name"]
    asm = mlir_module.operation.get_asm(enable_debug_info=False)

    out_dir = os.path.dirname(out_path)
    weights_dir = args.weights_dir or os.path.join(out_dir, stem + ".weights")
    npy_paths = []
    if weights_dir != "none":
        os.makedirs(weights_dir, exist_ok=True)
        for (names, p), w in zip(params, weights):
            path = os.path.join(weights_dir, names[0] + ".npy")
            np.save(path, w.numpy())
            npy_paths.append(path)

    cwd = os.getcwd()

    def r(p):  # as given under the working directory, else absolute
        rp = os.path.relpath(p, cwd)
        return p if rp.startswith("..") else rp
    cmd = ["pp-run", r(out_path), "--function=" + function,
           "--loss=" + loss, "--ranks=%d" % args.ranks,
           "--microbatches=%d" % args.microbatches,
           "--schedule=" + args.schedule, "--steps=%d" % args.steps,
           "--check"]
    if args.lr != 0.01:
        cmd.append("--lr=%g" % args.lr)
    if npy_paths:
        cmd.append("--initial-parameters=" + ",".join(r(p)
                                                        for p in npy_paths))

    torch_loss_value = None
    if args.sample_data:
        os.makedirs(args.sample_data, exist_ok=True)
        m = args.microbatches
        batches = [[make_data(torch, s, d, gen) for s, d in inputs]
                   for _ in range(m)]
        if loss == "mse":
            targets = [make_data(torch, target_shape, target_dtype, gen)
                       for _ in range(m)]
        else:
            targets = [make_data(torch, target_shape, target_dtype, gen,
                                 high=y.shape[1]) for _ in range(m)]
        torch_loss_value, torch_loss_after = sgd_step_losses(
            torch, wrapper, weights, batches, targets, loss, args.lr)
        files = []
        for i in range(len(inputs)):
            files.append(os.path.join(args.sample_data, "input%d.npy" % i))
            np.save(files[-1], torch.stack([b[i] for b in batches]).numpy())
        files.append(os.path.join(args.sample_data, "target.npy"))
        np.save(files[-1], torch.stack(targets).numpy())
        cmd.append("--inputs=" + ",".join(r(f) for f in files))

    header = []
    if not args.no_header:
        argv_shown = ["pp-import-torch"] + [
            a for a in (argv if argv is not None else sys.argv[1:])]
        header = [
            "// Exported from PyTorch by python/pp-import-torch "
            "(docs/Frontends.md):",
            "//   " + " ".join(shlex.quote(a) for a in argv_shown),
            "// %s, output type %s." % (versions(), args.output_type),
            "// Arguments: %d parameters (pp.parameter, pp.name = the "
            "PyTorch name), then %d data (pp.data)." % (len(params),
                                                        len(inputs)),
        ]
        for i, ((names, p), w) in enumerate(zip(params, weights)):
            header.append("//   %d: %s %s%s" % (
                i, names[0], "x".join(map(str, p.shape)) or "scalar",
                " (tied: %s)" % ", ".join(names[1:]) if len(names) > 1
                else ""))
        header.append("")
    os.makedirs(out_dir, exist_ok=True)
    with open(out_path, "w") as f:
        f.write("\n".join(header))
        f.write(asm)

    print("wrote %s: @%s, %d parameters (%d elements), %d data arguments, "
          "%s" % (r(out_path), function, len(params),
                  sum(p.numel() for _, p in params), len(inputs), loss))
    for names, _ in params:
        if len(names) > 1:
            print("tied: %s is one argument (%s)" % (
                names[0], ", ".join(names[1:])))
    if npy_paths:
        print("wrote %d initial parameters in %s" % (len(npy_paths),
                                                     r(weights_dir)))
    if torch_loss_value is not None:
        print("PyTorch: mean %s loss over the %d sample micro-batches: %.9g "
              "(pp-run's step 1 loss)" % (loss, args.microbatches,
                                          torch_loss_value))
        print("PyTorch: after one SGD step (lr %g) on them: %.9g (pp-run's "
              "step 2 loss)" % (args.lr, torch_loss_after))
    print("train it:")
    print("  " + " ".join(shlex.quote(c) for c in cmd))
    return 0


def main(argv=None):
    try:
        return export(argv)
    except ExportError as e:
        print("pp-import-torch: error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
