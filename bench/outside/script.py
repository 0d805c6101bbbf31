# lowprof's phase evaluation outside the workload suite: an interpreter
# running stages of different character (bench/phase_outside.sh).
import json

seed = 12345
def rnd():
    global seed
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed

syll = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "we", "xu", "ya", "ze"]
words = ["".join(syll[rnd() % len(syll)] for _ in range(1 + rnd() % 3)) for _ in range(200000)]
count = {}
for w in words:
    count[w] = count.get(w, 0) + 1
top = sorted(count.items(), key=lambda kv: (-kv[1], kv[0]))
print(len(top), "words, top", top[0])

n = 400000
sieve = bytearray([1]) * (n + 1)
sieve[0:2] = b"\0\0"
for i in range(2, int(n ** 0.5) + 1):
    if sieve[i]:
        sieve[i * i :: i] = bytes(len(range(i * i, n + 1, i)))
print(sum(sieve), "primes below", n)

records = [{"id": i, "name": words[i % len(words)], "score": rnd() % 1000} for i in range(60000)]
back = json.loads(json.dumps(records))
print(len(back), "records,", sum(r["score"] for r in back), "points")

lines = ["%06d %-12s %8.3f" % (r["id"], r["name"], r["score"] / 7.0) for r in back]
print(len(lines), "lines,", len("\n".join(lines)), "characters")
