#!/usr/bin/python3
"""The numpy adapter: ONNX Mul/Div 1-14 and OpenVINO Multiply-1/Divide-1 on numpy's
multiply, divide (floats) and floor_divide (where the op floors). README.md has the mapping.

    eltwise-validate run --backend numpy

It is the adapter kit's worked example (backends/kit/python, eltwise_adapter_kit.example): the
kit checks each request, lowers ONNX legacy and pdpd broadcasting by reshaping B, and writes the
answer; numpy computes.
"""
from eltwise_adapter_kit import example

if __name__ == "__main__":
    example.main()
