// Only the header matters: libFuzzer provides LLVMFuzzerRunDriver when linked with -sanitize=fuzzer.
#include "CFuzzerDriver.h"
