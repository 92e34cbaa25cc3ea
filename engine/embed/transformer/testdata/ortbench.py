"""onnxruntime on an ONNX model at one length, for docs/BENCHMARKS.md: load time, chunks/s,
CPU ms per chunk (time.process_time), the median of 20 12-token queries.

    python ortbench.py MODEL.onnx LENGTH BATCH ITERATIONS
"""
import numpy as np, onnxruntime as ort, time, sys
ort.set_default_logger_severity(3)
f=sys.argv[1]; L=int(sys.argv[2]); B=int(sys.argv[3]); iters=int(sys.argv[4])
so=ort.SessionOptions(); so.intra_op_num_threads=2
t=time.time(); s=ort.InferenceSession(f, so, providers=["CPUExecutionProvider"]); lt=time.time()-t
ids=(2000+(np.arange(L)*7919)%20000)[None,:].repeat(B,0).astype(np.int64); ids[:,0]=101; ids[:,-1]=102
feed={"input_ids":ids,"attention_mask":np.ones_like(ids),"token_type_ids":np.zeros_like(ids)}
s.run(None,feed)
c0=time.process_time(); t=time.time()
for _ in range(iters): s.run(None,feed)
dt=time.time()-t; dc=time.process_time()-c0; n=iters*B
q=ids[:1,:12].copy(); q[0,-1]=102; ts=[]
for i in range(20):
    t0=time.time(); s.run(None,{"input_ids":q,"attention_mask":np.ones_like(q),"token_type_ids":np.zeros_like(q)}); ts.append(time.time()-t0)
print(f.split('/')[-2] if 'model.onnx' in f else f, "L=%d load %.2fs  %.2f chunks/s  %.0f cpu-ms/chunk  query12 median %.1f ms"%(L,lt,n/dt,1000*dc/n,1000*sorted(ts)[10]))
