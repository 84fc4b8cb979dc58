// SPDX-License-Identifier: GPL-2.0
/*
 * fpuregs READY GO: load known values into the vector registers (ymm0-15
 * with AVX2, else xmm0-15), MXCSR and the x87 stack top, create READY,
 * then loop on raw access(GO) system calls (which leave those registers
 * alone) until GO exists, and check the registers still hold the values.
 * Exit 0: all intact; 1: vector registers; 2: MXCSR; 3: x87.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static unsigned char in[16][32], out[16][32];

#define SYSCALLS							\
	"mov $2, %%eax\n\t"		/* open(READY, O_WRONLY|O_CREAT) */ \
	"mov %[ready], %%rdi\n\t"					\
	"mov $0x41, %%esi\n\t"						\
	"mov $0644, %%edx\n\t"						\
	"syscall\n\t"							\
	"mov %%rax, %%rdi\n\t"		/* close() */			\
	"mov $3, %%eax\n\t"						\
	"syscall\n"							\
	"1:\tmov $21, %%eax\n\t"	/* access(GO, F_OK) */		\
	"mov %[go], %%rdi\n\t"						\
	"xor %%esi, %%esi\n\t"						\
	"syscall\n\t"							\
	"test %%rax, %%rax\n\t"						\
	"jnz 1b\n\t"

int main(int argc, char **argv)
{
	unsigned int mx_in = 0x1f80 | (3 << 13), mx_out = 0;	/* round to zero */
	double x87_in = 3.141592653589793, x87_out = 0;
	bool avx = __builtin_cpu_supports("avx2");
	int i, j;

	if (argc != 3)
		return 9;
	for (i = 0; i < 16; i++)
		for (j = 0; j < 32; j++)
			in[i][j] = i * 37 + j * 11 + 5;

	if (avx)
		__asm__ __volatile__(
			"fldl %[x87]\n\t"
			"ldmxcsr %[mx]\n\t"
			"vmovdqu 0*32(%[in]), %%ymm0\n\t"  "vmovdqu 1*32(%[in]), %%ymm1\n\t"
			"vmovdqu 2*32(%[in]), %%ymm2\n\t"  "vmovdqu 3*32(%[in]), %%ymm3\n\t"
			"vmovdqu 4*32(%[in]), %%ymm4\n\t"  "vmovdqu 5*32(%[in]), %%ymm5\n\t"
			"vmovdqu 6*32(%[in]), %%ymm6\n\t"  "vmovdqu 7*32(%[in]), %%ymm7\n\t"
			"vmovdqu 8*32(%[in]), %%ymm8\n\t"  "vmovdqu 9*32(%[in]), %%ymm9\n\t"
			"vmovdqu 10*32(%[in]), %%ymm10\n\t" "vmovdqu 11*32(%[in]), %%ymm11\n\t"
			"vmovdqu 12*32(%[in]), %%ymm12\n\t" "vmovdqu 13*32(%[in]), %%ymm13\n\t"
			"vmovdqu 14*32(%[in]), %%ymm14\n\t" "vmovdqu 15*32(%[in]), %%ymm15\n\t"
			SYSCALLS
			"vmovdqu %%ymm0, 0*32(%[out])\n\t"  "vmovdqu %%ymm1, 1*32(%[out])\n\t"
			"vmovdqu %%ymm2, 2*32(%[out])\n\t"  "vmovdqu %%ymm3, 3*32(%[out])\n\t"
			"vmovdqu %%ymm4, 4*32(%[out])\n\t"  "vmovdqu %%ymm5, 5*32(%[out])\n\t"
			"vmovdqu %%ymm6, 6*32(%[out])\n\t"  "vmovdqu %%ymm7, 7*32(%[out])\n\t"
			"vmovdqu %%ymm8, 8*32(%[out])\n\t"  "vmovdqu %%ymm9, 9*32(%[out])\n\t"
			"vmovdqu %%ymm10, 10*32(%[out])\n\t" "vmovdqu %%ymm11, 11*32(%[out])\n\t"
			"vmovdqu %%ymm12, 12*32(%[out])\n\t" "vmovdqu %%ymm13, 13*32(%[out])\n\t"
			"vmovdqu %%ymm14, 14*32(%[out])\n\t" "vmovdqu %%ymm15, 15*32(%[out])\n\t"
			"stmxcsr %[mxo]\n\t"
			"fstpl %[x87o]\n\t"
			"vzeroupper\n\t"
			: [mxo] "=m" (mx_out), [x87o] "=m" (x87_out)
			: [in] "r" (in), [out] "r" (out), [mx] "m" (mx_in),
			  [x87] "m" (x87_in), [ready] "r" (argv[1]), [go] "r" (argv[2])
			: "rax", "rcx", "rdx", "rsi", "rdi", "r11", "memory",
			  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
			  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
			  "xmm15");
	else
		__asm__ __volatile__(
			"fldl %[x87]\n\t"
			"ldmxcsr %[mx]\n\t"
			"movdqu 0*32(%[in]), %%xmm0\n\t"  "movdqu 1*32(%[in]), %%xmm1\n\t"
			"movdqu 2*32(%[in]), %%xmm2\n\t"  "movdqu 3*32(%[in]), %%xmm3\n\t"
			"movdqu 4*32(%[in]), %%xmm4\n\t"  "movdqu 5*32(%[in]), %%xmm5\n\t"
			"movdqu 6*32(%[in]), %%xmm6\n\t"  "movdqu 7*32(%[in]), %%xmm7\n\t"
			"movdqu 8*32(%[in]), %%xmm8\n\t"  "movdqu 9*32(%[in]), %%xmm9\n\t"
			"movdqu 10*32(%[in]), %%xmm10\n\t" "movdqu 11*32(%[in]), %%xmm11\n\t"
			"movdqu 12*32(%[in]), %%xmm12\n\t" "movdqu 13*32(%[in]), %%xmm13\n\t"
			"movdqu 14*32(%[in]), %%xmm14\n\t" "movdqu 15*32(%[in]), %%xmm15\n\t"
			SYSCALLS
			"movdqu %%xmm0, 0*32(%[out])\n\t"  "movdqu %%xmm1, 1*32(%[out])\n\t"
			"movdqu %%xmm2, 2*32(%[out])\n\t"  "movdqu %%xmm3, 3*32(%[out])\n\t"
			"movdqu %%xmm4, 4*32(%[out])\n\t"  "movdqu %%xmm5, 5*32(%[out])\n\t"
			"movdqu %%xmm6, 6*32(%[out])\n\t"  "movdqu %%xmm7, 7*32(%[out])\n\t"
			"movdqu %%xmm8, 8*32(%[out])\n\t"  "movdqu %%xmm9, 9*32(%[out])\n\t"
			"movdqu %%xmm10, 10*32(%[out])\n\t" "movdqu %%xmm11, 11*32(%[out])\n\t"
			"movdqu %%xmm12, 12*32(%[out])\n\t" "movdqu %%xmm13, 13*32(%[out])\n\t"
			"movdqu %%xmm14, 14*32(%[out])\n\t" "movdqu %%xmm15, 15*32(%[out])\n\t"
			"stmxcsr %[mxo]\n\t"
			"fstpl %[x87o]\n\t"
			: [mxo] "=m" (mx_out), [x87o] "=m" (x87_out)
			: [in] "r" (in), [out] "r" (out), [mx] "m" (mx_in),
			  [x87] "m" (x87_in), [ready] "r" (argv[1]), [go] "r" (argv[2])
			: "rax", "rcx", "rdx", "rsi", "rdi", "r11", "memory",
			  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
			  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
			  "xmm15");

	for (i = 0; i < 16; i++)
		if (memcmp(in[i], out[i], avx ? 32 : 16))
			return 1;
	if (mx_out != mx_in)
		return 2;
	if (x87_out != x87_in)
		return 3;
	return 0;
}
