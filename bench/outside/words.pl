# lowprof's phase evaluation outside the workload suite: text processing in
# stages (bench/phase_outside.sh). Deterministic: its own generator.
use strict;
use warnings;
my $seed = 12345;
sub rnd { $seed = ($seed * 1103515245 + 12345) % 2147483648; return $seed; }
my @syll = qw(ka lo mi ne ru sa ti vo we xu ya ze);
my @words;
for (1 .. 300000) {
    my $n = 1 + rnd() % 3;
    push @words, join('', map { $syll[rnd() % @syll] } 1 .. $n);
}
my $text = join(' ', @words);
for my $round (1 .. 3) {
    my %count;
    $count{$_}++ for split / /, $text;
    my @top = sort { $count{$b} <=> $count{$a} || $a cmp $b } keys %count;
    print "round $round: ", scalar(@top), " words, top $top[0]\n";
    (my $t = $text) =~ s/(\w)(\w*)/\U$1\E$2/g;
    $text = lc $t;
}
my @lines = ($text =~ /(.{1,60})(?:\s|$)/g);
my @sorted = sort @lines;
print scalar(@sorted), " lines, first '$sorted[0]'\n";
