#!/bin/sh
# Prints CuTe's own answer to every case of cute_core.json, one line each:
# "<id>\t<CuTe's printed result>". The answers are recorded under
# `cute.printed` (see README.md), so the replay compares hlayout with CuTe
# itself and not only with the extractor's model of it.
#
# Usage: cute_core_driver.sh CUTLASS_CHECKOUT CCCL_CHECKOUT > printed.txt
#
# CuTe is header-only; its layout algebra runs on the host. It is built here
# with the host C++ compiler, CCCL's libcu++ headers, and a few stub CUDA
# headers (types only: nothing of the algebra touches them).
set -eu
cutlass=$1
cccl=$2
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$here/extract_cute_core.py" "$cutlass/test/unit/cute/core" - \
    --driver "$work/driver.cpp" > /dev/null

mkdir "$work/stub"
cat > "$work/stub/cuda_runtime_api.h" <<'EOF'
#pragma once
typedef int cudaError_t;
enum { cudaSuccess = 0 };
inline const char* cudaGetErrorString(cudaError_t) { return ""; }
inline cudaError_t cudaGetLastError() { return 0; }
inline cudaError_t cudaDeviceSynchronize() { return 0; }
EOF
cat > "$work/stub/cuda_runtime.h" <<'EOF'
#pragma once
#include <cuda_runtime_api.h>
#include <vector_types.h>
EOF
{
    echo '#pragma once'
    echo 'struct dim3 { unsigned x = 1, y = 1, z = 1; };'
    for t in char:char uchar:'unsigned char' short:short ushort:'unsigned short' \
             int:int uint:'unsigned int' long:long ulong:'unsigned long' \
             longlong:'long long' ulonglong:'unsigned long long' float:float double:double; do
        name=${t%%:*}
        type=${t#*:}
        echo "struct ${name}1 { $type x; }; struct ${name}2 { $type x, y; };"
        echo "struct ${name}3 { $type x, y, z; }; struct ${name}4 { $type x, y, z, w; };"
    done
} > "$work/stub/vector_types.h"
cat > "$work/stub/cuda_fp16.h" <<'EOF'
#pragma once
struct __half_raw { unsigned short x; };
struct __half { unsigned short __x; __half() = default; __half(__half_raw r) : __x(r.x) {}
                operator __half_raw() const { return {__x}; } };
struct __half2 { __half x, y; };
typedef __half half;
typedef __half2 half2;
inline float __half2float(__half) { return 0; }
inline __half __float2half(float) { return __half(); }
inline __half __float2half_rn(float) { return __half(); }
EOF
cat > "$work/stub/cuda_bf16.h" <<'EOF'
#pragma once
struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat16 { unsigned short __x; __nv_bfloat16() = default;
                       __nv_bfloat16(__nv_bfloat16_raw r) : __x(r.x) {}
                       operator __nv_bfloat16_raw() const { return {__x}; } };
struct __nv_bfloat162 { __nv_bfloat16 x, y; };
EOF
cat > "$work/stub/cuComplex.h" <<'EOF'
#pragma once
#include <vector_types.h>
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
inline float cuCrealf(cuFloatComplex z) { return z.x; }
inline float cuCimagf(cuFloatComplex z) { return z.y; }
inline double cuCreal(cuDoubleComplex z) { return z.x; }
inline double cuCimag(cuDoubleComplex z) { return z.y; }
inline cuFloatComplex make_cuFloatComplex(float a, float b) { return {a, b}; }
inline cuDoubleComplex make_cuDoubleComplex(double a, double b) { return {a, b}; }
EOF

c++ -std=c++17 -O0 -I"$work/stub" -I"$cccl/libcudacxx/include" -I"$cutlass/include" \
    "$work/driver.cpp" -o "$work/driver"
"$work/driver"
