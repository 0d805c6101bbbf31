/* Does known work, then ends the way argv[1] says: "segv" dereferences
 * NULL, "kill" sends itself SIGTERM, "exit3" exits with status 3. The
 * recorder must still write the profile (marked incomplete for the two
 * signals). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile int sink;

__attribute__((noinline)) int work(int x)
{
    return x + 1;
}

int main(int argc, char **argv)
{
    for (int i = 0; i < 321; i++)
        sink += work(i);
    if (argc > 1 && strcmp(argv[1], "segv") == 0) {
        int *volatile nowhere = NULL;
        return *nowhere;
    }
    if (argc > 1 && strcmp(argv[1], "kill") == 0)
        kill(getpid(), SIGTERM);
    if (argc > 1 && strcmp(argv[1], "exit3") == 0)
        return 3;
    return 0;
}
