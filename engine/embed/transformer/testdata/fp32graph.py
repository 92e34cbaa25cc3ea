"""Rewrite a quantize_dynamic ONNX BERT into float32 activations (same int8 weights,
dequantized), optionally taking the weights from a safetensors checkpoint instead."""
import onnx, numpy as np, re, sys
from onnx import numpy_helper, helper
import bert

def rewrite(src, dst, st=None):
    m = onnx.load(src); g = m.graph
    init = {i.name: i for i in g.initializer}
    prod = {o: n for n in g.node for o in n.output}
    cons = {}
    for n in g.node:
        for i in n.input: cons.setdefault(i, []).append(n)
    W = bert.load_st(st) if st else None
    drop = set(); new_inits = []; new_nodes = {}
    for n in g.node:
        if n.op_type == "MatMulInteger":
            dql = prod[n.input[0]]; A = dql.input[0]
            cast = cons[n.output[0]][0]; mul = cons[cast.output[0]][0]
            key = re.match(r"/(.*)/MatMul_output_0", n.output[0]).group(1).replace("/", ".") + ".weight"
            if W is not None:
                w = W[key].T.astype(np.float32)
            else:
                base = n.input[1][:-len("_quantized")]
                q = numpy_helper.to_array(init[n.input[1]]).astype(np.float32)
                w = ((q - numpy_helper.to_array(init[base + "_zero_point"]).astype(np.float32)) * numpy_helper.to_array(init[base + "_scale"])).astype(np.float32)
            new_inits.append(numpy_helper.from_array(w, key))
            new_nodes[id(n)] = helper.make_node("MatMul", [A, key], [mul.output[0]])
            drop |= {id(cast), id(mul)}
        if n.op_type == "DequantizeLinear" and W is not None and n.input[1].startswith("embeddings."):
            gather = prod[n.input[0]]; key = n.input[1][:-len("_scale")]
            new_inits.append(numpy_helper.from_array(W[key].astype(np.float32), key + "_fp32"))
            new_nodes[id(gather)] = helper.make_node("Gather", [key + "_fp32", gather.input[1]], [n.output[0]])
            drop.add(id(n))
    if W is not None:
        for i in g.initializer:
            if i.name in W and i.data_type == 1:
                i.CopyFrom(numpy_helper.from_array(W[i.name].astype(np.float32), i.name))
    nodes = [new_nodes.get(id(n), n) for n in g.node if id(n) not in drop]
    del g.node[:]; g.node.extend(nodes); g.initializer.extend(new_inits)
    onnx.save(m, dst)

if __name__ == "__main__":
    rewrite(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
