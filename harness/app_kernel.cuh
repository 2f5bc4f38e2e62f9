/* app_kernel.cuh: the host side of a kernel of the corpus (ptx/kernels) as
 * a program, for `scopecat gpu app`: `scopecat gpu app -kernel-program
 * CASE.ptx` writes a .cu that includes the case's kernel, then this, and
 * gives sc_kernel_app_main the launch (@Config) and the inputs (@Input).
 * The program launches the kernel LAUNCHES times (its argument, default
 * 1000), each time on fresh copies of the inputs, reads back every array
 * and prints how many launches ended in each final state as a litmus7
 * histogram, the states named as `scopecat kernel` names them (A[0]=1;).
 * The post-condition is not judged here: `scopecat gpu app -kernel-check
 * CASE.ptx` reads the histogram and judges each state by the case's
 * @Output with the library's own reading of it.  Exit status 0 when every
 * launch ran, 3 on a CUDA error (said on stderr). */
#ifndef SCOPECAT_APP_KERNEL_CUH
#define SCOPECAT_APP_KERNEL_CUH

#include <cstdio>
#include <cstdlib>
#include <map>
#include <initializer_list>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

/* One kernel parameter's input: an array's initial contents (is_array) or
 * a scalar's value (values[0]); n == 0: no input (a null pointer). */
struct sc_kernel_in {
  const char *name;
  const long long *values;
  int n;
  int is_array;
};

/* A pointer parameter's element type, without const or volatile. */
template <class P>
using sc_elem = typename std::remove_cv<typename std::remove_pointer<P>::type>::type;

static bool sc_cuda_ok(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return true;
  fprintf(stderr, "kernel program: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

/* The device copy of one parameter: an array allocated once, refilled
 * before each launch, read back after it. */
template <class P, bool = std::is_pointer<P>::value>
struct sc_param {
  const sc_kernel_in *in;
  void *dev = nullptr;
  bool alloc(const sc_kernel_in *input) {
    in = input;
    return !in->n || sc_cuda_ok(cudaMalloc(&dev, in->n * sizeof(sc_elem<P>)), "cudaMalloc");
  }
  bool fill() {
    std::vector<sc_elem<P>> host(in->values, in->values + in->n);
    return !in->n || sc_cuda_ok(cudaMemcpy(dev, host.data(), in->n * sizeof(sc_elem<P>),
                                           cudaMemcpyHostToDevice),
                                "cudaMemcpy to the device");
  }
  P arg() const { return (P)dev; }
  /* "A[0]=v; A[1]=w; ", values as signed integers of the element's width,
   * as the model reads them */
  bool state(std::string &s) const {
    if (!in->n)
      return true;
    std::vector<sc_elem<P>> host(in->n);
    if (!sc_cuda_ok(cudaMemcpy(host.data(), dev, in->n * sizeof(sc_elem<P>),
                               cudaMemcpyDeviceToHost),
                    "cudaMemcpy from the device"))
      return false;
    for (int i = 0; i < in->n; i++) {
      char item[96];
      snprintf(item, sizeof item, "%s[%d]=%lld; ", in->name, i,
               (long long)(typename std::make_signed<sc_elem<P>>::type)host[i]);
      s += item;
    }
    return true;
  }
};

/* A scalar parameter: its value, nothing on the device. */
template <class P>
struct sc_param<P, false> {
  const sc_kernel_in *in;
  bool alloc(const sc_kernel_in *input) { in = input; return true; }
  bool fill() { return true; }
  P arg() const { return in->n ? (P)in->values[0] : P(); }
  bool state(std::string &) const { return true; }
};

template <class... P, size_t... I>
static int sc_kernel_app_run(const char *name, void (*kernel)(P...), std::index_sequence<I...>,
                             unsigned ctas, unsigned threads, const sc_kernel_in *inputs,
                             long launches) {
  std::tuple<sc_param<P>...> params;
  bool ok = true;
  (void)std::initializer_list<bool>{(ok = ok && std::get<I>(params).alloc(&inputs[I]))...};
  std::map<std::string, long> histogram;
  for (long l = 0; ok && l < launches; l++) {
    (void)std::initializer_list<bool>{(ok = ok && std::get<I>(params).fill())...};
    if (!ok)
      break;
    kernel<<<ctas, threads>>>(std::get<I>(params).arg()...);
    ok = sc_cuda_ok(cudaGetLastError(), "the launch") &&
         sc_cuda_ok(cudaDeviceSynchronize(), "the kernel");
    std::string s;
    (void)std::initializer_list<bool>{(ok = ok && std::get<I>(params).state(s))...};
    if (ok)
      histogram[s]++;
  }
  if (!ok)
    return 3;
  printf("Test %s Required\nHistogram (%zu states)\n", name, histogram.size());
  for (const auto &state : histogram)
    printf("%-6ld:>%s\n", state.second, state.first.c_str());
  printf("No\n");
  return 0;
}

/* main's body: argv[1] is the number of launches (default 1000). */
template <class... P>
static int sc_kernel_app_main(int argc, char **argv, const char *name, void (*kernel)(P...),
                              unsigned ctas, unsigned threads, const sc_kernel_in *inputs) {
  long launches = argc > 1 ? atol(argv[1]) : 1000;
  if (launches < 1) {
    fprintf(stderr, "usage: %s [LAUNCHES]\n", argv[0]);
    return 2;
  }
  return sc_kernel_app_run(name, kernel, std::index_sequence_for<P...>(), ctas, threads,
                           inputs, launches);
}

#endif
