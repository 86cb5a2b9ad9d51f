#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

/// libFuzzer's entry point for programs that have their own main (compiler-rt FuzzerInterface.h).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// An anonymous in-memory file (memfd_create(2)), for readers that take a path.
static inline int fuzz_memory_file(const char *name) { return memfd_create(name, 0); }

#endif
