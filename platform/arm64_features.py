"""Prints the arm64 CPU features that libraries pick kernels by, as the kernel reports them in
the auxiliary vector (AT_HWCAP, AT_HWCAP2): under qemu-user these are the emulated CPU model's.
Run inside the arm64 root filesystem (scripts/arm64_exec.sh) by `run --platform arm64-CPU`; the
names are those of platform/host_platform.cpp's list, the bits those of Linux's
arch/arm64/include/uapi/asm/hwcap.h. Output: `arch <machine>` and `features <names...>`."""
import ctypes
import platform

AT_HWCAP, AT_HWCAP2 = 16, 26
HWCAP = {"fphp": 9, "asimd": 1, "asimdhp": 10, "asimddp": 20, "sve": 22}
HWCAP2 = {"sve2": 1, "svei8mm": 9, "svebf16": 12, "i8mm": 13, "bf16": 14, "sme": 23}

getauxval = ctypes.CDLL(None).getauxval
getauxval.restype = ctypes.c_ulong
getauxval.argtypes = [ctypes.c_ulong]
words = {AT_HWCAP: getauxval(AT_HWCAP), AT_HWCAP2: getauxval(AT_HWCAP2)}
found = [name for table, at in ((HWCAP, AT_HWCAP), (HWCAP2, AT_HWCAP2))
         for name, bit in table.items() if words[at] >> bit & 1]
print("arch", platform.machine())
print("features", " ".join(sorted(found)))
