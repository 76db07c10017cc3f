// Declarations only: LLVMFuzzerRunDriver comes from libclang_rt.fuzzer (-sanitize=fuzzer).
#include "FuzzDriver.h"
