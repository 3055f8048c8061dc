// libFuzzer's driver, declared for Swift (the function lives in libclang_rt.fuzzer, linked
// by -sanitize=fuzzer). SwiftPM names an executable's entry point <Module>_main and points
// `main` at it, so libFuzzer's own `main` is not used: ours calls this instead.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
