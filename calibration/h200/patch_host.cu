// patch_host.cu: load a (patched) cubin and time kconv/kelect: one warm-up and three timed launches, median.
// usage: patch_host CUBIN KERNEL LABEL W...   (prints patch,LABEL_warpsW,cycles_per_phase,median,min,max,3)
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s; cuGetErrorString(r_, &s); \
  fprintf(stderr, "CU error %s at line %d\n", s, __LINE__); exit(1); } } while (0)
int main(int argc, char** argv) {
  CU(cuInit(0)); CUdevice dev; CU(cuDeviceGet(&dev, 0));
  CUcontext ctx; CU(cuDevicePrimaryCtxRetain(&ctx, dev)); CU(cuCtxSetCurrent(ctx));
  CUmodule mod; CU(cuModuleLoad(&mod, argv[1]));
  CUfunction f, spin; CU(cuModuleGetFunction(&f, mod, argv[2])); CU(cuModuleGetFunction(&spin, mod, "kspin"));
  CUdeviceptr out, sink; CU(cuMemAlloc(&out, 64)); CU(cuMemAlloc(&sink, 4096));
  long long cyc = 20000000; void* sp[] = {&cyc, &sink};
  CU(cuLaunchKernel(spin, 132, 1, 1, 32, 1, 1, 0, 0, sp, 0)); CU(cuCtxSynchronize());
  int iters = 2000;
  for (int a = 4; a < argc; a++) {
    int w = atoi(argv[a]);
    std::vector<double> v;
    for (int r = 0; r <= 3; r++) {
      void* p[] = {&iters, &out};
      CU(cuLaunchKernel(f, 1, 1, 1, 32 * w, 1, 1, 0, 0, p, 0)); CU(cuCtxSynchronize());
      long long h; CU(cuMemcpyDtoH(&h, out, 8));
      if (r > 0) v.push_back((double)h / iters);
    }
    std::sort(v.begin(), v.end());
    printf("patch,%s_warps%d,cycles_per_phase,%.2f,%.2f,%.2f,3\n", argv[3], w, v[1], v[0], v[2]);
  }
  return 0;
}
