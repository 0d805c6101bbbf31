/* A program whose load values are known, for `lowprof eval value`. The
 * loop is written in assembly so no compiler choice changes its loads:
 * each of its 400000 iterations runs seven instructions and two 4-byte
 * loads, one that always loads 42 and one that loads 3, 5, 7 and 11 in
 * turn (each a quarter of the time). */
#include <stdint.h>

__asm__(".text\n"
        ".globl value_loop\n"
        ".type value_loop,@function\n"
        "value_loop:\n" /* edi iterations, rsi &constant, rdx &four */
        "  xor %ecx, %ecx\n"
        "1: mov (%rsi), %eax\n"
        "  mov %ecx, %r8d\n"
        "  and $3, %r8d\n"
        "  mov (%rdx,%r8,4), %r9d\n"
        "  inc %ecx\n"
        "  cmp %edi, %ecx\n"
        "  jne 1b\n"
        "  ret\n"
        ".size value_loop, .-value_loop\n");

void value_loop(uint32_t iterations, const uint32_t *constant, const uint32_t *four);

static const uint32_t constant = 42;
static const uint32_t four[4] = {3, 5, 7, 11};

int main(void)
{
    value_loop(400000, &constant, four);
    return 0;
}
