/* app_elf.c: whether `gpu app`'s interposer can see a program's kernel
 * launches: it wraps the CUDA runtime's and driver's launch functions of
 * the shared libraries, so a program linked statically against the runtime
 * (nvcc's default, -cudart static) launches past it.  Read from the ELF
 * dynamic section's DT_NEEDED entries (64-bit little-endian ELF, what CUDA
 * runs on). */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdint.h>
#include <string.h>

/* The bytes [off, off+len) of the file, NULL when they are past its end. */
static const unsigned char *span(const unsigned char *f, size_t size,
                                 uint64_t off, uint64_t len) {
  return off <= size && len <= size - off ? f + off : NULL;
}

/* Whether a DT_NEEDED name is one of the CUDA libraries whose launches
 * the interposer wraps. */
static bool cuda_library(const char *name) {
  return !strncmp(name, "libcudart.so", 12) || !strncmp(name, "libcuda.so", 10);
}

/* 1: the file needs libcudart.so or libcuda.so; 0: it needs neither;
 * -1: no 64-bit little-endian ELF file with a dynamic section we can
 * read (a script, a static program). */
static int needs_cuda(const unsigned char *f, size_t size) {
  const Elf64_Ehdr *eh = (const void *)span(f, size, 0, sizeof(Elf64_Ehdr));
  if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_ident[EI_DATA] != ELFDATA2LSB ||
      eh->e_shentsize != sizeof(Elf64_Shdr))
    return -1;
  const Elf64_Shdr *sh = (const void *)span(
      f, size, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr));
  if (!sh)
    return -1;
  int found = -1;
  for (unsigned i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_DYNAMIC || sh[i].sh_link >= eh->e_shnum)
      continue;
    const Elf64_Dyn *dyn = (const void *)span(f, size, sh[i].sh_offset,
                                              sh[i].sh_size);
    const Elf64_Shdr *strs = &sh[sh[i].sh_link];
    const char *str = (const char *)span(f, size, strs->sh_offset,
                                         strs->sh_size);
    if (!dyn || !str || !strs->sh_size || str[strs->sh_size - 1])
      return -1;
    found = 0;
    for (size_t k = 0; k < sh[i].sh_size / sizeof *dyn; k++)
      if (dyn[k].d_tag == DT_NEEDED && dyn[k].d_un.d_val < strs->sh_size &&
          cuda_library(str + dyn[k].d_un.d_val))
        return 1;
  }
  return found;
}

const char *app_static_cudart(const char *path) {
  /* mapped, not read: a CUDA program's fat binaries can be large */
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return NULL; /* the run says why it cannot start */
  struct stat st;
  void *map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED)
    return NULL;
  int needs = needs_cuda(map, (size_t)st.st_size);
  munmap(map, (size_t)st.st_size);
  if (needs != 0)
    return NULL;
  return cli_format(
      "%s needs neither libcudart.so nor libcuda.so, so it is linked "
      "statically against the CUDA runtime (nvcc's default), whose kernel "
      "launches the interposer cannot see; rebuild it with "
      "`nvcc -cudart shared`",
      path);
}
