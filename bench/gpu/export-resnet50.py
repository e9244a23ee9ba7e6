"""Exports ResNet-50 (random weights: throughput does not depend on them) to ONNX with a dynamic batch axis,
as <out>/resnet50-fp32.onnx and <out>/resnet50-fp16.onnx. Input `input` [N, 3, 224, 224], output `logits`
[N, 1000]. Files already there are kept. Usage: python3 export-resnet50.py <out-dir>"""
import os
import sys
import time

import torch
import torchvision


def export(model, example, path):
    if os.path.exists(path):
        print(f"kept {path}", flush=True)
        return
    start = time.time()
    torch.onnx.export(
        model,
        example,
        path + ".partial",
        input_names=["input"],
        output_names=["logits"],
        dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}},
        opset_version=17,
        dynamo=False,
    )
    os.replace(path + ".partial", path)
    print(f"exported {path} in {time.time() - start:.1f} s", flush=True)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = torchvision.models.resnet50(weights=None).eval()
    example = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        export(model, example, os.path.join(out, "resnet50-fp32.onnx"))
        # Half-precision convolutions are a GPU feature; trace on the GPU when there is one.
        device = "cuda" if torch.cuda.is_available() else "cpu"
        export(model.half().to(device), example.half().to(device), os.path.join(out, "resnet50-fp16.onnx"))


if __name__ == "__main__":
    main()
