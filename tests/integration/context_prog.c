/* A program with a known call tree, for the calling-context profile
 * (check_context.sh): main calls a() 100 times and a() calls leaf() 3
 * times; main calls b() 50 times and b() calls leaf() once; main calls the
 * self-recursive rec(10) 5 times (10 invocations each); and once the
 * mutually recursive ping(4) (ping, pong, ping, pong). Built with -O1
 * -fno-inline -fno-optimize-sibling-calls so every call stays a call. */
static volatile unsigned sink;

__attribute__((noinline)) void leaf(unsigned x)
{
    sink += x;
}

__attribute__((noinline)) void a(unsigned i)
{
    for (unsigned k = 0; k < 3; k++)
        leaf(i + k);
}

__attribute__((noinline)) void b(unsigned i)
{
    leaf(i);
}

__attribute__((noinline)) unsigned rec(unsigned depth)
{
    sink += depth;
    return depth > 1 ? rec(depth - 1) + 1 : 1;
}

__attribute__((noinline)) void pong(unsigned n);

__attribute__((noinline)) void ping(unsigned n)
{
    sink += n;
    if (n > 1)
        pong(n - 1);
}

__attribute__((noinline)) void pong(unsigned n)
{
    sink += n;
    if (n > 1)
        ping(n - 1);
}

int main(void)
{
    for (unsigned i = 0; i < 100; i++)
        a(i);
    for (unsigned i = 0; i < 50; i++)
        b(i);
    for (unsigned i = 0; i < 5; i++)
        sink += rec(10);
    ping(4);
    return 0;
}
