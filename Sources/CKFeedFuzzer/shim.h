#ifndef KFEED_FUZZER_SHIM_H
#define KFEED_FUZZER_SHIM_H
// libFuzzer's driver entry (compiler-rt, linked by -sanitize=fuzzer). kfeed-fuzz calls it from its own `main`, since
// SwiftPM names an executable's entry point itself. Declaration only; referenced only in KFEED_FUZZ builds.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
