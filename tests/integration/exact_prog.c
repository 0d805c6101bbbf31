/* A program whose exact profile is known, for the front end's exactness
 * test. The loops whose instruction counts matter are written in assembly so
 * no compiler choice can change them:
 *   - f() is called exactly 600 times from call_a() and 400 from call_b();
 *   - known_loop: its jnz runs 777 times (776 taken, backward), and the
 *     instructions since the previous branch sum to 3 + 776 * 2 = 1555;
 *   - load_values: one 4-byte load runs 1000 times, loading 5 (750 times)
 *     and 7 (250 times);
 *   - two threads each call g() exactly 100 times and run thread_loop
 *     (500 iterations of a 2-instruction loop);
 *   - tail calls that look like something else: jnext jumps to the function
 *     right after it (a jmp to the next instruction, 1000 times), jcond
 *     takes a conditional jump into cond_target (500 of 1000 calls). */
#include <pthread.h>
#include <stdio.h>

__asm__(".text\n"
        ".globl known_loop\n"
        ".type known_loop,@function\n"
        "known_loop:\n"
        "  mov $777, %ecx\n"
        "1: dec %ecx\n"
        "  jnz 1b\n"
        "  ret\n"
        ".size known_loop, .-known_loop\n"
        ".globl thread_loop\n"
        ".type thread_loop,@function\n"
        "thread_loop:\n"
        "  mov $500, %ecx\n"
        "2: dec %ecx\n"
        "  jnz 2b\n"
        "  ret\n"
        ".size thread_loop, .-thread_loop\n"
        ".globl load_values\n"
        ".type load_values,@function\n"
        "load_values:\n"
        "  lea value_table(%rip), %rsi\n"
        "  mov $1000, %ecx\n"
        "  xor %eax, %eax\n"
        "3: mov %ecx, %edx\n"
        "  and $3, %edx\n"
        "  mov (%rsi,%rdx,4), %edx\n"
        "  add %edx, %eax\n"
        "  dec %ecx\n"
        "  jnz 3b\n"
        "  ret\n"
        ".size load_values, .-load_values\n"
        ".globl jnext\n"
        ".type jnext,@function\n"
        "jnext: jmp jnext_target\n"
        ".size jnext, .-jnext\n"
        ".globl jnext_target\n"
        ".type jnext_target,@function\n"
        "jnext_target: mov $7, %eax\n"
        "  ret\n"
        ".size jnext_target, .-jnext_target\n"
        ".globl jcond\n"
        ".type jcond,@function\n"
        "jcond: test %edi, %edi\n"
        "  jne cond_target\n"
        "  xor %eax, %eax\n"
        "  ret\n"
        ".size jcond, .-jcond\n"
        ".globl cond_target\n"
        ".type cond_target,@function\n"
        "cond_target: mov $9, %eax\n"
        "  ret\n"
        ".size cond_target, .-cond_target\n"
        ".section .rodata\n"
        ".align 4\n"
        "value_table: .long 5, 5, 5, 7\n"
        ".text\n");

void known_loop(void);
void thread_loop(void);
int load_values(void);
int jnext(void);
int jcond(int);

volatile int sink;

__attribute__((noinline)) int f(int x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) int g(int x)
{
    return x ^ 0x55;
}

__attribute__((noinline)) void call_a(void)
{
    for (int i = 0; i < 600; i++)
        sink += f(i);
}

__attribute__((noinline)) void call_b(void)
{
    for (int i = 0; i < 400; i++)
        sink += f(i);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 100; i++)
        sink += g(i);
    thread_loop();
    return NULL;
}

int main(void)
{
    call_a();
    call_b();
    known_loop();
    sink += load_values();
    for (int i = 0; i < 1000; i++)
        sink += jnext() + jcond(i & 1);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("done %d\n", sink);
    return 0;
}
